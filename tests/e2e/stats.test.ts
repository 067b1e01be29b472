/**
 * Statistics and the sales CSV over HTTP (spec 4.5, 4.7; docs/conventions.md §20): two registers, two days
 * each, sums computed by hand; the stats of a closed day equal its Z report; the CSV read back by a CSV parser.
 *
 * Register K2's first day is dated three days ago (its sales carry that `close`, docs/conventions.md §17), is
 * closed and reported; its second day and both of K1's days are today's.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiVersion } from '#shared/versions.ts';
import { activateRegister, registerApp } from '../support/fiscal.ts';
import { type Answer, type CallOptions, expectError, newSeller, v } from '../support/http.ts';
import { DAY, swedishCorporateId, userOf } from '../support/identity.ts';

const HOUR = 3_600_000;
/** Now, and three days ago: every sale carries one of them as its `close`. */
const today = Date.now();
const earlier = today - 3 * DAY;

interface Line {
  product: string;
  /** Whole percent. */
  rate: number;
  delta: number;
  brutto: number;
}

const vatOf = (line: Line) => (line.brutto * line.rate) / (100 + line.rate);

/** A sale of the lines (brutto chosen so that the VAT is whole hundredths), paid as `payments` say. */
function saleOf(lines: Line[], payments: [string, number][], fields: Record<string, unknown> = {}) {
  const rates = [...new Set(lines.map((line) => line.rate))];
  const sum = (list: Line[], pick: (line: Line) => number) => list.reduce((total, line) => total + pick(line), 0);
  return {
    identifier: randomUUID(),
    sellerIdentifier: 'Anna',
    saleState: 'Paid',
    refund: false,
    refundFor: null,
    close: today,
    brutto: sum(lines, (line) => line.brutto),
    vat: sum(lines, vatOf),
    saleProducts: lines.map((line) => ({
      productIdentifier: line.product,
      deltaUnit: true,
      delta: line.delta,
      vat: vatOf(line),
      netto: line.brutto - vatOf(line),
      brutto: line.brutto,
      vatRate: line.rate,
    })),
    payments: payments.map(([paymentType, amount]) => ({ paymentType, amount })),
    vatRateSums: rates.map((rate) => {
      const at = lines.filter((line) => line.rate === rate);
      return {
        vatRate: rate * 100,
        vat: sum(at, vatOf),
        netto: sum(at, (l) => l.brutto - vatOf(l)),
        brutto: sum(at, (l) => l.brutto),
      };
    }),
    prints: [{ printType: 'Normal' }],
    ...fields,
  };
}

const kaffe = (delta: number, brutto: number): Line => ({ product: 'p1', rate: 25, delta, brutto });
const bulle = (delta: number, brutto: number): Line => ({ product: 'p2', rate: 12, delta, brutto });
/** A product the catalog does not have. */
const okänd = (delta: number, brutto: number): Line => ({ product: 'p3', rate: 25, delta, brutto });

let sellerId: string;
let k1: CallOptions;
let k2: CallOptions;
/** K2's first day: its business date and its Z report. */
let k2Day1: { date: number; report: Record<string, unknown> };
const sales = {
  a1: saleOf(
    [kaffe(2, 5000), bulle(1, 2240)],
    [
      ['Cash', 3000],
      ['EmvStandalone', 4240],
    ],
    {
      close: earlier,
      sellerIdentifier: '=1+1',
      treasurer: '-5',
    },
  ),
  a2: saleOf([okänd(1, 1250)], [['EmvStandalone', 1250]], { close: earlier, sellerIdentifier: 'Anna "A", K' }),
  a3: saleOf([kaffe(1, 2500)], [['Cash', 2500]], { close: earlier, refund: true, refundFor: 1 }),
  a4: saleOf([kaffe(1, 2500)], [], { close: earlier, saleState: 'Open', prints: [] }),
  a5: saleOf([bulle(3, 6720)], [['WalletA', 6720]], { sellerIdentifier: '+46 70', treasurer: '@home' }),
  b1: saleOf([kaffe(1, 2500)], [['Cash', 2500]]),
  b2: saleOf([okänd(2, 2500)], [['EmvStandalone', 2500]]),
  b3: saleOf([bulle(1, 2240)], [['Cash', 2240]]),
};

