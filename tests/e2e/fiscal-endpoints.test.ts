/**
 * Every endpoint of a register's trading day over HTTP (spec 4.7; docs/conventions.md §14-§19): each fiscal
 * route in each version it has answers its success status and shape, each refusal the conventions name is
 * provoked and observed (status, exception, code), and only the register itself writes its records.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/fiscal/handler.ts';
import { access } from '#shared/auth/access.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { activateRegister, type RegisterApp, registerApp, registerVersion, saleOf } from '../support/fiscal.ts';
import { type Answer, type CallOptions, call, expectError, v } from '../support/http.ts';
import { DAY, swedishCorporateId, userOf } from '../support/identity.ts';

/** A register of a seller of its own: its path prefix and its key. */
interface Till {
  sellerId: string;
  cash: string;
  /** `/{sellerId}/registrations/{cash}` */
  base: string;
  as: CallOptions;
}

let app: RegisterApp;

/** Registers of a new seller, each named and activated the way a register of its version is. */
async function shop(...registers: [ApiVersion, string][]): Promise<Till[]> {
  const corporateId = swedishCorporateId();
  const sellerId = `SE${corporateId}`;
  const tills: Till[] = [];
  for (const [api, cash] of registers) {
    tills.push({
      sellerId,
      cash,
      base: `/${sellerId}/registrations/${cash}`,
      as: await activateRegister(api, app, corporateId, cash),
    });
  }
  return tills;
}

const till = async (api: ApiVersion, cash = 'K1'): Promise<Till> => (await shop([api, cash]))[0] as Till;

/** The answer, once its status is the one expected (its text explains a surprise). */
function expectStatus(answer: Answer, status: number): Answer {
  expect(answer.status, answer.text).toBe(status);
  return answer;
}

const keysOf = (value: unknown) => Object.keys(value as object).sort();
const detailsOf = (answer: Answer) => (answer.body as { details: Record<string, unknown> }).details;
const later = () => Date.now() + 2 * DAY;

const SALE_FIELDS_V15 = [
  'absoluteDiscount',
  'brutto',
  'close',
  'controlUnitId',
  'discount',
  'identifier',
  'payments',
  'prints',
  'refund',
  'refundFor',
  'relativeDiscount',
  'saleProducts',
  'saleState',
  'sellerIdentifier',
  'treasurer',
  'vanillaBrutto',
  'vat',
  'vatRateSums',
];
const SALE_FIELDS = { 15: SALE_FIELDS_V15, 26: [...SALE_FIELDS_V15, 'day'].sort(), 33: [...SALE_FIELDS_V15, 'day'].sort() };
const LINE_FIELDS_V15 = [
  'absoluteDiscount',
  'brutto',
  'created',
  'delta',
  'deltaUnit',
  'discount',
  'netto',
  'productIdentifier',
  'relativeDiscount',
  'vanillaBrutto',
  'vat',
];
const LINE_FIELDS = {
  15: LINE_FIELDS_V15,
  26: [...LINE_FIELDS_V15, 'effectiveBrutto', 'productBrutto', 'vatRate'].sort(),
  33: [...LINE_FIELDS_V15, 'effectiveBrutto', 'productBrutto', 'vatRate'].sort(),
};
const RECEIPT_FIELDS = ['cashRegisterName', 'controlNumber', 'created', 'printType', 'receiptNumber', 'sale', 'sellerId'];
const DAY_FIELDS = [
  'cash',
  'cashAtClose',
  'close',
  'closedDayTreasurer',
  'date',
  'dayNumber',
  'grandTotal',
  'grandTotalRefund',
  'id',
  'modified',
  'open',
  'opened',
  'reportPrinted',
  'version',
];
const REPORT_FIELDS = [
  'cancelled',
  'cash',
  'close',
  'copies',
  'date',
  'dayNumber',
  'discounts',
  'drawerOpenings',
  'goods',
  'grandTotals',
  'netSales',
  'open',
  'paymentTypes',
  'produced',
  'proforma',
  'receipts',
  'refunds',
  'register',
  'reportNumber',
  'sales',
  'salesPerCategory',
  'seller',
  'type',
  'unfinished',
  'unprinted',
  'vatPerRate',
];
const JOURNAL_ENTRY_FIELDS = [
  'amount',
  'controlCode',
  'created',
  'data',
  'dayNumber',
  'hash',
  'previousHash',
  'printType',
  'receiptNumber',
  'saleIdentifier',
  'sequence',
  'type',
];

