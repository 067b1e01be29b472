/** A day's sale checks, running totals and X/Z report: hand-computed days, then random ones. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { saleTotalsProblem } from '#shared/fiscal/arithmetic.ts';
import { PAYMENT_TYPES } from '#shared/fiscal/model.ts';
import type {
  ArticleType,
  BalanceAction,
  Day,
  Payment,
  PaymentState,
  Print,
  PrintType,
  Sale,
  SaleProduct,
  SaleState,
  VatRateSum,
} from '#shared/fiscal/model.ts';
import { buildReport } from '#shared/fiscal/report.ts';
import type { ReportInput } from '#shared/fiscal/report.ts';
import {
  addTotals,
  balanceContribution,
  breakdownOf,
  cashBalance,
  dayTotals as dayItemTotals,
  emptyTotals,
  groupTotals,
  hourTotals,
  productTotals,
  saleContribution,
  subtractTotals,
  unprintedSales,
} from '#shared/fiscal/totals.ts';
import type { Totals } from '#shared/fiscal/totals.ts';

// ---------------------------------------------------------------- builders

interface LineSpec {
  product: string;
  deltaUnit: boolean;
  delta: number;
  /** Hundredths of a percent, as `vatRateSums[].vatRate`. */
  rate: number;
  netto: number;
  discount: number;
  /** The line's frozen category name (absent: none). */
  group?: string | null;
  /** Absent: goods. */
  articleType?: ArticleType | null;
}

const vatOf = (netto: number, rate: number) => Math.round((netto * rate) / 10_000);

const lineOf = (spec: LineSpec): SaleProduct => {
  const vat = vatOf(spec.netto, spec.rate);
  return {
    productIdentifier: spec.product,
    deltaUnit: spec.deltaUnit,
    delta: spec.delta,
    absoluteDiscount: spec.discount,
    relativeDiscount: 0,
    vat,
    netto: spec.netto,
    brutto: spec.netto + vat,
    vanillaBrutto: spec.netto + vat + spec.discount,
    discount: spec.discount,
    vatRate: spec.rate / 100,
    ...(spec.group === undefined ? {} : { group: spec.group }),
    ...(spec.articleType === undefined ? {} : { articleType: spec.articleType }),
  };
};

/** The sale's VAT rate sums, brutto, vat and discount as its lines add up (its totals are consistent). */
function saleOf(lines: readonly LineSpec[], fields: Partial<Sale> = {}): Sale {
  const saleProducts = lines.map(lineOf);
  const rates = new Map<number, VatRateSum>();
  for (const [index, line] of saleProducts.entries()) {
    const rate = lines[index]?.rate ?? 0;
    const sum = rates.get(rate) ?? {
      vatRate: rate,
      vanillaVat: 0,
      vanillaNetto: 0,
      vanillaBrutto: 0,
      vat: 0,
      netto: 0,
      brutto: 0,
    };
    rates.set(rate, {
      ...sum,
      vanillaVat: sum.vanillaVat + line.vat,
      vanillaNetto: sum.vanillaNetto + line.netto,
      vanillaBrutto: sum.vanillaBrutto + line.vanillaBrutto,
      vat: sum.vat + line.vat,
      netto: sum.netto + line.netto,
      brutto: sum.brutto + line.brutto,
    });
  }
  const total = (pick: (line: SaleProduct) => number) => saleProducts.reduce((sum, line) => sum + pick(line), 0);
  return {
    identifier: 'sale-1',
    sellerIdentifier: 'SE5561234567',
    saleState: 'Paid',
    refund: false,
    refundFor: null,
    absoluteDiscount: 0,
    relativeDiscount: 0,
    vanillaBrutto: total((line) => line.vanillaBrutto),
    discount: total((line) => line.discount),
    brutto: total((line) => line.brutto),
    vat: total((line) => line.vat),
    saleProducts,
    prints: [],
    payments: [],
    vatRateSums: [...rates.values()],
    day: 1,
    ...fields,
  };
}

const print = (printType: PrintType, receiptNumber: number | null = null): Print => ({ receiptNumber, printType });
const pay = (paymentType: Payment['paymentType'], amount: number, paymentState?: PaymentState | null): Payment =>
  paymentState === undefined ? { paymentType, amount } : { paymentType, amount, paymentState };

const sumOf = (totals: readonly Totals[]) => totals.reduce(addTotals, emptyTotals());

const dayOf = (fields: Partial<Day> = {}): Day => ({
  dayNumber: 7,
  date: 20240611,
  opened: true,
  reportPrinted: false,
  open: Date.parse('2024-06-11T06:00:00Z'),
  cash: 0,
  ...fields,
});

const reportInput = (totals: Totals, fields: Partial<ReportInput> = {}): ReportInput => ({
  seller: { name: 'Kaffebaren AB', corporateId: '5561234567', address: 'Storgatan 1, Malmö', country: 'SE' },
  register: { cashRegisterName: 'kassa-1', productionNumber: 'PN-0001', controlUnitSerial: 'CU-42' },
  day: dayOf(),
  totals,
  grandTotals: { sales: 1_000_000, refunds: 40_000 },
  produced: Date.parse('2024-06-11T18:00:00Z'),
  ...fields,
});

// ---------------------------------------------------------------- hand-computed day

/**
 * Paid: 2 coffees at 25 % (discount 5.00; group Drinks), a bun at 12 % (group Bakery), a 10.00 gift card at 0 % (no
 * group); cash, card, a rejected card; its receipt and its one copy.
 */