const stats = (api: ApiVersion, path: string, query = '', as?: CallOptions): Promise<Answer> =>
  v(api).get(`/${sellerId}${path}${query}`, as);
async function body<T = Record<string, unknown>>(answer: Promise<Answer>): Promise<T> {
  const done = await answer;
  expect(done.status, done.text).toBe(200);
  return done.body as T;
}
/** The period around K2's first day only. */
const aroundEarlier = `from=${earlier - HOUR}&to=${earlier + HOUR}`;

async function posted(register: CallOptions, cash: string, sale: object) {
  const answer = await v(33).post(`/${sellerId}/registrations/${cash}/sales`, sale, register);
  expect(answer.status, answer.text).toBe(201);
}
async function closeAndReport(register: CallOptions, cash: string, dayNumber: number) {
  expect((await v(33).post(`/${sellerId}/registrations/${cash}/days/current`, undefined, register)).status).toBe(201);
  const report = await body(v(33).get(`/${sellerId}/registrations/${cash}/days/${dayNumber}/report`, register));
  expect((await v(33).post(`/${sellerId}/registrations/${cash}/days/${dayNumber}/report`, undefined, register)).status).toBe(201);
  return report;
}

beforeAll(async () => {
  const corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  const app = await registerApp();
  k1 = await activateRegister(33, app, corporateId, 'K1');
  k2 = await activateRegister(33, app, corporateId, 'K2');
  const put = async (path: string, entity: object) => expect((await v(33).put(`/${sellerId}${path}`, entity)).status).toBe(201);
  await put('/taxes/t25', { vat: 25, name: 'Moms 25' });
  await put('/taxes/t12', { vat: 12, name: 'Moms 12' });
  const product = { barcode: '1', netto: 100, salesUnit: 'Piece', countedInPrice: true };
  await put('/products/p1', { ...product, name: 'Kaffe', tax: 't25' });
  await put('/products/p2', { ...product, name: 'Bulle', tax: 't12', salesUnit: 'Kilogram' });
  await put('/categories/c1', { name: 'Drycker' });
  await put('/categories/c2', { name: 'Frukost' });
  await put('/commodities/m1', { product: 'p1', category: 'c1' });
  await put('/commodities/m2', { product: 'p1', category: 'c2' });
  await put('/commodities/m3', { product: 'p2', category: 'c2' });

  for (const sale of [sales.a1, sales.a2, sales.a3, sales.a4]) await posted(k2, 'K2', sale);
  const report = await closeAndReport(k2, 'K2', 1);
  await posted(k2, 'K2', sales.a5);
  for (const sale of [sales.b1, sales.b2]) await posted(k1, 'K1', sale);
  await closeAndReport(k1, 'K1', 1);
  await posted(k1, 'K1', sales.b3);
  k2Day1 = { date: report.date as number, report };
}, 120_000);

/** `yyyy-MM-ddTHH:mm:ss.SSS±hhmm` in Stockholm, worked out here with Intl's own offset names. */
function stockholm(instant: number): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Stockholm',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const offset = part('timeZoneName').replace('GMT', '').replace(':', '') || '+0000';
  const millis = String(instant % 1000).padStart(3, '0');
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}.${millis}${offset}`;
}
/** The start of the business date `yyyymmdd` in Stockholm: the wall clock at 00:00 with the offset in force (no switch happens before 02:00). */
function midnight(date: number): string {
  const noonBefore = Date.UTC(Math.floor(date / 10000), (Math.floor(date / 100) % 100) - 1, date % 100) - 12 * HOUR;
  const offset = stockholm(noonBefore).slice(-5);
  const text = String(date);
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}T00:00:00.000${offset}`;
}
const hourOf = (instant: number) => stockholm(instant - (instant % HOUR));
const todayDate = () => Number(stockholm(today).slice(0, 10).replaceAll('-', ''));