/** A sale as each version shows it: its fields, its lines' fields and the receipt it carries. */
function expectSaleShape(sale: unknown, api: ApiVersion) {
  const shown = sale as { saleProducts: unknown[]; prints: unknown[]; payments: unknown[]; vatRateSums: unknown[] };
  expect(keysOf(shown)).toEqual(SALE_FIELDS[api]);
  for (const line of shown.saleProducts) expect(keysOf(line)).toEqual(LINE_FIELDS[api]);
  for (const print of shown.prints) {
    expect(keysOf(print)).toEqual(['controlNumber', 'created', 'deliveryType', 'printType', 'printed', 'receiptNumber']);
  }
  for (const payment of shown.payments) expect(keysOf(payment)).toEqual(['amount', 'paymentState', 'paymentType']);
  for (const sum of shown.vatRateSums) {
    expect(keysOf(sum)).toEqual(['brutto', 'netto', 'vanillaBrutto', 'vanillaNetto', 'vanillaVat', 'vat', 'vatRate']);
  }
}

interface DayShown {
  id: number;
  date: number;
  dayNumber: number;
  version: number;
}
interface Entry {
  sequence: number;
  created: number;
  type: string;
}

beforeAll(async () => {
  app = await registerApp();
});

describe.each([26, 33] as const)('v%i: every fiscal route of a register', (api) => {
  it('answers its success status and shape, through a whole day', async () => {
    const t = await till(api);
    const c = v(api);

    // A day opens by POST /days, and PUT /days/{id} names its closing treasurer under If-Match.
    expect([expectStatus(await c.post(`/${t.sellerId}/days`, {}, t.as), 201).body]).toEqual([{ identifier: '1' }]);
    const days = expectStatus(await c.get(`${t.base}/days`), 200).body as DayShown[];
    expect(days.map(keysOf)).toEqual([DAY_FIELDS]);
    expect(days[0]).toMatchObject({ id: 1, dayNumber: 1, opened: true, reportPrinted: false, cash: 0, close: null });
    const dayVersion = (days[0] as DayShown).version;
    const named = await c.put(
      `/${t.sellerId}/days/1`,
      { closedDayTreasurer: 'anna' },
      { ...t.as, headers: { 'If-Match': `"${dayVersion}"` } },
    );
    expect([named.status, named.text]).toEqual([204, '']);

    // Sales through each write path: POST and PUT, of the seller's and of the register's collection.
    const paid = saleOf(12500);
    expect(expectStatus(await c.post(`${t.base}/sales`, paid, t.as), 201).body).toEqual({ identifier: paid.identifier });
    const open = saleOf(5000, { saleState: 'Open', payments: [] });
    expect((await c.put(`/${t.sellerId}/sales`, open, t.as)).status).toBe(201);
    const nowPaid = { ...open, saleState: 'Paid', payments: [{ paymentType: 'Cash', amount: 5000 }] };
    expect(expectStatus(await c.put(`/${t.sellerId}/sales`, nowPaid, t.as), 204).text).toBe('');
    const chosen = expectStatus(await c.post(`/${t.sellerId}/sales`, saleOf(2000, { identifier: null }), t.as), 201);
    const chosenId = (chosen.body as { identifier: string }).identifier;
    expect(chosenId).toMatch(/^[0-9a-f-]{36}$/);
    const complete = saleOf(1000);
    expect((await c.put(`${t.base}/sales`, complete, t.as)).status).toBe(201);
    expect((await c.put(`${t.base}/sales`, { ...complete, saleState: 'Complete' }, t.as)).status).toBe(204);

    const sales = expectStatus(await c.get(`/${t.sellerId}/sales`), 200).body as { identifier: string; day: number }[];
    expect(sales.map((sale) => sale.identifier)).toEqual([paid.identifier, open.identifier, chosenId, complete.identifier]);
    for (const sale of sales) expectSaleShape(sale, api);
    expect(sales.map((sale) => sale.day)).toEqual([1, 1, 1, 1]);
    const overviews = expectStatus(await c.get(`/${t.sellerId}/sales-minified?cashRegisterName=K1`), 200).body as object[];
    expect(overviews[0]).toEqual({
      id: paid.identifier,
      close: null,
      brutto: 12500,
      receiptNumber: null,
      cashRegisterName: 'K1',
      vatSum: 2500,
      treasurer: [],
      ...(api === 33 ? { trip: null } : {}),
    });

    // Receipts: printed once with the next number, read back, copied.
    const receipt = expectStatus(await c.post(`${t.base}/sales/${paid.identifier}/receipt`, undefined, t.as), 201);
    expect(keysOf(receipt.body)).toEqual(RECEIPT_FIELDS);
    expect(receipt.body).toMatchObject({ sellerId: t.sellerId, cashRegisterName: 'K1', receiptNumber: 1, printType: 'Normal' });
    expectSaleShape((receipt.body as { sale: unknown }).sale, api);
    expect(expectStatus(await c.get(`${t.base}/sales/${paid.identifier}/receipt`), 200).body).toEqual(receipt.body);
    const copy = expectStatus(await c.get(`${t.base}/sales/${paid.identifier}/copy`, t.as), 200);
    expect(keysOf(copy.body)).toEqual(RECEIPT_FIELDS);
    expect(copy.body).toMatchObject({ receiptNumber: 1, printType: 'Copy' });
    for (const [index, identifier] of [open.identifier, chosenId, complete.identifier].entries()) {
      const printed = await c.post(`${t.base}/sales/${identifier}/receipt`, undefined, t.as);
      expect(expectStatus(printed, 201).body).toMatchObject({ receiptNumber: index + 2 });
    }

    // Cash balance.
    const cash = 12500 + 5000 + 2000 + 1000;
    expect(expectStatus(await c.post(`${t.base}/balance`, { amount: 1000, action: 'DEPOSIT' }, t.as), 201).body).toEqual({
      amount: cash + 1000,
    });
    expect(expectStatus(await c.get(`${t.base}/balance`), 200).body).toEqual({ amount: cash + 1000 });

    // Day lists and diffs by the register's version.
    const date = (days[0] as DayShown).date;
    expect(expectStatus(await c.get(`${t.base}/days-minified`), 200).body).toEqual([{ id: 1, date }]);
    const version = await registerVersion(t.sellerId, 'K1');
    const daysDiff = expectStatus(await c.get(`${t.base}/days-diff/0/${version}`), 200).body as DayShown[];
    expect(daysDiff.map(keysOf)).toEqual([DAY_FIELDS]);
    const salesDiff = expectStatus(await c.get(`${t.base}/sales-diff/0/${version}`), 200).body as { identifier: string }[];
    expect(salesDiff.map((sale) => sale.identifier).sort()).toEqual(sales.map((sale) => sale.identifier).sort());
    for (const sale of salesDiff) expectSaleShape(sale, api);

    // X report, close, Z report printed once.
    const xReport = expectStatus(await c.get(`${t.base}/days/1/report`), 200);
    expect(keysOf(xReport.body)).toEqual(REPORT_FIELDS);
    expect(xReport.body).toMatchObject({ type: 'X', reportNumber: null, dayNumber: 1, receipts: 4 });
    const closed = expectStatus(await c.post(`${t.base}/days/current`, undefined, t.as), 201);
    expect(keysOf(closed.body)).toEqual(DAY_FIELDS);
    expect(closed.body).toMatchObject({
      id: 1,
      opened: false,
      cashAtClose: cash + 1000,
      grandTotal: cash,
      grandTotalRefund: 0,
      closedDayTreasurer: 'anna',
    });
    expect(expectStatus(await c.get(`${t.base}/days/1/report`), 200).body).toMatchObject({ type: 'Z', reportNumber: 1 });
    const zReport = expectStatus(await c.post(`${t.base}/days/1/report`, undefined, t.as), 201);
    expect(keysOf(zReport.body)).toEqual(REPORT_FIELDS);
    expect(zReport.body).toMatchObject({ type: 'Z', reportNumber: 1, sales: { count: 4, brutto: cash } });

    // The e-journal: a device event appended, the chain read in both orders and paged.
    const device = expectStatus(await c.post(`/${t.sellerId}/e-journals/K1`, { data: { battery: 80 } }, t.as), 201);
    const entries = expectStatus(await c.get(`/${t.sellerId}/e-journals/K1`), 200).body as Entry[];
    expect(device.body).toEqual({ sequence: entries.length });
    expect(entries.map((entry) => entry.sequence)).toEqual(entries.map((_, index) => index + 1));
    expect(entries.map(keysOf)).toEqual(entries.map(() => JOURNAL_ENTRY_FIELDS));
    expect(entries.at(-1)).toMatchObject({ type: 'DEVICE', data: { battery: 80 } });
    const newestFirst = expectStatus(await c.get(`/${t.sellerId}/e-journals/K1?orderDesc=true`), 200).body as Entry[];
    expect(newestFirst).toEqual([...entries].reverse());
    const page = expectStatus(await c.get(`/${t.sellerId}/e-journals/K1?firstResult=1&maxResults=2`), 200).body as Entry[];
    expect(page).toEqual(entries.slice(1, 3));
    const lastPage = await c.get(`/${t.sellerId}/e-journals/K1?orderDesc=true&firstResult=0&maxResults=1`);
    expect(lastPage.body).toEqual(entries.slice(-1));

    if (api === 33) {
      const whole = expectStatus(await c.get(`/${t.sellerId}/generated-e-journals/K1`), 200).body as { entries: Entry[] };
      expect(keysOf(whole)).toEqual([
        'cashRegisterName',
        'entries',
        'generated',
        'head',
        'publicKeyFileName',
        'sellerId',
        'signature',
      ]);
      expect(whole.entries).toEqual(entries);
      const from = (entries[2] as Entry).created;
      const to = (entries.at(-2) as Entry).created;
      const slice = expectStatus(await c.get(`/${t.sellerId}/generated-e-journals/K1?from=${from}&to=${to}`), 200);
      const expected = entries.filter((entry) => entry.created >= from && entry.created <= to);
      expect((slice.body as { entries: Entry[] }).entries).toEqual(expected);
      expect((slice.body as { head: unknown }).head).toEqual({
        sequence: (expected.at(-1) as Entry).sequence,
        hash: (expected.at(-1) as Entry & { hash: string }).hash,
      });
    }
  });
});