const saleA = saleOf(
  [
    { product: 'coffee', deltaUnit: true, delta: 2, rate: 2500, netto: 4000, discount: 500, group: 'Drinks' },
    { product: 'bun', deltaUnit: true, delta: 1, rate: 1200, netto: 1786, discount: 0, group: 'Bakery', articleType: 'GOODS' },
    { product: 'gift', deltaUnit: false, delta: 1000, rate: 0, netto: 1000, discount: 0, group: null },
  ],
  {
    identifier: 'A',
    close: Date.parse('2024-06-11T09:15:00Z'),
    payments: [pay('Cash', 3000), pay('EmvStandalone', 5000, 'APPROVED'), pay('EmvStandalone', 8000, 'REJECTED')],
    prints: [print('Normal', 1), print('Copy', 1)],
  },
);
/** Complete refund of one coffee (its discount 2.50 returned; group Drinks), paid back in cash, with its receipt. */
const saleB = saleOf(
  [{ product: 'coffee', deltaUnit: true, delta: 1, rate: 2500, netto: 2000, discount: 250, group: 'Drinks' }],
  {
    identifier: 'B',
    close: Date.parse('2024-06-11T10:20:00Z'),
    saleState: 'Complete',
    refund: true,
    refundFor: 1,
    payments: [pay('Cash', 2500, null)],
    prints: [print('Normal', 2)],
  },
);
/** Still Open, with a proforma. */
const saleC = saleOf([{ product: 'coffee', deltaUnit: true, delta: 1, rate: 2500, netto: 960, discount: 0, group: 'Drinks' }], {
  identifier: 'C',
  saleState: 'Open',
  prints: [print('Proforma')],
});
/** Cancelled. */
const saleD = saleOf([{ product: 'gift', deltaUnit: false, delta: 700, rate: 0, netto: 700, discount: 0 }], {
  identifier: 'D',
  saleState: 'Cancelled',
  payments: [pay('Cash', 700)],
});
/**
 * Paid by card, receipt not yet printed, without a `close` (its hour is when it was recorded); a 10.00 SERVICE (group
 * Service) whose product is named "__proto__" (a legal identifier).
 */
const saleE = saleOf(
  [
    {
      product: '__proto__',
      deltaUnit: false,
      delta: 1000,
      rate: 2500,
      netto: 800,
      discount: 0,
      group: 'Service',
      articleType: 'SERVICE',
    },
  ],
  { identifier: 'E', recorded: Date.parse('2024-06-11T09:40:00Z'), payments: [pay('EmvStandalone', 1000)] },
);
/** A training receipt: one coffee (25.00 with 5.00 VAT), paid in cash, with its Normal print (training series, number 1). */
const saleT = saleOf(
  [{ product: 'coffee', deltaUnit: true, delta: 1, rate: 2500, netto: 2000, discount: 100, group: 'Drinks' }],
  {
    identifier: 'T',
    training: true,
    close: Date.parse('2024-06-11T11:05:00Z'),
    payments: [pay('Cash', 2500)],
    prints: [print('Normal', 1)],
  },
);

const balances: readonly Totals[] = [balanceContribution('DEPOSIT', 10_000), balanceContribution('WITHDRAWAL', 3000)];
const dayTotals = sumOf([saleA, saleB, saleC, saleD, saleE, saleT].map(saleContribution).concat(balances));

