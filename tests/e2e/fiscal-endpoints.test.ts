/**
 * Every endpoint of a register's trading day over HTTP (spec 4.7; docs/conventions.md §14-§19): each fiscal
 * route in each version it has answers its success status and shape, each refusal the conventions name is
 * provoked and observed (status, exception, code), and only the register itself writes its records.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/fiscal/handler.ts';
import { access } from '#shared/auth/access.ts';
import { table } from '#shared/db/client.ts';
import { putItem } from '#shared/db/documents.ts';
import { versionSortKey } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { indexItemsOf } from '#shared/db/streams.ts';
import { dayKey } from '#shared/fiscal/ledger.ts';
import type { ApiVersion } from '#shared/versions.ts';
import {
  activateRegister,
  fiscalBody,
  fiscalPath,
  type RegisterApp,
  registerApp,
  registerVersion,
  saleOf,
} from '../support/fiscal.ts';
import { type Answer, type CallOptions, call, detailOf, expectError, v } from '../support/http.ts';
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
  'training',
  'treasurer',
  'vanillaBrutto',
  'vat',
  'vatRateSums',
];
const SALE_FIELDS = { 15: SALE_FIELDS_V15, 26: [...SALE_FIELDS_V15, 'day'].sort(), 33: [...SALE_FIELDS_V15, 'day'].sort() };
const LINE_FIELDS_V15 = [
  'absoluteDiscount',
  'articleType',
  'brutto',
  'created',
  'delta',
  'deltaUnit',
  'discount',
  'group',
  'name',
  'netto',
  'productIdentifier',
  'quantity',
  'relativeDiscount',
  'salesUnit',
  'unitPrice',
  'vanillaBrutto',
  'vat',
];
const LINE_FIELDS = {
  15: LINE_FIELDS_V15,
  26: [...LINE_FIELDS_V15, 'effectiveBrutto', 'productBrutto', 'vatRate'].sort(),
  33: [...LINE_FIELDS_V15, 'effectiveBrutto', 'productBrutto', 'vatRate'].sort(),
};
/** A receipt's fields (docs/conventions.md §16): the print, the sale, and every item of SKVFS 2014:9, 7 kap. 1 §. */
const RECEIPT_FIELDS = [
  'cashRegisterName',
  'controlNumber',
  'created',
  'currency',
  'discount',
  'heading',
  'lines',
  'markings',
  'payments',
  'printType',
  'receiptNumber',
  'receiptUrl',
  'refund',
  'refundFor',
  'register',
  'sale',
  'saleTime',
  'saleTimeLocal',
  'seller',
  'sellerId',
  'timeZone',
  'total',
  'training',
  'treasurer',
  'vat',
  'vatPerRate',
];
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
  'drawerOpeningsWithoutSale',
  'goods',
  'grandTotals',
  'netSales',
  'open',
  'otherReductions',
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
  'services',
  'training',
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
    expect(expectStatus(await c.post(`/${t.sellerId}/days`, {}, t.as), 201).body).toEqual({ identifier: '1' });
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
    // The day's report names them as the version reading it does, like its sales.
    const reportTypes = async (api: ApiVersion, path: string) =>
      ((await v(api).get(path)).body as { paymentTypes: { paymentType: string }[] }).paymentTypes.map((sums) => sums.paymentType);
    expect(await reportTypes(15, `/${k15.sellerId}/days/1/report?cashRegisterName=K15`)).toEqual(['Card']);
    expect(await reportTypes(26, `${k15.base}/days/1/report`)).toEqual(['Card']);
    expect(await reportTypes(33, `${k15.base}/days/1/report`)).toEqual(['EmvStandalone']);
    expect(await reportTypes(26, `${k33.base}/days/1/report`)).toEqual(['ProviderD']);

    // A name of another version is not one of this version's.
    const foreign = await v(26).post(
      `${k33.base}/sales`,
      saleOf(100, { payments: [{ paymentType: 'EmvStandalone', amount: 100 }] }),
      k33.as,
    );
    expectError(foreign, 400, 'MessageNotReadable');
    expect(detailOf(foreign)).toMatchObject({ field: 'payments[0].paymentType', actualValue: 'EmvStandalone' });
    expectError(
      await v(33).post(`${k33.base}/sales`, saleOf(100, { payments: [{ paymentType: 'Card', amount: 100 }] }), k33.as),
      400,
      'MessageNotReadable',
    );
  });
});