describe('v15: every fiscal route of a register', () => {
  it('answers its success status and shape, through a whole day', async () => {
    const t = await till(15);
    const c = v(15);
    const sale = saleOf(12500);

    expect(expectStatus(await c.post(`/${t.sellerId}/sales`, sale, t.as), 201).body).toEqual({ identifier: sale.identifier });
    const sales = expectStatus(await c.get(`/${t.sellerId}/sales?cashRegisterName=K1`), 200).body as unknown[];
    expect(sales).toHaveLength(1);
    expectSaleShape(sales[0], 15);

    const receipt = expectStatus(await c.post(`/${t.sellerId}/sales/${sale.identifier}/receipt`, undefined, t.as), 201);
    expect(keysOf(receipt.body)).toEqual(RECEIPT_FIELDS);
    expect(receipt.body).toMatchObject({ cashRegisterName: 'K1', receiptNumber: 1, printType: 'Normal' });
    expectSaleShape((receipt.body as { sale: unknown }).sale, 15);
    // The register reads its own; a user names the register.
    expect(expectStatus(await c.get(`/${t.sellerId}/sales/${sale.identifier}/receipt`, t.as), 200).body).toEqual(receipt.body);
    const byUser = await c.get(`/${t.sellerId}/sales/${sale.identifier}/receipt?cashRegisterName=K1`);
    expect(expectStatus(byUser, 200).body).toEqual(receipt.body);
    const copy = expectStatus(await c.post(`/${t.sellerId}/sales/${sale.identifier}/copy`, undefined, t.as), 201);
    expect(copy.body).toMatchObject({ receiptNumber: 1, printType: 'Copy' });

    const days = expectStatus(await c.get(`/${t.sellerId}/days?cashRegisterName=K1`), 200).body as DayShown[];
    expect(days.map(keysOf)).toEqual([['date', 'id']]);
    expect(days[0]?.id).toBe(1);
    expect((await c.get(`/${t.sellerId}/days`, t.as)).body).toEqual(days);

    expect(expectStatus(await c.post(`${t.base}/balance`, { amount: 500, action: 'DEPOSIT' }, t.as), 201).body).toEqual({
      amount: 13000,
    });
    expect(expectStatus(await c.get(`${t.base}/balance`), 200).body).toEqual({ amount: 13000 });

    expect(expectStatus(await c.get(`/${t.sellerId}/days/1/report?cashRegisterName=K1`), 200).body).toMatchObject({
      type: 'X',
      dayNumber: 1,
    });
    const closed = expectStatus(await c.post(`/${t.sellerId}/days/current`, undefined, t.as), 201);
    expect(closed.body).toEqual(days[0]);
    const zRead = expectStatus(await c.get(`/${t.sellerId}/days/1/report`, t.as), 200);
    expect(keysOf(zRead.body)).toEqual(REPORT_FIELDS);
    expect(zRead.body).toMatchObject({ type: 'Z', reportNumber: 1 });
    expect(expectStatus(await c.post(`/${t.sellerId}/days/1/report`, undefined, t.as), 201).body).toMatchObject({
      type: 'Z',
      cash: { expected: 13000 },
    });

    const appended = expectStatus(await c.post(`/${t.sellerId}/e-journals/K1`, { data: { note: 'paper' } }, t.as), 201);
    const entries = expectStatus(await c.get(`/${t.sellerId}/e-journals/K1`), 200).body as Entry[];
    expect(appended.body).toEqual({ sequence: entries.length });
    expect(entries.map((entry) => entry.type)).toEqual([
      'DAY_OPENED',
      'SALE_RECORDED',
      'PRINT',
      'PRINT',
      'BALANCE',
      'DAY_CLOSED',
      'REPORT_PRINTED',
      'DEVICE',
    ]);
    expect((await c.get(`/${t.sellerId}/e-journals/K1?orderDesc=true&maxResults=1`)).body).toEqual(entries.slice(-1));
  });
});