describe('saleContribution', () => {
  it('a Paid sale counts as sold: VAT per rate, counting payments, cash, goods, products, groups, prints', () => {
    expect(saleContribution(saleA)).toStrictEqual({
      // brutto 50.00 + 20.00 + 10.00 = 80.00; VAT 10.00 + 2.14 (17.86 * 12 % = 2.1432) + 0 = 12.14.
      sold: { count: 1, brutto: 8000, vat: 1214, netto: 6786 },
      refunds: { count: 0, brutto: 0, vat: 0, netto: 0 },
      cancelled: { count: 0, brutto: 0 },
      open: { count: 0, brutto: 0 },
      unprinted: 0,
      receipts: 1,
      copies: { count: 1, brutto: 8000 },
      proforma: { count: 0, brutto: 0 },
      discounts: 500,
      // 2 coffees + 1 bun in pieces, the gift card (no articleType: goods) as 1 other unit; no service.
      goods: { pieces: 3, other: 1 },
      services: { pieces: 0, other: 0 },
      training: { count: 0, brutto: 0 },
      cash: { sales: 3000, salesCount: 1, deposits: 0, depositCount: 0, withdrawals: 0, withdrawalCount: 0 },
      vatRates: {
        '0': { count: 1, netto: 1000, vat: 0, brutto: 1000 },
        '1200': { count: 1, netto: 1786, vat: 214, brutto: 2000 },
        '2500': { count: 1, netto: 4000, vat: 1000, brutto: 5000 },
      },
      // The VAT of 12.14 shared in proportion: 30/80 of it (4.55) to cash, the rest to the card.
      payments: { Cash: { count: 1, amount: 3000, vat: 455 }, EmvStandalone: { count: 1, amount: 5000, vat: 759 } },
      products: {
        'P#coffee': { count: 2, brutto: 5000, vat: 1000 },
        'P#bun': { count: 1, brutto: 2000, vat: 214 },
        'P#gift': { count: 1, brutto: 1000, vat: 0 },
      },
      // Each line once, in its frozen group; the gift card has none. 50.00 + 20.00 + 10.00 = the sale's 80.00.
      groups: {
        'G#Drinks': { count: 2, brutto: 5000, vat: 1000 },
        'G#Bakery': { count: 1, brutto: 2000, vat: 214 },
        'G#': { count: 1, brutto: 1000, vat: 0 },
      },
      hours: { [String(Date.parse('2024-06-11T09:00:00Z'))]: { count: 1, brutto: 8000 } },
    });
  });

  it('a refund counts positive in refunds and with a minus sign in every net figure', () => {
    expect(saleContribution(saleB)).toStrictEqual({
      ...emptyTotals(),
      refunds: { count: 1, brutto: 2500, vat: 500, netto: 2000 },
      receipts: 1,
      discounts: -250,
      goods: { pieces: -1, other: 0 },
      cash: { ...emptyTotals().cash, sales: -2500, salesCount: 1 },
      vatRates: { '2500': { count: 1, netto: -2000, vat: -500, brutto: -2500 } },
      payments: { Cash: { count: 1, amount: -2500, vat: -500 } },
      products: { 'P#coffee': { count: -1, brutto: -2500, vat: -500 } },
      groups: { 'G#Drinks': { count: -1, brutto: -2500, vat: -500 } },
      hours: { [String(Date.parse('2024-06-11T10:00:00Z'))]: { count: 1, brutto: -2500 } },
    });
  });

  it('Open and Cancelled sales count only in their own lines (and their prints)', () => {
    expect(saleContribution(saleC)).toStrictEqual({
      ...emptyTotals(),
      open: { count: 1, brutto: 1200 },
      proforma: { count: 1, brutto: 1200 },
    });
    expect(saleContribution(saleD)).toStrictEqual({ ...emptyTotals(), cancelled: { count: 1, brutto: 700 } });
  });

  it('a sold sale without a Normal print is unprinted; a SERVICE line counts in services; keys store any identifier', () => {
    const contribution = saleContribution(saleE);
    expect(unprintedSales(contribution)).toBe(1);
    expect(contribution.goods).toStrictEqual({ pieces: 0, other: 0 });
    expect(contribution.services).toStrictEqual({ pieces: 0, other: 1 });
    expect(contribution.products).toStrictEqual({ 'P#__proto__': { count: 1, brutto: 1000, vat: 200 } });
    expect(productTotals(contribution)).toEqual([{ productIdentifier: '__proto__', count: 1, brutto: 1000, vat: 200 }]);
    expect(contribution.groups).toStrictEqual({ 'G#Service': { count: 1, brutto: 1000, vat: 200 } });
    expect(groupTotals(contribution)).toEqual([{ group: 'Service', count: 1, brutto: 1000, vat: 200 }]);
  });

  it('a training receipt counts in training only, and only once sold', () => {
    expect(saleContribution(saleT)).toStrictEqual({ ...emptyTotals(), training: { count: 1, brutto: 2500 } });
    expect(saleContribution({ ...saleT, saleState: 'Complete' })).toStrictEqual({
      ...emptyTotals(),
      training: { count: 1, brutto: 2500 },
    });
    // Not even as unfinished, cancelled or proforma.
    expect(saleContribution({ ...saleT, saleState: 'Open', prints: [print('Proforma')] })).toStrictEqual(emptyTotals());
    expect(saleContribution({ ...saleT, saleState: 'Cancelled', prints: [] })).toStrictEqual(emptyTotals());
  });

  it("what a sale's brutto and VAT differ from its lines' goes to its last line's group", () => {
    // 7.00 off the whole sale: at 25 % 50.00 -> 45.00 (VAT 9.00), at 12 % 20.00 -> 18.00 (VAT 18.00 * 12/112 = 1.93);
    // the sale's 63.00 and 10.93 differ from its lines' 70.00 and 12.14 by -7.00 and -1.21, which go to Bakery.
    const lines: LineSpec[] = [
      { product: 'coffee', deltaUnit: true, delta: 2, rate: 2500, netto: 4000, discount: 0, group: 'Drinks' },
      { product: 'bun', deltaUnit: true, delta: 1, rate: 1200, netto: 1786, discount: 0, group: 'Bakery' },
    ];
    const whole = saleOf(lines, {
      absoluteDiscount: 700,
      discount: 700,
      brutto: 6300,
      vat: 1093,
      vatRateSums: [
        { vatRate: 2500, vanillaVat: 1000, vanillaNetto: 4000, vanillaBrutto: 5000, vat: 900, netto: 3600, brutto: 4500 },
        { vatRate: 1200, vanillaVat: 214, vanillaNetto: 1786, vanillaBrutto: 2000, vat: 193, netto: 1607, brutto: 1800 },
      ],
      payments: [pay('Cash', 6300)],
    });
    expect(saleTotalsProblem(whole)).toBeUndefined();
    expect(saleContribution(whole).groups).toStrictEqual({
      'G#Drinks': { count: 2, brutto: 5000, vat: 1000 },
      'G#Bakery': { count: 1, brutto: 1300, vat: 93 },
    });
    expect(saleContribution({ ...whole, refund: true, refundFor: 1 }).groups).toStrictEqual({
      'G#Drinks': { count: -2, brutto: -5000, vat: -1000 },
      'G#Bakery': { count: -1, brutto: -1300, vat: -93 },
    });
    const report = buildReport(reportInput(saleContribution(whole)));
    expect(report.salesPerCategory).toStrictEqual([
      { category: 'Bakery', count: 1, brutto: 1300, vat: 93 },
      { category: 'Drinks', count: 2, brutto: 5000, vat: 1000 },
    ]);
    expect(report.netSales).toStrictEqual({ brutto: 6300, vat: 1093, netto: 5207 });
    // A sold sale without lines: its brutto and VAT in the no-group entry, no units.
    const bare = { ...saleOf([]), brutto: 500, vat: 100, payments: [pay('Cash', 500)] };
    expect(saleContribution(bare).groups).toStrictEqual({ 'G#': { count: 0, brutto: 500, vat: 100 } });
  });

  it('balance changes count in cash only', () => {
    expect(balanceContribution('DEPOSIT', 10_000)).toStrictEqual({
      ...emptyTotals(),
      cash: { ...emptyTotals().cash, deposits: 10_000, depositCount: 1 },
    });
    expect(balanceContribution('WITHDRAWAL', 3000)).toStrictEqual({
      ...emptyTotals(),
      cash: { ...emptyTotals().cash, withdrawals: 3000, withdrawalCount: 1 },
    });
  });
});