describe("the register's version", () => {
  it('moves by one with each fiscal write, and the diffs of that step show what it changed', async () => {
    const t = await till(33);
    const c = v(33);
    const sale = saleOf(4000);
    /** Printed on day 1 and copied only once the day is closed. */
    const copiedLater = saleOf(3000);
    /** Runs one write and answers what the register's diffs show of it. */
    const step = async (write: () => Promise<Answer>, status: number) => {
      const before = await registerVersion(t.sellerId, 'K1');
      expectStatus(await write(), status);
      const after = await registerVersion(t.sellerId, 'K1');
      const sales = (await c.get(`${t.base}/sales-diff/${before}/${after}`)).body as { identifier: string }[];
      const days = (await c.get(`${t.base}/days-diff/${before}/${after}`)).body as DayShown[];
      return { moved: after - before, sales: sales.map((s) => s.identifier), days: days.map((d) => d.dayNumber) };
    };
    const wrote = (sales: string[], days: number[]) => ({ moved: 1, sales, days });

    expect(await step(() => c.post(`/${t.sellerId}/days`, {}, t.as), 201)).toEqual(wrote([], [1]));
    expect(await step(() => c.post(`${t.base}/sales`, sale, t.as), 201)).toEqual(wrote([sale.identifier], [1]));
    expect(await step(() => c.put(`${t.base}/sales`, { ...sale, saleState: 'Complete' }, t.as), 204)).toEqual(
      wrote([sale.identifier], [1]),
    );
    expect(await step(() => c.post(`${t.base}/sales/${sale.identifier}/receipt`, undefined, t.as), 201)).toEqual(
      wrote([sale.identifier], [1]),
    );
    expect(await step(() => c.get(`${t.base}/sales/${sale.identifier}/copy`, t.as), 200)).toEqual(wrote([sale.identifier], [1]));
    expect(await step(() => c.post(`${t.base}/sales`, copiedLater, t.as), 201)).toEqual(wrote([copiedLater.identifier], [1]));
    expect(await step(() => c.post(`${t.base}/sales/${copiedLater.identifier}/receipt`, undefined, t.as), 201)).toEqual(
      wrote([copiedLater.identifier], [1]),
    );
    expect(await step(() => c.post(`${t.base}/balance`, { amount: 100, action: 'DEPOSIT' }, t.as), 201)).toEqual(wrote([], [1]));
    expect(await step(() => c.put(`/${t.sellerId}/days/1`, { closedDayTreasurer: 'eva' }, t.as), 204)).toEqual(wrote([], [1]));
    // A device event is journalled: the counter moves, no sale or day changes.
    expect(await step(() => c.post(`/${t.sellerId}/e-journals/K1`, { data: { door: 'open' } }, t.as), 201)).toEqual(
      wrote([], []),
    );
    expect(await step(() => c.post(`${t.base}/days/current`, undefined, t.as), 201)).toEqual(wrote([], [1]));
    expect(await step(() => c.post(`${t.base}/days/1/report`, undefined, t.as), 201)).toEqual(wrote([], [1]));
    // A copy of a closed day's sale leaves the sale and its day as they are and counts in the day it opens.
    expect(await step(() => c.get(`${t.base}/sales/${copiedLater.identifier}/copy`, t.as), 200)).toEqual(wrote([], [2]));
    const days = (await c.get(`${t.base}/days`)).body as { dayNumber: number; opened: boolean }[];
    expect(days.map((day) => [day.dayNumber, day.opened])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect((await c.get(`${t.base}/days/2/report`)).body).toMatchObject({ copies: { count: 1, brutto: 3000 } });

    // A replayed POST, a refused write and a read move nothing.
    const version = await registerVersion(t.sellerId, 'K1');
    const journal = (await c.get(`/${t.sellerId}/e-journals/K1`)).body;
    const replay = await c.post(`${t.base}/sales`, sale, t.as);
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([
      201,
      'true',
      { identifier: sale.identifier },
    ]);
    expectError(await c.post(`${t.base}/days/1/report`, undefined, t.as), 404, 'NotFound', 'REPORT_IS_PRINTED_ALREADY');
    expect((await c.get(`${t.base}/sales/${sale.identifier}/receipt`, t.as)).status).toBe(200);
    expect(await registerVersion(t.sellerId, 'K1')).toBe(version);
    expect((await c.get(`/${t.sellerId}/e-journals/K1`)).body).toEqual(journal);
  });

  it('days-diff shows once an open day stored in the version index, as days were before the open one left it', async () => {
    const t = await till(33);
    const c = v(33);
    expectStatus(await c.post(`${t.base}/sales`, saleOf(2000), t.as), 201);
    const opened = await registerVersion(t.sellerId, 'K1');
    // The day as the earlier layout stored it: with its vsk, and so (once migrated) its change item.
    const key = dayKey({ sellerId: t.sellerId, cash: 'K1' }, 1);
    for (const item of indexItemsOf({ ...(await readItem(key)), ...key, vsk: versionSortKey('DAY', opened) })) {
      await putItem({ TableName: table(), Item: item });
    }
    const diff = async (from: number, to: number) =>
      ((await c.get(`${t.base}/days-diff/${from}/${to}`)).body as DayShown[]).map((day) => [day.dayNumber, day.version]);
    expect(await diff(0, opened)).toEqual([[1, opened]]);

    expectStatus(await c.post(`${t.base}/sales`, saleOf(3000), t.as), 201);
    const sold = await registerVersion(t.sellerId, 'K1');
    expect(await diff(0, sold)).toEqual([[1, sold]]);
    expect(await diff(0, opened)).toEqual([]);
    expect((await c.get(`${t.base}/days-diff/${opened}/${sold}`)).body).toMatchObject([{ dayNumber: 1, cash: 5000 }]);
  });
});

/** A sale whose Normal receipt is printed with it. */
const printedSale = (brutto: number, fields: Record<string, unknown> = {}) =>
  saleOf(brutto, { prints: [{ printType: 'Normal', receiptNumber: null }], ...fields });

describe.each([26, 33] as const)('v%i refusals', (api) => {
  const c = v(api);

  it('DAY_IS_CLOSED: the balance and a close with no day open, a write to a closed day', async () => {
    const t = await till(api);
    expectError(await c.get(`${t.base}/balance`, t.as), 404, 'ReferenceNotFound', 'DAY_IS_CLOSED');
    expectError(await c.post(`${t.base}/days/current`, undefined, t.as), 422, 'UnprocessableEntity', 'DAY_IS_CLOSED');
    const open = saleOf(3000, { saleState: 'Open', payments: [] });
    expectStatus(await c.post(`${t.base}/sales`, open, t.as), 201);
    expectStatus(await c.post(`${t.base}/sales`, printedSale(1000), t.as), 201);
    expectStatus(await c.post(`${t.base}/days/current`, undefined, t.as), 201);

    expectError(
      await c.put(`${t.base}/sales`, { ...open, saleState: 'Cancelled' }, t.as),
      404,
      'ReferenceNotFound',
      'DAY_IS_CLOSED',
    );
    expectError(
      await c.post(`${t.base}/sales/${open.identifier}/receipt`, undefined, t.as),
      422,
      'UnprocessableEntity',
      'DAY_IS_CLOSED',
    );
    expectError(await c.get(`${t.base}/balance`, t.as), 404, 'ReferenceNotFound', 'DAY_IS_CLOSED');
    expectError(await c.post(`${t.base}/days/current`, undefined, t.as), 422, 'UnprocessableEntity', 'DAY_IS_CLOSED');
    expectError(await c.put(`/${t.sellerId}/days/1`, { opened: false }, t.as), 409, 'VersionConflict', 'DAY_IS_CLOSED');
  });

  it('DAY_IS_NOT_CLOSED: a sale dated after the open day, a second open day, a Z report of the open day', async () => {
    const t = await till(api);
    expectStatus(await c.post(`${t.base}/sales`, saleOf(1000), t.as), 201);
    expectError(
      await c.post(`${t.base}/sales`, saleOf(1000, { close: later() }), t.as),
      404,
      'ReferenceNotFound',
      'DAY_IS_NOT_CLOSED',
    );
    expectError(await c.post(`/${t.sellerId}/days`, {}, t.as), 409, 'VersionConflict', 'DAY_IS_NOT_CLOSED');
    expectError(await c.post(`${t.base}/days/1/report`, undefined, t.as), 404, 'NotFound', 'DAY_IS_NOT_CLOSED');
  });

  it("REPORT_IS_NOT_PRINTED: a sale, a balance change, a new day or a copy before the last day's Z report", async () => {
    const t = await till(api);
    const sale = printedSale(1000);
    expectStatus(await c.post(`${t.base}/sales`, sale, t.as), 201);
    expectStatus(await c.post(`${t.base}/days/current`, undefined, t.as), 201);

    expectError(await c.post(`${t.base}/sales`, saleOf(1000), t.as), 404, 'ReferenceNotFound', 'REPORT_IS_NOT_PRINTED');
    expectError(
      await c.post(`${t.base}/balance`, { amount: 100, action: 'DEPOSIT' }, t.as),
      422,
      'UnprocessableEntity',
      'REPORT_IS_NOT_PRINTED',
    );
    expectError(await c.post(`/${t.sellerId}/days`, {}, t.as), 409, 'VersionConflict', 'REPORT_IS_NOT_PRINTED');
    expectError(await c.get(`${t.base}/sales/${sale.identifier}/copy`, t.as), 404, 'NotFound', 'REPORT_IS_NOT_PRINTED');

    expectStatus(await c.post(`${t.base}/days/1/report`, undefined, t.as), 201);
    expect(expectStatus(await c.post(`/${t.sellerId}/days`, {}, t.as), 201).body).toEqual({ identifier: '2' });
  });

  it('REPORT_IS_PRINTED_ALREADY: a second Z report', async () => {
    const t = await till(api);
    expectStatus(await c.post(`${t.base}/balance`, { amount: 100, action: 'DEPOSIT' }, t.as), 201);
    expectStatus(await c.post(`${t.base}/days/current`, undefined, t.as), 201);
    expectStatus(await c.post(`${t.base}/days/1/report`, undefined, t.as), 201);
    expectError(await c.post(`${t.base}/days/1/report`, undefined, t.as), 404, 'NotFound', 'REPORT_IS_PRINTED_ALREADY');
  });

  it('RECEIPT_IS_NOT_PRINTED: a close with a sold sale unprinted, a copy before the receipt', async () => {
    const t = await till(api);
    const sale = saleOf(1000);
    expectStatus(await c.post(`${t.base}/sales`, sale, t.as), 201);
    expectError(await c.post(`${t.base}/days/current`, undefined, t.as), 422, 'UnprocessableEntity', 'RECEIPT_IS_NOT_PRINTED');
    expectError(await c.get(`${t.base}/sales/${sale.identifier}/copy`, t.as), 404, 'NotFound', 'RECEIPT_IS_NOT_PRINTED');
    const copyFirst = saleOf(1000, { prints: [{ printType: 'Copy', receiptNumber: null }] });
    expectError(await c.post(`${t.base}/sales`, copyFirst, t.as), 422, 'UnprocessableEntity', 'RECEIPT_IS_NOT_PRINTED');
    expectError(
      await c.put(`${t.base}/sales`, { ...sale, prints: [{ printType: 'Copy', receiptNumber: null }] }, t.as),
      422,
      'UnprocessableEntity',
      'RECEIPT_IS_NOT_PRINTED',
    );
  });

  it('RECEIPT_IS_PRINTED_ALREADY: a second Normal print, a change to what a printed receipt shows, a stored print dropped', async () => {
    const t = await till(api);
    const sale = printedSale(1000);
    expectStatus(await c.post(`${t.base}/sales`, sale, t.as), 201);
    const stored = [{ printType: 'Normal', receiptNumber: 1 }];
    const refused = async (body: unknown, method: 'post' | 'put' = 'put') =>
      expectError(await c[method](`${t.base}/sales`, body, t.as), 422, 'UnprocessableEntity', 'RECEIPT_IS_PRINTED_ALREADY');

    expectError(
      await c.post(`${t.base}/sales/${sale.identifier}/receipt`, undefined, t.as),
      422,
      'UnprocessableEntity',
      'RECEIPT_IS_PRINTED_ALREADY',
    );
    await refused({ ...sale, prints: [...stored, { printType: 'Normal', receiptNumber: null }] });
    await refused({ ...sale, prints: [] });
    await refused({ ...sale, prints: [{ printType: 'Normal', receiptNumber: 1, controlNumber: 'other' }] });
    await refused({ ...saleOf(2000, { identifier: sale.identifier }), prints: stored });
    await refused({ ...sale, prints: stored, sellerIdentifier: 'Bo' });
    await refused(saleOf(1000, { prints: [{ printType: 'Normal' }, { printType: 'Normal' }] }), 'post');
    // What the receipt does not show may still change: its state, new prints.
    const completed = { ...sale, saleState: 'Complete', prints: [...stored, { printType: 'Copy', receiptNumber: 1 }] };
    expectStatus(await c.put(`${t.base}/sales`, completed, t.as), 204);
  });

  it('PROHIBITED_ORDER_STATUS_CHANGE: every move but Open -> Paid -> Complete and Open -> Cancelled', async () => {
    const t = await till(api);
    const moves = [
      ['Open', 'Complete'],
      ['Paid', 'Open'],
      ['Paid', 'Cancelled'],
      ['Complete', 'Paid'],
      ['Complete', 'Open'],
      ['Complete', 'Cancelled'],
      ['Cancelled', 'Open'],
      ['Cancelled', 'Paid'],
      ['Cancelled', 'Complete'],
    ];
    for (const [from, to] of moves) {
      const sale = saleOf(1000, { saleState: from });
      expectStatus(await c.post(`${t.base}/sales`, sale, t.as), 201);
      const answer = await c.put(`${t.base}/sales`, { ...sale, saleState: to }, t.as);
      expect([from, to, answer.status]).toEqual([from, to, 422]);
      expectError(answer, 422, 'UnprocessableEntity', 'PROHIBITED_ORDER_STATUS_CHANGE');
    }
    // A final sale keeps its content too.
    for (const state of ['Complete', 'Cancelled']) {
      const sale = saleOf(1000, { saleState: state });
      expectStatus(await c.post(`${t.base}/sales`, sale, t.as), 201);
      const answer = await c.put(`${t.base}/sales`, { ...sale, sellerIdentifier: 'Bo' }, t.as);
      expectError(answer, 422, 'UnprocessableEntity', 'PROHIBITED_ORDER_STATUS_CHANGE');
    }
    const allowed = saleOf(1000, { saleState: 'Open' });
    expectStatus(await c.post(`${t.base}/sales`, allowed, t.as), 201);
    expectStatus(await c.put(`${t.base}/sales`, { ...allowed, saleState: 'Paid' }, t.as), 204);
    expectStatus(await c.put(`${t.base}/sales`, { ...allowed, saleState: 'Complete' }, t.as), 204);
  });

  it('SALE_TOTALS_INCONSISTENT names each broken relation', async () => {
    const t = await till(api);
    const sum = { vatRate: 2500, vat: 200, netto: 800, brutto: 1000 };
    const cases: [Record<string, unknown>, string][] = [
      [{ brutto: 1100, payments: [{ paymentType: 'Cash', amount: 1100 }] }, 'brutto = sum(vatRateSums[].brutto)'],
      [{ vat: 250 }, 'vat = sum(vatRateSums[].vat)'],
      [
        {
          vat: 300,
          vatRateSums: [
            { vatRate: 1200, vat: 100, netto: 400, brutto: 500 },
            { vatRate: 2500, vat: 200, netto: 400, brutto: 500 },
          ],
        },
        'vatRateSums[1].netto + vatRateSums[1].vat = vatRateSums[1].brutto',
      ],
      [{ payments: [{ paymentType: 'Cash', amount: 900 }] }, 'sum(payments[].amount) = brutto'],
      [
        {
          saleState: 'Complete',
          payments: [
            { paymentType: 'Cash', amount: 500, paymentState: 'APPROVED' },
            { paymentType: 'Cash', amount: 500, paymentState: 'REJECTED' },
          ],
        },
        'sum(payments[].amount) = brutto',
      ],
    ];
    for (const [fields, relation] of cases) {
      const answer = await c.post(`${t.base}/sales`, saleOf(1000, { vatRateSums: [sum], ...fields }), t.as);
      expectError(answer, 409, 'InconsistentData', 'SALE_TOTALS_INCONSISTENT');
      expect(detailOf(answer)).toEqual({ field: null, relation });
    }
    // Payments count only once approved or without a state; an Open sale owes none yet.
    const approved = saleOf(1000, {
      payments: [
        { paymentType: 'Cash', amount: 1000, paymentState: 'APPROVED' },
        { paymentType: api === 33 ? 'EmvStandalone' : 'Card', amount: 1000, paymentState: 'REJECTED' },
      ],
    });
    expectStatus(await c.post(`${t.base}/sales`, approved, t.as), 201);
    expectStatus(await c.post(`${t.base}/sales`, saleOf(1000, { saleState: 'Open', payments: [] }), t.as), 201);
  });

  it('RECEIPT_NUMBER_OUT_OF_SEQUENCE tells the number expected', async () => {
    const t = await till(api);
    const first = await c.post(`${t.base}/sales`, saleOf(1000, { prints: [{ printType: 'Normal', receiptNumber: 2 }] }), t.as);
    expectError(first, 409, 'InconsistentData', 'RECEIPT_NUMBER_OUT_OF_SEQUENCE');
    expect(detailOf(first)).toMatchObject({ expected: 1, actualValue: 2 });
    const sale = saleOf(1000, { prints: [{ printType: 'Normal', receiptNumber: 1 }] });
    expectStatus(await c.post(`${t.base}/sales`, sale, t.as), 201);
    const repeated = await c.post(`${t.base}/sales`, saleOf(500, { prints: [{ printType: 'Normal', receiptNumber: 1 }] }), t.as);
    expectError(repeated, 409, 'InconsistentData', 'RECEIPT_NUMBER_OUT_OF_SEQUENCE');
    expect(detailOf(repeated)).toMatchObject({ expected: 2 });
    const copy = await c.put(
      `${t.base}/sales`,
      { ...sale, prints: [...sale.prints, { printType: 'Copy', receiptNumber: 5 }] },
      t.as,
    );
    expectError(copy, 409, 'InconsistentData', 'RECEIPT_NUMBER_OUT_OF_SEQUENCE');
    expect(detailOf(copy)).toMatchObject({ expected: 1 });
  });

  it('refunds: an unknown original, more than is left of it, no original named, a changed direction', async () => {
    const t = await till(api);
    expectStatus(await c.post(`${t.base}/sales`, printedSale(10000), t.as), 201);
    expectError(await c.post(`${t.base}/sales`, saleOf(100, { refund: true, refundFor: 99 }), t.as), 404, 'ReferenceNotFound');
    const nullFor = await c.post(`${t.base}/sales`, saleOf(100, { refund: true, refundFor: null }), t.as);
    expectError(nullFor, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(nullFor)).toMatchObject({ field: 'refundFor' });

    const partial = saleOf(6000, { refund: true, refundFor: 1 });
    expectStatus(await c.post(`${t.base}/sales`, partial, t.as), 201);
    const tooMuch = await c.post(`${t.base}/sales`, saleOf(4001, { refund: true, refundFor: 1 }), t.as);
    expectError(tooMuch, 400, 'ValueNotValid', 'VALUE_SHOULD_BE_LESS_THEN');
    expect(detailOf(tooMuch)).toMatchObject({ field: 'brutto', actualValue: 4001, valueMax: 4000 });
    expectStatus(await c.post(`${t.base}/sales`, saleOf(4000, { refund: true, refundFor: 1 }), t.as), 201);

    expectError(await c.put(`${t.base}/sales`, { ...partial, refund: false, refundFor: null }, t.as), 409, 'VersionConflict');
    const sale = saleOf(100);
    expectStatus(await c.post(`${t.base}/sales`, sale, t.as), 201);
    expectError(await c.put(`${t.base}/sales`, { ...sale, refund: true, refundFor: 1 }, t.as), 409, 'VersionConflict');
  });

  it('a withdrawal above the balance names the balance as valueMax', async () => {
    const t = await till(api);
    expectStatus(await c.post(`${t.base}/balance`, { amount: 1000, action: 'DEPOSIT' }, t.as), 201);
    const refused = await c.post(`${t.base}/balance`, { amount: 1001, action: 'WITHDRAWAL' }, t.as);
    expectError(refused, 400, 'ValueNotValid', 'VALUE_SHOULD_BE_LESS_THEN');
    expect(detailOf(refused)).toMatchObject({ field: 'amount', actualValue: 1001, valueMax: 1000 });
    expect(expectStatus(await c.post(`${t.base}/balance`, { amount: 1000, action: 'WITHDRAWAL' }, t.as), 201).body).toEqual({
      amount: 0,
    });
  });

  it('VersionConflict: a POST of a stored identifier with other content, an If-Match that is not current', async () => {
    const t = await till(api);
    const sale = saleOf(1000, { saleState: 'Open' });
    expectStatus(await c.post(`${t.base}/sales`, sale, t.as), 201);
    expectError(await c.post(`${t.base}/sales`, { ...sale, sellerIdentifier: 'Bo' }, t.as), 409, 'VersionConflict');
    expectError(
      await c.post(`/${t.sellerId}/sales`, { ...sale, brutto: 1000, vat: 200, treasurer: 't1' }, t.as),
      409,
      'VersionConflict',
    );

    // The sale's version is the register's version its write took.
    const version = await registerVersion(t.sellerId, 'K1');
    const ifMatch = (tag: string) => ({ ...t.as, headers: { 'If-Match': tag } });
    expectStatus(await c.put(`${t.base}/sales`, { ...sale, saleState: 'Paid' }, ifMatch(`"${version}"`)), 204);
    expectError(
      await c.put(`${t.base}/sales`, { ...sale, saleState: 'Complete' }, ifMatch(`"${version}"`)),
      409,
      'VersionConflict',
    );
    expectError(await c.put(`${t.base}/sales`, saleOf(100), ifMatch(`"${version}"`)), 409, 'VersionConflict');
    expectError(
      await c.put(`${t.base}/sales`, { ...sale, saleState: 'Paid' }, { ...t.as, headers: { 'If-None-Match': '*' } }),
      409,
      'VersionConflict',
    );

    const day = ((await c.get(`${t.base}/days`)).body as DayShown[])[0] as DayShown;
    expectError(
      await c.put(`/${t.sellerId}/days/1`, { closedDayTreasurer: 'eva' }, ifMatch(`"${day.version - 1}"`)),
      409,
      'VersionConflict',
    );
    expectStatus(await c.put(`/${t.sellerId}/days/1`, { closedDayTreasurer: 'eva' }, ifMatch(`"${day.version}"`)), 204);
  });

  it('SELLER_HAS_NOT_REGISTRATION: a register name the seller has no registration for', async () => {
    const t = await till(api);
    const paths = [
      `/${t.sellerId}/sales?cashRegisterName=K9`,
      `/${t.sellerId}/sales-minified?cashRegisterName=K9`,
      `/${t.sellerId}/registrations/K9/sales-diff/0/1`,
      `/${t.sellerId}/registrations/K9/sales/s1/receipt`,
      `/${t.sellerId}/registrations/K9/days`,
      `/${t.sellerId}/registrations/K9/days-minified`,
      `/${t.sellerId}/registrations/K9/days-diff/0/1`,
      `/${t.sellerId}/registrations/K9/days/1/report`,
      `/${t.sellerId}/registrations/K9/balance`,
      `/${t.sellerId}/e-journals/K9`,
      ...(api === 33 ? [`/${t.sellerId}/generated-e-journals/K9`] : []),
    ];
    for (const path of paths) {
      const answer = await c.get(path);
      expect([path, answer.status]).toEqual([path, 409]);
      expectError(answer, 409, 'InconsistentData', 'SELLER_HAS_NOT_REGISTRATION');
    }
  });

  it("limits of a sale's lists, a PUT without identifier and the device event's 8 KB", async () => {
    const t = await till(api);
    const lines = (count: number) => ({
      brutto: count * 100,
      vat: count * 20,
      saleProducts: Array.from({ length: count }, (_, index) => ({
        productIdentifier: `p${index}`,
        deltaUnit: true,
        delta: 1,
        vat: 20,
        netto: 80,
        brutto: 100,
      })),
      payments: [{ paymentType: 'Cash', amount: count * 100 }],
      vatRateSums: [{ vatRate: 2500, vat: count * 20, netto: count * 80, brutto: count * 100 }],
    });
    const tooLong = await c.post(`${t.base}/sales`, saleOf(0, lines(501)), t.as);
    expectError(tooLong, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_LESS_THEN');
    expect(detailOf(tooLong)).toMatchObject({ field: 'saleProducts', actualValue: 501, sizeMax: 500 });
    const longest = saleOf(0, lines(500));
    expectStatus(await c.post(`${t.base}/sales`, longest, t.as), 201);
    const stored = (
      (await c.get(`${t.base}/sales-diff/0/${await registerVersion(t.sellerId, 'K1')}`)).body as {
        saleProducts: unknown[];
      }[]
    )[0];
    expect(stored?.saleProducts).toHaveLength(500);

    const over: [string, Record<string, unknown>, number][] = [
      ['payments', { payments: Array.from({ length: 21 }, () => ({ paymentType: 'Cash', amount: 0 })) }, 20],
      ['prints', { saleState: 'Open', prints: Array.from({ length: 51 }, () => ({ printType: 'Proforma' })) }, 50],
      ['vatRateSums', { vatRateSums: Array.from({ length: 11 }, () => ({ vatRate: 0, vat: 0, netto: 0, brutto: 0 })) }, 10],
    ];
    for (const [field, fields, sizeMax] of over) {
      const answer = await c.post(`${t.base}/sales`, saleOf(1000, fields), t.as);
      expectError(answer, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_LESS_THEN');
      expect(detailOf(answer)).toMatchObject({ field, sizeMax, actualValue: sizeMax + 1 });
    }
    const unnamed = await c.put(`${t.base}/sales`, saleOf(1000, { identifier: null }), t.as);
    expectError(unnamed, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(unnamed)).toMatchObject({ field: 'identifier' });

    // `{"t":"..."}` is 8 bytes around the text.
    const event = (bytes: number) => ({ data: { t: 'x'.repeat(bytes - 8) } });
    expectStatus(await c.post(`/${t.sellerId}/e-journals/K1`, event(8192), t.as), 201);
    const large = await c.post(`/${t.sellerId}/e-journals/K1`, event(8193), t.as);
    expectError(large, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_LESS_THEN');
    expect(detailOf(large)).toMatchObject({ field: 'data', actualValue: 8193, sizeMax: 8192 });
  });
});

describe("v15 refusals: the conditions' own exceptions, all 422", () => {
  const c = v(15);

  it('DayClosed, DayNotClosed', async () => {
    const t = await till(15);
    expectError(await c.post(`/${t.sellerId}/days/current`, undefined, t.as), 422, 'DayClosed', 'DAY_IS_CLOSED');
    expectError(await c.get(`${t.base}/balance`, t.as), 422, 'DayClosed', 'DAY_IS_CLOSED');
    const open = saleOf(1000, { saleState: 'Open', payments: [] });
    expectStatus(await c.post(`/${t.sellerId}/sales`, open, t.as), 201);
    expectError(
      await c.post(`/${t.sellerId}/sales`, saleOf(1000, { close: later() }), t.as),
      422,
      'DayNotClosed',
      'DAY_IS_NOT_CLOSED',
    );
    expectError(await c.post(`/${t.sellerId}/days/1/report`, undefined, t.as), 422, 'DayNotClosed', 'DAY_IS_NOT_CLOSED');
    expectStatus(await c.post(`/${t.sellerId}/days/current`, undefined, t.as), 201);
    expectError(
      await c.post(`/${t.sellerId}/sales/${open.identifier}/receipt`, undefined, t.as),
      422,
      'DayClosed',
      'DAY_IS_CLOSED',
    );
  });

  it('ReceiptNotPrinted: an unprinted sale at close, a copy before the receipt, a sale before the Z report', async () => {
    const t = await till(15);
    const sale = saleOf(1000);
    expectStatus(await c.post(`/${t.sellerId}/sales`, sale, t.as), 201);
    expectError(await c.post(`/${t.sellerId}/days/current`, undefined, t.as), 422, 'ReceiptNotPrinted', 'RECEIPT_IS_NOT_PRINTED');
    expectError(
      await c.post(`/${t.sellerId}/sales/${sale.identifier}/copy`, undefined, t.as),
      422,
      'ReceiptNotPrinted',
      'RECEIPT_IS_NOT_PRINTED',
    );
    const copyFirst = saleOf(1000, { prints: [{ printType: 'Copy', receiptNumber: null }] });
    expectError(await c.post(`/${t.sellerId}/sales`, copyFirst, t.as), 422, 'ReceiptNotPrinted', 'RECEIPT_IS_NOT_PRINTED');

    expectStatus(await c.post(`/${t.sellerId}/sales/${sale.identifier}/receipt`, undefined, t.as), 201);
    expectStatus(await c.post(`/${t.sellerId}/days/current`, undefined, t.as), 201);
    expectError(await c.post(`/${t.sellerId}/sales`, saleOf(1000), t.as), 422, 'ReceiptNotPrinted', 'REPORT_IS_NOT_PRINTED');
    expectError(
      await c.post(`${t.base}/balance`, { amount: 1, action: 'DEPOSIT' }, t.as),
      422,
      'ReceiptNotPrinted',
      'REPORT_IS_NOT_PRINTED',
    );
  });

  it('ReceiptAlreadyPrinted: a second receipt, a second Normal print in a sale, a second Z report; VersionConflict', async () => {
    const t = await till(15);
    const sale = printedSale(1000);
    expectStatus(await c.post(`/${t.sellerId}/sales`, sale, t.as), 201);
    expectError(
      await c.post(`/${t.sellerId}/sales/${sale.identifier}/receipt`, undefined, t.as),
      422,
      'ReceiptAlreadyPrinted',
      'RECEIPT_IS_PRINTED_ALREADY',
    );
    const twice = saleOf(1000, { prints: [{ printType: 'Normal' }, { printType: 'Normal' }] });
    expectError(await c.post(`/${t.sellerId}/sales`, twice, t.as), 422, 'ReceiptAlreadyPrinted', 'RECEIPT_IS_PRINTED_ALREADY');
    expectError(await c.post(`/${t.sellerId}/sales`, { ...sale, brutto: 900 }, t.as), 409, 'VersionConflict');
    expectStatus(await c.post(`/${t.sellerId}/days/current`, undefined, t.as), 201);
    expectStatus(await c.post(`/${t.sellerId}/days/1/report`, undefined, t.as), 201);
    expectError(
      await c.post(`/${t.sellerId}/days/1/report`, undefined, t.as),
      422,
      'ReceiptAlreadyPrinted',
      'REPORT_IS_PRINTED_ALREADY',
    );
  });

  it('a user names the register of a read; one the seller has not is SELLER_HAS_NOT_REGISTRATION', async () => {
    const t = await till(15);
    expectError(await c.get(`/${t.sellerId}/days`), 400, 'RequestParameterMissing');
    expectError(await c.get(`/${t.sellerId}/days?cashRegisterName=K9`), 409, 'InconsistentData', 'SELLER_HAS_NOT_REGISTRATION');
    expectError(
      await c.get(`/${t.sellerId}/days/1/report?cashRegisterName=K9`),
      409,
      'InconsistentData',
      'SELLER_HAS_NOT_REGISTRATION',
    );
    expectError(
      await c.get(`/${t.sellerId}/sales/s1/receipt?cashRegisterName=K9`),
      409,
      'InconsistentData',
      'SELLER_HAS_NOT_REGISTRATION',
    );
  });
});

/** Every fiscal write route in every version it has (the route table's `ownRegister` routes). */
const WRITES = routes
  .filter((route) => route.access === access.ownRegister)
  .flatMap((route) => route.versions.map((api) => ({ method: route.method, template: route.path, api })));

describe('who writes fiscal records (docs/conventions.md §14)', () => {
  let k1: Till;
  let k2: Till;
  let sellerUser: CallOptions;
  /** What a change of K1's records shows: its version and its journal. */
  const snapshot = async () => ({
    version: await registerVersion(k1.sellerId, 'K1'),
    journal: (await v(33).get(`/${k1.sellerId}/e-journals/K1`)).body,
  });

  beforeAll(async () => {
    [k1, k2] = (await shop([33, 'K1'], [33, 'K2'])) as [Till, Till];
    expectStatus(await v(33).post(`${k1.base}/sales`, printedSale(1000, { identifier: 's1' }), k1.as), 201);
    sellerUser = await userOf('REGULAR_USER', null, [k1.sellerId]);
  });

  it.each(WRITES)('$method /v$api $template: no user, not even the hyper admin, and no other register', async (write) => {
    const before = await snapshot();
    const path = `/v${write.api}${fiscalPath(write.template, k1.sellerId, 'K1')}`;
    const body = fiscalBody({ method: write.method, path: write.template });
    const callers: [string, CallOptions][] = [
      ['the hyper admin', {}],
      ["a user of the seller's", sellerUser],
      // Without {cash} the path means the caller's own register: K2 would write its own records.
      ...(write.template.includes('{cash}') ? ([['the register K2', k2.as]] as [string, CallOptions][]) : []),
    ];
    for (const [who, as] of callers) {
      const answer = await call(write.method, path, { ...as, ...(body === undefined ? {} : { body }) });
      expect([who, answer.status]).toEqual([who, 403]);
      expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    }
    expect(await snapshot()).toEqual(before);
  });

  it("users with access to the seller and the seller's other registers read a register's records", async () => {
    const reads = [
      [33, `${k1.base}/sales/s1/receipt`],
      [33, `${k1.base}/days`],
      [33, `/${k1.sellerId}/e-journals/K1`],
      // v15 paths without {cash} name the register in the query.
      [15, `/${k1.sellerId}/sales/s1/receipt?cashRegisterName=K1`],
      [15, `/${k1.sellerId}/days?cashRegisterName=K1`],
      [15, `/${k1.sellerId}/days/1/report?cashRegisterName=K1`],
    ] as const;
    for (const as of [sellerUser, k2.as, {}]) {
      for (const [api, path] of reads) {
        const answer = await v(api).get(path, as);
        expect([path, answer.status]).toEqual([path, 200]);
        expect(answer.text).not.toContain('K2');
      }
    }
  });
});