describe('statistics over two registers and two days', () => {
  it('sales stats: today (period 1, the default), the week (period 7), by hour and by day', async () => {
    // Today: b1 + b2 (K1 day 1), b3 (K1 day 2), a5 (K2 day 2).
    expect(await body(stats(33, '/sales/stats'))).toEqual({
      total: 2500 + 2500 + 2240 + 6720,
      amountOfSales: 4,
      amountOfProducts: 1 + 2 + 1 + 3,
      dateGroupingUnit: 'HOUR',
      bruttoStats: { [hourOf(today)]: 13_960 },
    });
    // The week adds K2's first day: a1 + a2 - a3 (a4 is still Open).
    const week = await body(stats(33, '/sales/stats', '?period=7&dateGroupingUnit=DAY'));
    expect(week).toEqual({
      total: 13_960 + 7240 + 1250 - 2500,
      amountOfSales: 4 + 3,
      amountOfProducts: 7 + 2 + 1 + 1 - 1,
      dateGroupingUnit: 'DAY',
      bruttoStats: { [midnight(k2Day1.date)]: 5990, [midnight(todayDate())]: 13_960 },
    });
    expect((await body(stats(33, '/sales/stats', '?period=7'))).bruttoStats).toEqual({
      [hourOf(earlier)]: 5990,
      [hourOf(today)]: 13_960,
    });
    for (const unit of ['WEEK', 'MONTH']) {
      const grouped = await body<{ bruttoStats: Record<string, number> }>(
        stats(33, '/sales/stats', `?period=7&dateGroupingUnit=${unit}`),
      );
      expect(Object.values(grouped.bruttoStats).reduce((a, b) => a + b, 0)).toBe(19_950);
      for (const key of Object.keys(grouped.bruttoStats)) expect(key).toMatch(/^\d{4}-\d\d-\d\dT00:00:00\.000\+0[12]00$/);
    }
    // v15 has no dateGroupingUnit and takes the period as text; v26 names the unit.
    expect(await body(stats(15, '/sales/stats', '?period=7'))).toEqual({
      total: week.total,
      amountOfSales: 7,
      amountOfProducts: 10,
      bruttoStats: { [hourOf(earlier)]: 5990, [hourOf(today)]: 13_960 },
    });
    expect(await body(stats(26, '/sales/stats'))).toMatchObject({ total: 13_960, dateGroupingUnit: 'HOUR' });
  });

  it('register stats: every register, narrowed by the period and by cashRegisterName', async () => {
    expect(await body(stats(33, '/registrations/stats'))).toEqual([
      { cashRegisterName: 'K1', total: 7240 },
      { cashRegisterName: 'K2', total: 6720 },
    ]);
    expect(await body(stats(15, '/registrations/stats', '?period=7'))).toEqual([
      { cashRegisterName: 'K1', total: 7240 },
      { cashRegisterName: 'K2', total: 12_710 },
    ]);
    expect(await body(stats(26, '/registrations/stats', `?${aroundEarlier}`))).toEqual([
      { cashRegisterName: 'K1', total: 0 },
      { cashRegisterName: 'K2', total: 5990 },
    ]);
    expect(await body(stats(33, '/registrations/stats', '?period=7&cashRegisterName=K1'))).toEqual([
      { cashRegisterName: 'K1', total: 7240 },
    ]);
    expect(await body(stats(33, '/sales/stats', '?period=7&cashRegisterName=K1'))).toMatchObject({
      total: 7240,
      amountOfSales: 3,
    });
  });

  it('tax stats per VAT rate; v33 names the seller tax of each rate', async () => {
    expect(await body(stats(33, '/taxes/stats', '?period=7'))).toEqual({
      taxStats: [
        { vatRate: 1200, count: 3, netto: 10_000, brutto: 11_200, vatSum: 1200, vatName: 'Moms 12' },
        { vatRate: 2500, count: 5, netto: 7000, brutto: 8750, vatSum: 1750, vatName: 'Moms 25' },
      ],
    });
    expect(await body(stats(26, '/taxes/stats'))).toEqual({
      taxStats: [
        { vatRate: 1200, count: 2, netto: 8000, brutto: 8960, vatSum: 960 },
        { vatRate: 2500, count: 2, netto: 4000, brutto: 5000, vatSum: 1000 },
      ],
    });
  });

  it('product stats: names and sales units from the catalog, the best-selling first; vatSum from v26', async () => {
    const expected = [
      { identifier: 'p2', name: 'Bulle', brutto: 11_200, count: 5, salesUnit: 'Kilogram', vatSum: 1200 },
      { identifier: 'p1', name: 'Kaffe', brutto: 5000, count: 2, salesUnit: 'Piece', vatSum: 1000 },
      { identifier: 'p3', name: null, brutto: 3750, count: 3, salesUnit: null, vatSum: 750 },
    ];
    expect(await body(stats(33, '/products/stats', '?period=7'))).toEqual({
      totalBrutto: 19_950,
      totalProductsSold: 10,
      productStats: expected,
    });
    expect(await body(stats(15, '/products/stats', '?period=7'))).toEqual({
      totalBrutto: 19_950,
      totalProductsSold: 10,
      productStats: expected.map(({ vatSum: _vatSum, ...item }) => item),
    });
  });

  it('category stats: through the commodities, a product in two categories counting in both', async () => {
    expect(await body(stats(26, '/categories/stats', '?period=7'))).toEqual({
      totalProductsSold: 10,
      categoryStats: [
        { name: 'Drycker', brutto: 5000, count: 2, vatSum: 1000 },
        { name: 'Frukost', brutto: 16_200, count: 7, vatSum: 2200 },
      ],
    });
  });

  it('payment-type stats: the counting payments and their share of the VAT, in each version’s names', async () => {
    const week = await body(stats(33, '/sales/stats/payment-type', '?period=7'));
    // a1's VAT of 12.40 is shared 30.00 : 42.40 between cash (5.14) and card (7.26).
    expect(week).toEqual({
      paymentTypeStats: [
        { paymentType: 'Cash', count: 4, brutto: 3000 - 2500 + 2500 + 2240, vatSum: 514 - 500 + 500 + 240 },
        { paymentType: 'EmvStandalone', count: 3, brutto: 4240 + 1250 + 2500, vatSum: 726 + 250 + 500 },
        { paymentType: 'WalletA', count: 1, brutto: 6720, vatSum: 720 },
      ],
    });
    const v26 = await body<{ paymentTypeStats: { paymentType: string }[] }>(stats(26, '/sales/stats/payment-type', '?period=7'));
    expect(v26.paymentTypeStats.map((item) => item.paymentType)).toEqual(['Cash', 'Card', 'WalletA']);
  });

  it('day stats: each register day of the period; v33 adds close', async () => {
    const days = await body<{ dayStats: Record<string, unknown>[] }>(stats(33, '/days/stats', '?period=7'));
    const byDay = (list: Record<string, unknown>[]) =>
      Object.fromEntries(
        list.map(({ cashRegisterName, dayNumber, brutto, vatSum }) => [`${cashRegisterName}/${dayNumber}`, [brutto, vatSum]]),
      );
    expect(byDay(days.dayStats)).toEqual({ 'K1/1': [5000, 1000], 'K1/2': [2240, 240], 'K2/1': [5990, 990], 'K2/2': [6720, 720] });
    const opens = days.dayStats.map((day) => day.open as number);
    expect(opens).toEqual([...opens].sort((a, b) => a - b));
    expect(
      days.dayStats
        .filter((day) => day.close === null)
        .map((day) => `${day.cashRegisterName}/${day.dayNumber}`)
        .sort(),
    ).toEqual(['K1/2', 'K2/2']);
    const v26 = await body<{ dayStats: object[] }>(stats(26, '/days/stats', '?cashRegisterName=K2'));
    expect(v26.dayStats).toEqual([{ cashRegisterName: 'K2', dayNumber: 2, open: expect.any(Number), brutto: 6720, vatSum: 720 }]);
  });

  it('the stats of a closed day equal its Z report', async () => {
    const z = k2Day1.report as {
      type: string;
      open: number;
      close: number;
      sales: { count: number };
      refunds: { count: number };
      netSales: { brutto: number; vat: number };
      goods: { pieces: number; otherUnits: number };
      vatPerRate: { vatRate: number; count: number; netto: number; vat: number; brutto: number }[];
      paymentTypes: { paymentType: string; count: number; amount: number; vat: number }[];
      salesPerCategory: { category: string | null; count: number; brutto: number; vat: number }[];
    };
    expect(z.type).toBe('Z');
    const query = `?cashRegisterName=K2&${aroundEarlier}`;
    expect(await body(stats(33, '/sales/stats', query))).toEqual({
      total: z.netSales.brutto,
      amountOfSales: z.sales.count + z.refunds.count,
      amountOfProducts: z.goods.pieces + z.goods.otherUnits,
      dateGroupingUnit: 'HOUR',
      bruttoStats: { [hourOf(earlier)]: z.netSales.brutto },
    });
    expect(await body(stats(33, '/taxes/stats', query))).toEqual({
      taxStats: z.vatPerRate.map(({ vatRate, count, netto, vat, brutto }) => ({
        vatRate,
        count,
        netto,
        brutto,
        vatSum: vat,
        vatName: vatRate === 2500 ? 'Moms 25' : 'Moms 12',
      })),
    });
    expect(await body(stats(33, '/sales/stats/payment-type', query))).toEqual({
      paymentTypeStats: z.paymentTypes.map(({ paymentType, count, amount, vat }) => ({
        paymentType,
        count,
        brutto: amount,
        vatSum: vat,
      })),
    });
    // The Z report counts each line once, in the group it froze (a product in two categories too), so its categories add
    // up to the day's sales; categories/stats counts a product in every category it is in now.
    expect(z.salesPerCategory.reduce((total, { brutto }) => total + brutto, 0)).toBe(z.netSales.brutto);
    expect((await body(stats(33, '/categories/stats', query))).totalProductsSold).toBe(z.goods.pieces + z.goods.otherUnits);
    expect(await body(stats(33, '/days/stats', query))).toEqual({
      dayStats: [
        { cashRegisterName: 'K2', dayNumber: 1, open: z.open, close: z.close, brutto: z.netSales.brutto, vatSum: z.netSales.vat },
      ],
    });
    expect(await body(stats(33, '/registrations/stats', query))).toEqual([{ cashRegisterName: 'K2', total: z.netSales.brutto }]);
    // And the hand-computed figures of that day.
    expect(z.netSales).toEqual({ brutto: 5990, vat: 990, netto: 5000 });
  });
});