describe('day totals', () => {
  it("leave the breakdown out of the day's item; the breakdown of the day's sales sums their sold lines", async () => {
    // Act
    const item = dayItemTotals(addTotals(saleContribution(saleA), saleContribution(saleB)));
    const breakdown = await breakdownOf([saleA, saleB, saleC, saleD]);

    // Assess: A's 2 coffees less B's refunded one, A's bun and gift card; C (Open) and D (Cancelled) count in neither.
    expect(Object.keys(item)).not.toContain('products');
    expect(Object.keys(item)).not.toContain('groups');
    expect(breakdown).toStrictEqual({
      products: {
        'P#coffee': { count: 1, brutto: 2500, vat: 500 },
        'P#bun': { count: 1, brutto: 2000, vat: 214 },
        'P#gift': { count: 1, brutto: 1000, vat: 0 },
      },
      groups: {
        'G#Drinks': { count: 1, brutto: 2500, vat: 500 },
        'G#Bakery': { count: 1, brutto: 2000, vat: 214 },
        'G#': { count: 1, brutto: 1000, vat: 0 },
      },
    });
  });

  it('add up the day field by field', () => {
    expect(dayTotals).toStrictEqual({
      // A + E (the training sale T is no sale): 80.00 + 10.00; VAT 12.14 + 2.00.
      sold: { count: 2, brutto: 9000, vat: 1414, netto: 7586 },
      refunds: { count: 1, brutto: 2500, vat: 500, netto: 2000 },
      cancelled: { count: 1, brutto: 700 },
      open: { count: 1, brutto: 1200 },
      unprinted: 1,
      // A's and B's; T's Normal print is a training receipt.
      receipts: 2,
      copies: { count: 1, brutto: 8000 },
      proforma: { count: 1, brutto: 1200 },
      discounts: 250,
      // pieces: A 2 + 1, B -1; other: A's gift card. E's line is the one service.
      goods: { pieces: 2, other: 1 },
      services: { pieces: 0, other: 1 },
      training: { count: 1, brutto: 2500 },
      // T's 25.00 in cash is not in the drawer's sales.
      cash: { sales: 500, salesCount: 2, deposits: 10_000, depositCount: 1, withdrawals: 3000, withdrawalCount: 1 },
      vatRates: {
        '0': { count: 1, netto: 1000, vat: 0, brutto: 1000 },
        '1200': { count: 1, netto: 1786, vat: 214, brutto: 2000 },
        '2500': { count: 3, netto: 2800, vat: 700, brutto: 3500 },
      },
      payments: { Cash: { count: 2, amount: 500, vat: -45 }, EmvStandalone: { count: 2, amount: 6000, vat: 959 } },
      products: {
        'P#coffee': { count: 1, brutto: 2500, vat: 500 },
        'P#bun': { count: 1, brutto: 2000, vat: 214 },
        'P#gift': { count: 1, brutto: 1000, vat: 0 },
        'P#__proto__': { count: 1, brutto: 1000, vat: 200 },
      },
      // Drinks: A 2 / 50.00 / 10.00 less B 1 / 25.00 / 5.00. Sum: 25.00 + 20.00 + 10.00 + 10.00 = 65.00 = 90.00 - 25.00;
      // VAT 5.00 + 2.14 + 0 + 2.00 = 9.14 = 14.14 - 5.00.
      groups: {
        'G#Drinks': { count: 1, brutto: 2500, vat: 500 },
        'G#Bakery': { count: 1, brutto: 2000, vat: 214 },
        'G#': { count: 1, brutto: 1000, vat: 0 },
        'G#Service': { count: 1, brutto: 1000, vat: 200 },
      },
      hours: {
        [String(Date.parse('2024-06-11T09:00:00Z'))]: { count: 2, brutto: 9000 },
        [String(Date.parse('2024-06-11T10:00:00Z'))]: { count: 1, brutto: -2500 },
      },
    });
    expect(hourTotals(dayTotals)).toEqual([
      { hour: Date.parse('2024-06-11T09:00:00Z'), count: 2, brutto: 9000 },
      { hour: Date.parse('2024-06-11T10:00:00Z'), count: 1, brutto: -2500 },
    ]);
    // 100.00 deposited - 30.00 withdrawn + 30.00 (A) - 25.00 (B).
    expect(cashBalance(dayTotals)).toBe(7500);
    expect(unprintedSales(dayTotals)).toBe(1);
  });

  it('a new version replaces the old one: totals - old + new', () => {
    const paidC: Sale = {
      ...saleC,
      saleState: 'Paid',
      payments: [pay('Cash', 1200)],
      prints: [...saleC.prints, print('Normal', 3)],
    };
    const updated = addTotals(subtractTotals(dayTotals, saleContribution(saleC)), saleContribution(paidC));
    expect(updated).toStrictEqual(sumOf([saleA, saleB, paidC, saleD, saleE, saleT].map(saleContribution).concat(balances)));
    expect(updated.open).toEqual({ count: 0, brutto: 0 });
    expect(updated.sold).toEqual({ count: 3, brutto: 10_200, vat: 1654, netto: 8546 });
    // Drinks: 25.00 + C's 12.00 (9.60 + 2.40 VAT).
    expect(updated.groups['G#Drinks']).toEqual({ count: 2, brutto: 3700, vat: 740 });
    expect(cashBalance(updated)).toBe(8700);
  });

  it('removing what was added leaves no key behind, even where a sale and its refund net to zero', () => {
    const refundAll: Sale = { ...saleA, identifier: 'R', refund: true, refundFor: 1, prints: [print('Normal', 9)] };
    const both = addTotals(saleContribution(saleA), saleContribution(refundAll));
    expect(both.products).toStrictEqual({});
    expect(both.groups).toStrictEqual({});
    expect(both.vatRates['2500']).toEqual({ count: 2, netto: 0, vat: 0, brutto: 0 });
    expect(subtractTotals(subtractTotals(both, saleContribution(saleA)), saleContribution(refundAll))).toStrictEqual(
      emptyTotals(),
    );
    expect(subtractTotals(dayTotals, dayTotals)).toStrictEqual(emptyTotals());
  });

  it('totals stored before services, training and groups were kept count them as zero', () => {
    const { services: _services, training: _training, groups: _groups, ...stored } = dayTotals;
    const old = stored as Totals;
    expect(groupTotals(old)).toEqual([]);
    const withT = addTotals(old, saleContribution(saleT));
    expect(withT.training).toEqual({ count: 1, brutto: 2500 });
    expect(withT.services).toEqual({ pieces: 0, other: 0 });
    expect(withT.groups).toStrictEqual({});
    const report = buildReport(reportInput(old));
    expect(report.services).toEqual({ pieces: 0, otherUnits: 0 });
    expect(report.training).toEqual({ count: 0, brutto: 0 });
    expect(report.salesPerCategory).toEqual([]);
  });
});

