/**
 * A day of 20,000 distinct products on one register (docs/decisions.md, "Where a day's per-product totals live"): every
 * sale is stored whatever the day sold before, and the X and Z reports and the journal's Z report add up exactly to
 * what the register sent (the Z report holds no per-product figures; the close keeps them in pieces of their own, which
 * the day's product statistics read, docs/decisions.md). The figures below are counted by hand from the sales sent:
 * every line is one piece of its own product at 125.00 (100.00 + 25.00 VAT), in one of four groups in turn.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { activateRegister, registerApp } from '../support/fiscal.ts';
import { type CallOptions, v } from '../support/http.ts';
import { swedishCorporateId } from '../support/identity.ts';

const SALES = 50;
/** Lines per sale (the schema allows 500): few round trips for many products. */
const LINES = 400;
const PRODUCTS = SALES * LINES;
const GROUPS = ['Bröd', 'Dryck', 'Frukt', 'Ost'];

let sellerId: string;
let kassa: CallOptions;
const base = () => `/${sellerId}/registrations/K1`;

beforeAll(async () => {
  const corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  kassa = await activateRegister(33, await registerApp(), corporateId, 'K1');
});

/** Sale `n`: LINES products of its own, named by the register (no catalog), printed as it is recorded. */
function saleOf(n: number) {
  const lines = Array.from({ length: LINES }, (_, line) => ({
    productIdentifier: `p-${n}-${line}`,
    name: `Vara ${n}-${line}`,
    group: GROUPS[line % GROUPS.length],
    deltaUnit: true,
    delta: 1,
    netto: 10000,
    vat: 2500,
    brutto: 12500,
  }));
  return {
    identifier: randomUUID(),
    sellerIdentifier: 'Anna',
    saleState: 'Paid',
    refund: false,
    refundFor: null,
    brutto: 12500 * LINES,
    vat: 2500 * LINES,
    saleProducts: lines,
    payments: [{ paymentType: 'Cash', amount: 12500 * LINES }],
    vatRateSums: [{ vatRate: 2500, vat: 2500 * LINES, netto: 10000 * LINES, brutto: 12500 * LINES }],
    prints: [{ printType: 'Normal', receiptNumber: null }],
  };
}

/** What both reports of the day say, by hand: SALES sales of LINES pieces at 125.00, a quarter of the lines per group. */
const dayFigures = {
  sales: { count: SALES, brutto: 12500 * PRODUCTS, vat: 2500 * PRODUCTS, netto: 10000 * PRODUCTS },
  salesPerCategory: GROUPS.map((category) => ({
    category,
    count: PRODUCTS / GROUPS.length,
    brutto: (12500 * PRODUCTS) / GROUPS.length,
    vat: (2500 * PRODUCTS) / GROUPS.length,
  })),
  vatPerRate: [{ vatRate: 2500, count: SALES, netto: 10000 * PRODUCTS, vat: 2500 * PRODUCTS, brutto: 12500 * PRODUCTS }],
  goods: { pieces: PRODUCTS, otherUnits: 0 },
  receipts: SALES,
  cash: { cashPayments: 12500 * PRODUCTS, expected: 12500 * PRODUCTS },
};

describe(`a day of ${PRODUCTS.toLocaleString('en')} distinct products`, () => {
  it('stores every sale, and its X report, Z report and journalled Z report are exact', async () => {
    // Act: the day's sales, one after the other.
    const statuses: number[] = [];
    for (let n = 0; n < SALES; n++) {
      const answer = await v(33).post(`${base()}/sales`, saleOf(n), kassa);
      statuses.push(answer.status);
      if (answer.status !== 201) throw new Error(`sale ${n}: ${answer.status} ${answer.text}`);
    }

    // Assess: all stored, the open day's X report exact.
    expect(statuses).toEqual(Array.from({ length: SALES }, () => 201));
    const x = await v(33).get(`${base()}/days/1/report`, kassa);
    expect(x.status).toBe(200);
    expect(x.body).toMatchObject({ type: 'X', ...dayFigures });

    // The close, its Z report as read and as its journal entry keeps it.
    const closed = await v(33).post(`${base()}/days/current`, undefined, kassa);
    expect([closed.status, (closed.body as { cashAtClose: number }).cashAtClose]).toEqual([201, 12500 * PRODUCTS]);
    const z = await v(33).get(`${base()}/days/1/report`, kassa);
    expect(z.body).toMatchObject({ type: 'Z', reportNumber: 1, ...dayFigures });
    const [entry] = (await v(33).get(`/${sellerId}/e-journals/K1?orderDesc=true&maxResults=1`)).body as {
      type: string;
      data: { report: unknown };
    }[];
    expect(entry?.type).toBe('DAY_CLOSED');
    expect(entry?.data.report).toMatchObject({ type: 'Z', reportNumber: 1, ...dayFigures });

    // The closed day's product statistics, from the pieces its close wrote: every product once, at 125.00.
    const stats = await v(33).get(`/${sellerId}/products/stats?from=0&cashRegisterName=K1`);
    expect(stats.status, stats.text.slice(0, 200)).toBe(200);
    const items = (stats.body as { productStats: { identifier: string; count: number; brutto: number; vatSum: number }[] })
      .productStats;
    expect(items).toHaveLength(PRODUCTS);
    expect(new Set(items.map((item) => item.identifier)).size).toBe(PRODUCTS);
    expect(items.every(({ count, brutto, vatSum }) => count === 1 && brutto === 12500 && vatSum === 2500)).toBe(true);
  }, 300_000);

  it("counts a closed day's sale in product statistics after a copy of its receipt was printed on a later day", async () => {
    // Prepare: day 1 sells one piece of p-closed and closes; day 2 sells p-open and prints a copy of day 1's receipt.
    const register = await activateRegister(33, await registerApp(), sellerId.slice(2), 'K2');
    const sales = `/${sellerId}/registrations/K2/sales`;
    const sale = (product: string) => ({
      ...saleOf(0),
      saleProducts: [
        { productIdentifier: product, name: product, deltaUnit: true, delta: 1, netto: 800, vat: 200, brutto: 1000 },
      ],
      brutto: 1000,
      vat: 200,
      payments: [{ paymentType: 'Cash', amount: 1000 }],
      vatRateSums: [{ vatRate: 2500, vat: 200, netto: 800, brutto: 1000 }],
    });
    const closed = sale('p-closed');
    expect((await v(33).post(sales, closed, register)).status).toBe(201);
    expect((await v(33).post(`/${sellerId}/registrations/K2/days/current`, undefined, register)).status).toBe(201);
    expect((await v(33).post(`/${sellerId}/registrations/K2/days/1/report`, undefined, register)).status).toBe(201);
    expect((await v(33).post(sales, sale('p-open'), register)).status).toBe(201);
    expect((await v(33).get(`${sales}/${closed.identifier}/copy`, register)).status).toBe(200);

    // Act
    const stats = await v(33).get(`/${sellerId}/products/stats?from=0&cashRegisterName=K2`);

    // Assess: each product once, at 10.00 and 2.00 VAT.
    const items = (stats.body as { productStats: { identifier: string; count: number; brutto: number; vatSum: number }[] })
      .productStats;
    expect(items.map(({ identifier, count, brutto, vatSum }) => [identifier, count, brutto, vatSum]).sort()).toEqual([
      ['p-closed', 1, 1000, 200],
      ['p-open', 1, 1000, 200],
    ]);
  });
});