describe('the sales CSV', () => {
  it('is RFC 4180 text with a header row and one row per sale of the period; formula-like cells are neutralised', async () => {
    const answer = await v(33).get(`/${sellerId}/sales/stats/csv?period=7&fileName=kassa-juni`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=UTF-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="kassa-juni.csv"');
    expect(answer.text.endsWith('\r\n')).toBe(true);
    const rows = parse(answer.text, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];

    expect(Object.keys(rows[0] ?? {})).toEqual([
      'date',
      'time',
      'cashRegisterName',
      'dayNumber',
      'receiptNumber',
      'identifier',
      'type',
      'state',
      'brutto',
      'vat',
      'vat 12%',
      'vat 25%',
      'Cash',
      'EmvStandalone',
      'WalletA',
      'sellerIdentifier',
      'treasurer',
    ]);
    const { a1, a2, a3, a4, a5, b1, b2, b3 } = sales;
    expect(rows.map((row) => row.identifier)).toEqual([b1, b2, b3, a1, a2, a3, a4, a5].map((sale) => sale.identifier));
    const date = (yyyymmdd: number) =>
      `${String(yyyymmdd).slice(0, 4)}-${String(yyyymmdd).slice(4, 6)}-${String(yyyymmdd).slice(6)}`;
    expect(rows[3]).toEqual({
      date: date(k2Day1.date),
      time: stockholm(earlier),
      cashRegisterName: 'K2',
      dayNumber: '1',
      receiptNumber: '1',
      identifier: a1.identifier,
      type: 'sale',
      state: 'Paid',
      brutto: '7240',
      vat: '1240',
      'vat 12%': '240',
      'vat 25%': '1000',
      Cash: '3000',
      EmvStandalone: '4240',
      WalletA: '0',
      sellerIdentifier: "'=1+1",
      treasurer: "'-5",
    });
    expect(rows[4]?.sellerIdentifier).toBe('Anna "A", K');
    expect(rows[5]).toMatchObject({ type: 'refund', receiptNumber: '3', brutto: '2500', Cash: '2500' });
    expect(rows[6]).toMatchObject({ state: 'Open', receiptNumber: '', brutto: '2500' });
    expect(rows[7]).toMatchObject({ sellerIdentifier: "'+46 70", treasurer: "'@home", WalletA: '6720', date: date(todayDate()) });

    // The sold sales less the refunds add up to the period's sales stats.
    const counted = rows.filter((row) => row.state === 'Paid' || row.state === 'Complete');
    const net = (column: string) =>
      counted.reduce((total, row) => total + (row.type === 'refund' ? -1 : 1) * Number(row[column]), 0);
    expect(net('brutto')).toBe(19_950);
    expect(net('vat 25%') + net('vat 12%')).toBe(net('vat'));
    expect(net('Cash') + net('EmvStandalone') + net('WalletA')).toBe(19_950);
  });

  it('narrows like the stats: one register, from/to', async () => {
    const csv = (query: string) =>
      v(33)
        .get(`/${sellerId}/sales/stats/csv?${query}`)
        .then((answer) => parse(answer.text, { columns: true }) as Record<string, string>[]);
    expect((await csv('cashRegisterName=K1')).map((row) => row.identifier)).toEqual(
      [sales.b1, sales.b2, sales.b3].map((sale) => sale.identifier),
    );
    expect((await csv(aroundEarlier)).map((row) => row.identifier)).toEqual(
      [sales.a1, sales.a2, sales.a3, sales.a4].map((sale) => sale.identifier),
    );
    const empty = await v(33).get(`/${sellerId}/sales/stats/csv?from=0&to=1000`);
    expect(empty.headers.get('content-disposition')).toBe('attachment; filename="sales.csv"');
    expect(empty.text).toBe(
      'date,time,cashRegisterName,dayNumber,receiptNumber,identifier,type,state,brutto,vat,sellerIdentifier,treasurer\r\n',
    );
  });
});

describe('parameters and access', () => {
  it.each([
    ['/sales/stats', '?period=abc'],
    ['/sales/stats', '?period=0'],
    ['/products/stats', '?period=1.5'],
    ['/taxes/stats', '?from=yesterday'],
    ['/days/stats', '?from=-1'],
    ['/categories/stats', `?from=${today}&to=${earlier}`],
    ['/sales/stats', '?dateGroupingUnit=YEAR'],
    ['/sales/stats/payment-type', '?to=1e3'],
    ['/sales/stats/csv', '?period=x'],
  ])('%s%s is 400 TypeMismatch', async (path, query) => {
    expectError(await stats(33, path, query), 400, 'TypeMismatch');
  });

  it('v15 takes its period as text and refuses a bad one the same way', async () => {
    expectError(await stats(15, '/registrations/stats', '?period=week'), 400, 'TypeMismatch');
  });

  it('a file name that is no identifier is 400 ValueNotValid; a register the seller never had is 409', async () => {
    expectError(await stats(33, '/sales/stats/csv', '?fileName=a%2Fb'), 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    expectError(await stats(33, '/taxes/stats', '?cashRegisterName=K9'), 409, 'InconsistentData', 'SELLER_HAS_NOT_REGISTRATION');
  });

  it("the seller's registers read its stats; another seller's user is 403", async () => {
    expect((await stats(33, '/registrations/stats', '', k1)).status).toBe(200);
    const stranger = await userOf('REGULAR_USER', null, [await newSeller()]);
    for (const path of ['/taxes/stats', '/sales/stats', '/days/stats', '/sales/stats/csv']) {
      expectError(await stats(33, path, '', stranger), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    }
  });

  it('the stats paths leave the catalog its other methods: a tax named "stats" can be written', async () => {
    expect((await v(33).put(`/${sellerId}/taxes/stats`, { vat: 6, name: 'Moms 6' })).status).toBe(201);
    expect((await v(33).del(`/${sellerId}/taxes/stats`)).status).toBe(204);
  });
});