describe('buildReport', () => {
  it('the X report of an open day: every figure of the daily report', () => {
    expect(buildReport(reportInput(dayTotals))).toStrictEqual({
      type: 'X',
      reportNumber: null,
      produced: Date.parse('2024-06-11T18:00:00Z'),
      seller: { name: 'Kaffebaren AB', corporateId: '5561234567', address: 'Storgatan 1, Malmö', country: 'SE' },
      register: { cashRegisterName: 'kassa-1', productionNumber: 'PN-0001', controlUnitSerial: 'CU-42' },
      dayNumber: 7,
      date: 20240611,
      open: Date.parse('2024-06-11T06:00:00Z'),
      close: null,
      sales: { count: 2, brutto: 9000, vat: 1414, netto: 7586 },
      refunds: { count: 1, brutto: 2500, vat: 500, netto: 2000 },
      netSales: { brutto: 6500, vat: 914, netto: 5586 },
      // By name, lines without a group last: 20.00 + 25.00 + 10.00 + 10.00 = 65.00 = netSales; 2.14 + 5.00 + 2.00 + 0 = 9.14.
      salesPerCategory: [
        { category: 'Bakery', count: 1, brutto: 2000, vat: 214 },
        { category: 'Drinks', count: 1, brutto: 2500, vat: 500 },
        { category: 'Service', count: 1, brutto: 1000, vat: 200 },
        { category: null, count: 1, brutto: 1000, vat: 0 },
      ],
      vatPerRate: [
        { vatRate: 0, count: 1, netto: 1000, vat: 0, brutto: 1000 },
        { vatRate: 1200, count: 1, netto: 1786, vat: 214, brutto: 2000 },
        { vatRate: 2500, count: 3, netto: 2800, vat: 700, brutto: 3500 },
      ],
      paymentTypes: [
        { paymentType: 'Cash', count: 2, amount: 500, vat: -45 },
        { paymentType: 'EmvStandalone', count: 2, amount: 6000, vat: 959 },
      ],
      goods: { pieces: 2, otherUnits: 1 },
      services: { pieces: 0, otherUnits: 1 },
      training: { count: 1, brutto: 2500 },
      receipts: 2,
      unprinted: 1,
      // A and B paid in cash, the deposit, the withdrawal; the last two without a sale.
      drawerOpenings: 4,
      drawerOpeningsWithoutSale: 2,
      copies: { count: 1, brutto: 8000 },
      proforma: { count: 1, brutto: 1200 },
      discounts: 250,
      cancelled: { count: 1, brutto: 700 },
      otherReductions: { count: 1, brutto: 700 },
      unfinished: { count: 1, brutto: 1200 },
      cash: { deposits: 10_000, depositCount: 1, withdrawals: 3000, withdrawalCount: 1, cashPayments: 500, expected: 7500 },
      grandTotals: { sales: 1_000_000, refunds: 40_000, net: 960_000 },
    });
  });

  it('the Z report of a closed day is numbered by its dayNumber and shows its close', () => {
    const close = Date.parse('2024-06-11T17:30:00Z');
    const report = buildReport(reportInput(dayTotals, { day: dayOf({ opened: false, close, cashAtClose: 7500 }) }));
    expect(report).toMatchObject({ type: 'Z', reportNumber: 7, dayNumber: 7, open: dayOf().open, close });
  });

  it('when no line has a group salesPerCategory is an empty list', () => {
    expect(buildReport(reportInput(emptyTotals())).salesPerCategory).toEqual([]);
    const ungrouped = saleOf([{ product: 'coffee', deltaUnit: true, delta: 1, rate: 2500, netto: 2000, discount: 0 }], {
      payments: [pay('Cash', 2500)],
    });
    expect(buildReport(reportInput(saleContribution(ungrouped))).salesPerCategory).toEqual([]);
  });
});

// ---------------------------------------------------------------- sale arithmetic

describe('saleTotalsProblem', () => {
  const consistent = saleOf(
    [
      { product: 'coffee', deltaUnit: true, delta: 2, rate: 2500, netto: 4000, discount: 0 },
      { product: 'bun', deltaUnit: true, delta: 1, rate: 1200, netto: 1786, discount: 0 },
    ],
    { payments: [pay('Cash', 3000), pay('EmvStandalone', 4000, 'APPROVED'), pay('EmvStandalone', 999, 'REJECTED')] },
  );
  const secondRate = (sale: Sale, fields: Partial<VatRateSum>): VatRateSum[] =>
    sale.vatRateSums.map((rate, index) => (index === 1 ? { ...rate, ...fields } : rate));

  it('a sale whose totals add up has no problem, whatever its state; non-counting payments are ignored', () => {
    for (const saleState of ['Open', 'Paid', 'Complete', 'Cancelled'] as const) {
      expect(saleTotalsProblem({ ...consistent, saleState })).toBeUndefined();
    }
    expect(saleTotalsProblem({ ...consistent, saleState: 'Open', payments: [] })).toBeUndefined();
    expect(saleTotalsProblem(saleOf([], { payments: [] }))).toBeUndefined();
  });

  it.each([
    ['brutto = sum(vatRateSums[].brutto)', { brutto: 7001 }],
    ['vat = sum(vatRateSums[].vat)', { vat: 1213 }],
    [
      'vatRateSums[1].netto + vatRateSums[1].vat = vatRateSums[1].brutto',
      { vatRateSums: secondRate(consistent, { netto: 1785, brutto: 2000 }) },
    ],
    ['sum(payments[].amount) = brutto', { payments: [pay('Cash', 3000), pay('EmvStandalone', 4000, 'PENDING')] }],
  ])('%s', (relation, fields) => {
    const problem = saleTotalsProblem({ ...consistent, ...fields });
    expect(problem?.relation).toBe(relation);
    expect(problem?.message).toEqual(expect.any(String));
  });

  it('the sum of payments is checked once Paid or Complete, not while Open or Cancelled', () => {
    const underpaid = { ...consistent, payments: [pay('Cash', 6999)] };
    expect(saleTotalsProblem({ ...underpaid, saleState: 'Paid' })?.relation).toBe('sum(payments[].amount) = brutto');
    expect(saleTotalsProblem({ ...underpaid, saleState: 'Complete' })?.relation).toBe('sum(payments[].amount) = brutto');
    expect(saleTotalsProblem({ ...underpaid, saleState: 'Open' })).toBeUndefined();
    expect(saleTotalsProblem({ ...underpaid, saleState: 'Cancelled' })).toBeUndefined();
  });

  it('relations are checked in order: the first broken one is named', () => {
    expect(saleTotalsProblem({ ...consistent, brutto: 1, vat: 1, payments: [] })?.relation).toBe(
      'brutto = sum(vatRateSums[].brutto)',
    );
    expect(saleTotalsProblem({ ...consistent, vatRateSums: secondRate(consistent, { vat: 215 }), vat: 1215 })?.relation).toBe(
      'vatRateSums[1].netto + vatRateSums[1].vat = vatRateSums[1].brutto',
    );
  });
});