describe('payment types across versions', () => {
  it("a v15/v26 Card is v33's EmvStandalone and ProviderD is EmvIntegrated, whichever version wrote it", async () => {
    const [k15, k33] = (await shop([15, 'K15'], [33, 'K33'])) as [Till, Till];
    const card = saleOf(1000, { payments: [{ paymentType: 'Card', amount: 1000 }] });
    const integrated = saleOf(2000, { payments: [{ paymentType: 'EmvIntegrated', amount: 2000 }] });
    expectStatus(await v(15).post(`/${k15.sellerId}/sales`, card, k15.as), 201);
    expectStatus(await v(33).post(`${k33.base}/sales`, integrated, k33.as), 201);

    const typesIn = async (api: ApiVersion) => {
      const sales = (await v(api).get(`/${k15.sellerId}/sales`)).body as { payments: { paymentType: string }[] }[];
      return sales.map((sale) => sale.payments.map((payment) => payment.paymentType));
    };
    // Registers list in name order: K15 before K33.
    expect(await typesIn(15)).toEqual([['Card'], ['ProviderD']]);
    expect(await typesIn(26)).toEqual([['Card'], ['ProviderD']]);
    expect(await typesIn(33)).toEqual([['EmvStandalone'], ['EmvIntegrated']]);
    const receipt = await v(26).post(`${k33.base}/sales/${integrated.identifier}/receipt`, undefined, k33.as);
    expect((expectStatus(receipt, 201).body as { sale: { payments: unknown[] } }).sale.payments).toEqual([
      { paymentType: 'ProviderD', amount: 2000, paymentState: null },
    ]);

    // A name of another version is not one of this version's.
    const foreign = await v(26).post(
      `${k33.base}/sales`,
      saleOf(100, { payments: [{ paymentType: 'EmvStandalone', amount: 100 }] }),
      k33.as,
    );
    expectError(foreign, 400, 'MessageNotReadable');
    expect(detailsOf(foreign)).toMatchObject({ field: 'payments[0].paymentType', actualValue: 'EmvStandalone' });
    expectError(
      await v(33).post(`${k33.base}/sales`, saleOf(100, { payments: [{ paymentType: 'Card', amount: 100 }] }), k33.as),
      400,
      'MessageNotReadable',
    );
  });
});