// ---------------------------------------------------------------- random days

const RATES = [0, 600, 1200, 2500];
const PRODUCTS = ['coffee', 'bun', 'gift', '__proto__', 'constructor'];
/** Frozen groups: none (absent or null) and a few names, some of them an object's own keys. */
const GROUPS = [undefined, null, 'Drinks', 'Bakery', 'toString', '__proto__'];
const ARTICLE_TYPES = [undefined, null, 'GOODS', 'SERVICE'] as const;

const lineArb: fc.Arbitrary<LineSpec> = fc.record({
  product: fc.constantFrom(...PRODUCTS),
  deltaUnit: fc.boolean(),
  delta: fc.integer({ min: 0, max: 20 }),
  rate: fc.constantFrom(...RATES),
  netto: fc.integer({ min: 0, max: 100_000 }),
  discount: fc.integer({ min: 0, max: 5000 }),
  group: fc.constantFrom(...GROUPS),
  articleType: fc.constantFrom(...ARTICLE_TYPES),
});

/** How a sale is paid: the cash share in percent, the state counting payments carry, and a payment that does not count. */
const paymentPlanArb = fc.record({
  cashPercent: fc.constantFrom(0, 100, 30, 50),
  state: fc.constantFrom(undefined, null, 'APPROVED' as const),
  ignored: fc.option(
    fc.record({
      paymentType: fc.constantFrom(...PAYMENT_TYPES),
      amount: fc.integer({ min: 1, max: 50_000 }),
      state: fc.constantFrom<PaymentState>('REJECTED', 'PENDING', 'CANCELLED'),
    }),
  ),
});

const contentArb = fc.record({ lines: fc.array(lineArb, { maxLength: 5 }), plan: paymentPlanArb });

/** What a version prints: a proforma (while Open), its Normal receipt (once sold), its one copy (after the receipt). */
const printsArb = fc.record({ proforma: fc.boolean(), normal: fc.boolean(), copy: fc.boolean() });

const PATHS: readonly (readonly SaleState[])[] = [
  ['Open'],
  ['Open', 'Open', 'Paid'],
  ['Open', 'Paid', 'Complete'],
  ['Open', 'Cancelled'],
  ['Paid'],
  ['Paid', 'Complete', 'Complete'],
];

/** A sale's history; about one in four is a training receipt (never a refund). */
const historyArb = fc.record({
  refund: fc.boolean(),
  training: fc.constantFrom(false, false, false, true),
  versions: fc
    .constantFrom(...PATHS)
    .chain((path) =>
      fc.tuple(
        ...path.map((saleState) => fc.record({ saleState: fc.constant(saleState), content: contentArb, prints: printsArb })),
      ),
    ),
});

const balanceArb = fc.record({
  action: fc.constantFrom<BalanceAction>('DEPOSIT', 'WITHDRAWAL'),
  amount: fc.integer({ min: 1, max: 100_000 }),
});

const sold = (state: SaleState) => state === 'Paid' || state === 'Complete';

type History = typeof historyArb extends fc.Arbitrary<infer T> ? T : never;
type PaymentPlan = typeof paymentPlanArb extends fc.Arbitrary<infer T> ? T : never;

/** Counting payments covering `brutto` (cash and card by the plan's share) and the plan's payment that does not count. */
function paymentsOf(brutto: number, plan: PaymentPlan): Payment[] {
  const cash = Math.round((brutto * plan.cashPercent) / 100);
  const counting = [pay('Cash', cash, plan.state), pay('EmvStandalone', brutto - cash, plan.state)].filter(
    (payment) => payment.amount > 0,
  );
  return plan.ignored ? [...counting, pay(plan.ignored.paymentType, plan.ignored.amount, plan.ignored.state)] : counting;
}

/**
 * The versions of one sale: its content and payments are edited while Open and frozen once sold; prints accumulate, with
 * at most one copy of a receipt and none of a training receipt (as `takePrints` allows).
 */
function versionsOf(history: History, index: number): Sale[] {
  const sales: Sale[] = [];
  const refund = history.refund && !history.training;
  for (const version of history.versions) {
    const before = sales.at(-1);
    const frozen = before !== undefined && sold(before.saleState);
    const base = frozen ? before : saleOf(version.content.lines);
    const prints = [...(before?.prints ?? [])];
    const has = (type: PrintType) => prints.some((p) => p.printType === type);
    if (version.prints.proforma && version.saleState === 'Open') prints.push(print('Proforma'));
    if (version.prints.normal && sold(version.saleState) && !has('Normal')) prints.push(print('Normal', index + 1));
    if (version.prints.copy && has('Normal') && !has('Copy') && !history.training) prints.push(print('Copy', index + 1));
    sales.push({
      ...base,
      identifier: `sale-${index}`,
      // Sales 20 minutes apart, so that some share an hour.
      close: Date.parse('2024-06-11T06:00:00Z') + index * 1_200_000,
      saleState: version.saleState,
      refund,
      refundFor: refund ? 1 : null,
      ...(history.training ? { training: true } : {}),
      payments: frozen ? base.payments : paymentsOf(base.brutto, version.content.plan),
      prints,
    });
  }
  return sales;
}

type Step = { kind: 'sale'; key: number; sale: Sale } | { kind: 'balance'; action: BalanceAction; amount: number };

/** Interleaves the sales' versions (each sale's in order) and the balance changes as `picks` say. */
function stepsOf(histories: History[], balanceChanges: { action: BalanceAction; amount: number }[], picks: number[]): Step[] {
  const queues: Step[][] = histories.map((history, key) =>
    versionsOf(history, key).map((sale) => ({ kind: 'sale' as const, key, sale })),
  );
  queues.push(balanceChanges.map((change) => ({ kind: 'balance' as const, ...change })));
  const steps: Step[] = [];
  let pick = 0;
  for (let open = queues.filter((queue) => queue.length > 0); open.length > 0; open = open.filter((queue) => queue.length > 0)) {
    const queue = open[(picks[pick] ?? 0) % open.length];
    pick += 1;
    const step = queue?.shift();
    if (step) steps.push(step);
  }
  return steps;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
/** Groups figures by key and sums them; entries whose figures are all zero are dropped (absent = zero). */
function grouped(entries: readonly [string, Record<string, number>][]): Map<string, Record<string, number>> {
  const groups = new Map<string, Record<string, number>>();
  for (const [key, figures] of entries) {
    const before = groups.get(key) ?? {};
    groups.set(key, Object.fromEntries(Object.entries(figures).map(([name, value]) => [name, (before[name] ?? 0) + value])));
  }
  return new Map([...groups].filter(([, figures]) => Object.values(figures).some((value) => value !== 0)));
}

/** Lines without a group, keyed apart from any group's name. */
const NO_GROUP = '\u0000no group';

/**
 * The report's figures computed straight from the final sales and balance changes, without the totals module. A
 * training sale counts in `training` only: every other figure is over the other sales.
 */
function expectedFigures(allSales: readonly Sale[], changes: readonly { action: BalanceAction; amount: number }[]) {
  const sales = allSales.filter((sale) => sale.training !== true);
  const training = allSales.filter((sale) => sale.training === true && sold(sale.saleState));
  const soldSales = sales.filter((sale) => sold(sale.saleState));
  const signed = (sale: Sale, value: number) => (sale.refund ? 0 - value : value);
  const sums = (list: readonly Sale[]) => ({
    count: list.length,
    brutto: sum(list.map((sale) => sale.brutto)),
    vat: sum(list.map((sale) => sale.vat)),
    netto: sum(list.map((sale) => sale.brutto - sale.vat)),
  });
  const counting = (sale: Sale) =>
    sale.payments.filter((payment) => payment.paymentState == null || payment.paymentState === 'APPROVED');
  const cashOf = (sale: Sale) =>
    sum(
      counting(sale)
        .filter((payment) => payment.paymentType === 'Cash')
        .map((payment) => payment.amount),
    );
  const printed = (type: PrintType) => {
    const prints = sales.flatMap((sale) => sale.prints.filter((p) => p.printType === type).map(() => sale.brutto));
    return { count: prints.length, brutto: sum(prints) };
  };
  const inState = (state: SaleState) => {
    const list = sales.filter((sale) => sale.saleState === state);
    return { count: list.length, brutto: sum(list.map((sale) => sale.brutto)) };
  };
  const moved = (action: BalanceAction) => changes.filter((change) => change.action === action).map((change) => change.amount);
  const lines = soldSales.flatMap((sale) => sale.saleProducts.map((line) => ({ sale, line })));
  const units = (kind: 'GOODS' | 'SERVICE') => {
    const ofKind = lines.filter(({ line }) => (line.articleType === 'SERVICE' ? 'SERVICE' : 'GOODS') === kind);
    return {
      pieces: sum(ofKind.filter(({ line }) => line.deltaUnit).map(({ sale, line }) => signed(sale, line.delta))),
      otherUnits: sum(ofKind.filter(({ line }) => !line.deltaUnit).map(({ sale }) => signed(sale, 1))),
    };
  };
  // The random sales are consistent (brutto and VAT are their lines' sums), so each line's own figures add up.
  const perGroup = grouped(
    lines.map(({ sale, line }): [string, Record<string, number>] => [
      line.group ?? NO_GROUP,
      {
        count: signed(sale, line.deltaUnit ? line.delta : 1),
        brutto: signed(sale, line.brutto),
        vat: signed(sale, line.vat),
      },
    ]),
  );
  const cashPayments = sum(soldSales.map((sale) => signed(sale, cashOf(sale))));
  return {
    sales: sums(soldSales.filter((sale) => !sale.refund)),
    refunds: sums(soldSales.filter((sale) => sale.refund)),
    vatPerRate: grouped(
      soldSales.flatMap((sale) =>
        sale.vatRateSums.map((rate): [string, Record<string, number>] => [
          String(rate.vatRate),
          { count: 1, netto: signed(sale, rate.netto), vat: signed(sale, rate.vat), brutto: signed(sale, rate.brutto) },
        ]),
      ),
    ),
    paymentTypes: grouped(
      soldSales.flatMap((sale) =>
        counting(sale).map((payment): [string, Record<string, number>] => [
          payment.paymentType,
          { count: 1, amount: signed(sale, payment.amount) },
        ]),
      ),
    ),
    hours: grouped(
      soldSales.map((sale): [string, Record<string, number>] => [
        new Date(sale.close ?? 0).toISOString().slice(0, 13),
        { count: 1, brutto: signed(sale, sale.brutto) },
      ]),
    ),
    // Empty when no group (absent = zero, as everywhere) but the lines without one is left.
    salesPerCategory: [...perGroup.keys()].some((key) => key !== NO_GROUP) ? perGroup : new Map(),
    goods: units('GOODS'),
    services: units('SERVICE'),
    training: { count: training.length, brutto: sum(training.map((sale) => sale.brutto)) },
    receipts: printed('Normal').count,
    unprinted: soldSales.filter((sale) => !sale.prints.some((p) => p.printType === 'Normal')).length,
    drawerOpenings: soldSales.filter((sale) => cashOf(sale) > 0).length + changes.length,
    drawerOpeningsWithoutSale: changes.length,
    copies: printed('Copy'),
    proforma: printed('Proforma'),
    discounts: sum(soldSales.map((sale) => signed(sale, sale.discount))),
    cancelled: inState('Cancelled'),
    otherReductions: inState('Cancelled'),
    unfinished: inState('Open'),
    cash: {
      deposits: sum(moved('DEPOSIT')),
      depositCount: moved('DEPOSIT').length,
      withdrawals: sum(moved('WITHDRAWAL')),
      withdrawalCount: moved('WITHDRAWAL').length,
      cashPayments,
      expected: sum(moved('DEPOSIT')) - sum(moved('WITHDRAWAL')) + cashPayments,
    },
  };
}

const contributionOf = (step: Step) =>
  step.kind === 'sale' ? saleContribution(step.sale) : balanceContribution(step.action, step.amount);
const hasZeroEntry = (totals: Totals) =>
  [totals.vatRates, totals.payments, totals.products, totals.groups, totals.hours].some((map) =>
    Object.values(map).some((figures) => Object.values(figures).every((value) => value === 0)),
  );
const keyed = <T extends object>(list: readonly T[], key: keyof T) =>
  grouped(
    list.map((item): [string, Record<string, number>] => [
      String(item[key]),
      Object.fromEntries(Object.entries(item).filter(([name]) => name !== key)),
    ]),
  );

describe('a random day, kept incrementally', () => {
  it('equals the day computed from scratch; the report equals the sums over its sales; removal leaves nothing; cash adds up', () => {
    fc.assert(
      fc.property(
        fc.array(historyArb, { minLength: 1, maxLength: 6 }),
        fc.array(balanceArb, { maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (histories, changes, picks) => {
          const steps = stepsOf(histories, changes, picks);
          const current = new Map<number, Sale>();
          const applied: Step[] = [];
          let totals = emptyTotals();
          for (const step of steps) {
            if (step.kind === 'sale') {
              expect(saleTotalsProblem(step.sale)).toBeUndefined();
              const old = current.get(step.key);
              if (old) totals = subtractTotals(totals, saleContribution(old));
              current.set(step.key, step.sale);
            } else applied.push(step);
            totals = addTotals(totals, contributionOf(step));
            const fromScratch = sumOf([...current.values()].map(saleContribution).concat(applied.map(contributionOf)));
            expect(totals).toStrictEqual(fromScratch);
            expect(hasZeroEntry(totals)).toBe(false);
          }

          const sales = [...current.values()];
          const expected = expectedFigures(sales, changes);
          const report = buildReport(reportInput(totals));
          expect(report).toMatchObject({
            sales: expected.sales,
            refunds: expected.refunds,
            netSales: {
              brutto: expected.sales.brutto - expected.refunds.brutto,
              vat: expected.sales.vat - expected.refunds.vat,
              netto: expected.sales.netto - expected.refunds.netto,
            },
            goods: expected.goods,
            services: expected.services,
            training: expected.training,
            receipts: expected.receipts,
            unprinted: expected.unprinted,
            drawerOpenings: expected.drawerOpenings,
            drawerOpeningsWithoutSale: expected.drawerOpeningsWithoutSale,
            copies: expected.copies,
            proforma: expected.proforma,
            discounts: expected.discounts,
            cancelled: expected.cancelled,
            otherReductions: expected.otherReductions,
            unfinished: expected.unfinished,
            cash: expected.cash,
          });
          expect(keyed(report.vatPerRate, 'vatRate')).toEqual(expected.vatPerRate);
          // Each payment's VAT is its share of its sale's: checked below as a whole, against the sales' VAT.
          expect(
            keyed(
              report.paymentTypes.map(({ vat: _vat, ...payment }) => payment),
              'paymentType',
            ),
          ).toEqual(expected.paymentTypes);
          expect(
            keyed(
              hourTotals(totals).map(({ hour, ...sums }) => ({ hour: new Date(hour).toISOString().slice(0, 13), ...sums })),
              'hour',
            ),
          ).toEqual(expected.hours);
          expect(
            keyed(
              report.salesPerCategory.map(({ category, ...sums }) => ({ category: category ?? NO_GROUP, ...sums })),
              'category',
            ),
          ).toEqual(expected.salesPerCategory);
          // Each group once, by name, the lines without one last; together they are the net sales.
          const names = report.salesPerCategory.map(({ category }) => category);
          expect(new Set(names).size).toBe(names.length);
          expect(names).toEqual([...names.filter((name) => name !== null).sort(), ...names.filter((name) => name === null)]);
          if (report.salesPerCategory.length > 0) {
            expect(sum(report.salesPerCategory.map((category) => category.brutto))).toBe(report.netSales.brutto);
            expect(sum(report.salesPerCategory.map((category) => category.vat))).toBe(report.netSales.vat);
          }
          // The training receipts change no other figure: the day without them reports the same, training aside.
          const withoutTraining = sumOf(
            sales
              .filter((sale) => sale.training !== true)
              .map(saleContribution)
              .concat(applied.map(contributionOf)),
          );
          expect({ ...report, training: null }).toStrictEqual({
            ...buildReport(reportInput(withoutTraining)),
            training: null,
          });
          // Every sold sale is paid in full, so the net figures agree with one another.
          expect(sum(report.vatPerRate.map((rate) => rate.brutto))).toBe(report.netSales.brutto);
          expect(sum(report.paymentTypes.map((payment) => payment.amount))).toBe(report.netSales.brutto);
          expect(sum(report.paymentTypes.map((payment) => payment.vat))).toBe(report.netSales.vat);
          expect(cashBalance(totals)).toBe(expected.cash.expected);

          const removed = [...sales.map(saleContribution), ...applied.map(contributionOf)]
            .reverse()
            .reduce(subtractTotals, totals);
          expect(removed).toStrictEqual(emptyTotals());
        },
      ),
      { numRuns: 200 },
    );
  });
});
