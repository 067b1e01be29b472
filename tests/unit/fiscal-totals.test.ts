/** A day's sale checks, running totals and X/Z report: hand-computed days, then random ones. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { saleTotalsProblem } from '#shared/fiscal/arithmetic.ts';
import { PAYMENT_TYPES } from '#shared/fiscal/model.ts';
import type {
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
  cashBalance,
  emptyTotals,
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

/** Paid: 2 coffees at 25 % (discount 5.00), a bun at 12 %, a 10.00 gift card at 0 %; cash, card, a rejected card; receipt and two copies. */
const saleA = saleOf(
  [
    { product: 'coffee', deltaUnit: true, delta: 2, rate: 2500, netto: 4000, discount: 500 },
    { product: 'bun', deltaUnit: true, delta: 1, rate: 1200, netto: 1786, discount: 0 },
    { product: 'gift', deltaUnit: false, delta: 1000, rate: 0, netto: 1000, discount: 0 },
  ],
  {
    identifier: 'A',
    close: Date.parse('2024-06-11T09:15:00Z'),
    payments: [pay('Cash', 3000), pay('EmvStandalone', 5000, 'APPROVED'), pay('EmvStandalone', 8000, 'REJECTED')],
    prints: [print('Normal', 1), print('Copy', 1), print('Copy', 1)],
  },
);
/** Complete refund of one coffee (its discount 2.50 returned), paid back in cash, with its receipt. */
const saleB = saleOf([{ product: 'coffee', deltaUnit: true, delta: 1, rate: 2500, netto: 2000, discount: 250 }], {
  identifier: 'B',
  close: Date.parse('2024-06-11T10:20:00Z'),
  saleState: 'Complete',
  refund: true,
  refundFor: 1,
  payments: [pay('Cash', 2500, null)],
  prints: [print('Normal', 2)],
});
/** Still Open, with a proforma. */
const saleC = saleOf([{ product: 'coffee', deltaUnit: true, delta: 1, rate: 2500, netto: 960, discount: 0 }], {
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
/** Paid by card, receipt not yet printed, without a `close` (its hour is when it was recorded); its product is named "__proto__" (a legal identifier). */
const saleE = saleOf([{ product: '__proto__', deltaUnit: false, delta: 1000, rate: 2500, netto: 800, discount: 0 }], {
  identifier: 'E',
  recorded: Date.parse('2024-06-11T09:40:00Z'),
  payments: [pay('EmvStandalone', 1000)],
});

const balances: readonly Totals[] = [balanceContribution('DEPOSIT', 10_000), balanceContribution('WITHDRAWAL', 3000)];
const dayTotals = sumOf([saleA, saleB, saleC, saleD, saleE].map(saleContribution).concat(balances));

describe('saleContribution', () => {
  it('a Paid sale counts as sold: VAT per rate, counting payments, cash, goods, products, prints', () => {
    expect(saleContribution(saleA)).toStrictEqual({
      sold: { count: 1, brutto: 8000, vat: 1214, netto: 6786 },
      refunds: { count: 0, brutto: 0, vat: 0, netto: 0 },
      cancelled: { count: 0, brutto: 0 },
      open: { count: 0, brutto: 0 },
      unprinted: 0,
      receipts: 1,
      copies: { count: 2, brutto: 16_000 },
      proforma: { count: 0, brutto: 0 },
      discounts: 500,
      goods: { pieces: 3, other: 1 },
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

  it('a sold sale without a Normal print is unprinted; products are keyed so that any identifier stores as a map key', () => {
    const contribution = saleContribution(saleE);
    expect(unprintedSales(contribution)).toBe(1);
    expect(contribution.products).toStrictEqual({ 'P#__proto__': { count: 1, brutto: 1000, vat: 200 } });
    expect(productTotals(contribution)).toEqual([{ productIdentifier: '__proto__', count: 1, brutto: 1000, vat: 200 }]);
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
  it('add up the day field by field', () => {
    expect(dayTotals).toStrictEqual({
      sold: { count: 2, brutto: 9000, vat: 1414, netto: 7586 },
      refunds: { count: 1, brutto: 2500, vat: 500, netto: 2000 },
      cancelled: { count: 1, brutto: 700 },
      open: { count: 1, brutto: 1200 },
      unprinted: 1,
      receipts: 2,
      copies: { count: 2, brutto: 16_000 },
      proforma: { count: 1, brutto: 1200 },
      discounts: 250,
      goods: { pieces: 2, other: 2 },
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
      hours: {
        [String(Date.parse('2024-06-11T09:00:00Z'))]: { count: 2, brutto: 9000 },
        [String(Date.parse('2024-06-11T10:00:00Z'))]: { count: 1, brutto: -2500 },
      },
    });
    expect(hourTotals(dayTotals)).toEqual([
      { hour: Date.parse('2024-06-11T09:00:00Z'), count: 2, brutto: 9000 },
      { hour: Date.parse('2024-06-11T10:00:00Z'), count: 1, brutto: -2500 },
    ]);
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
    expect(updated).toStrictEqual(sumOf([saleA, saleB, paidC, saleD, saleE].map(saleContribution).concat(balances)));
    expect(updated.open).toEqual({ count: 0, brutto: 0 });
    expect(updated.sold).toEqual({ count: 3, brutto: 10_200, vat: 1654, netto: 8546 });
    expect(cashBalance(updated)).toBe(8700);
  });

  it('removing what was added leaves no key behind, even where a sale and its refund net to zero', () => {
    const refundAll: Sale = { ...saleA, identifier: 'R', refund: true, refundFor: 1, prints: [print('Normal', 9)] };
    const both = addTotals(saleContribution(saleA), saleContribution(refundAll));
    expect(both.products).toStrictEqual({});
    expect(both.vatRates['2500']).toEqual({ count: 2, netto: 0, vat: 0, brutto: 0 });
    expect(subtractTotals(subtractTotals(both, saleContribution(saleA)), saleContribution(refundAll))).toStrictEqual(
      emptyTotals(),
    );
    expect(subtractTotals(dayTotals, dayTotals)).toStrictEqual(emptyTotals());
  });
});

describe('buildReport', () => {
  const categories = new Map<string, readonly string[]>([
    ['coffee', ['Drinks', 'Breakfast']],
    ['bun', ['Bakery', 'Breakfast', 'Bakery']],
    ['__proto__', ['Drinks']],
  ]);

  it('the X report of an open day: every figure of the daily report', () => {
    expect(buildReport(reportInput(dayTotals, { categories }))).toStrictEqual({
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
      salesPerCategory: [
        { category: 'Bakery', count: 1, brutto: 2000, vat: 214 },
        { category: 'Breakfast', count: 2, brutto: 4500, vat: 714 },
        { category: 'Drinks', count: 2, brutto: 3500, vat: 700 },
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
      goods: { pieces: 2, otherUnits: 2 },
      receipts: 2,
      unprinted: 1,
      drawerOpenings: 4,
      copies: { count: 2, brutto: 16_000 },
      proforma: { count: 1, brutto: 1200 },
      discounts: 250,
      cancelled: { count: 1, brutto: 700 },
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

  it('without categories salesPerCategory is an empty list', () => {
    expect(buildReport(reportInput(dayTotals)).salesPerCategory).toEqual([]);
    expect(buildReport(reportInput(dayTotals, { categories: new Map() })).salesPerCategory).toEqual([]);
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
const CATEGORIES = new Map<string, readonly string[]>([
  ['coffee', ['Drinks', 'Breakfast']],
  ['bun', ['Breakfast']],
  ['__proto__', ['Drinks']],
  ['constructor', ['toString']],
]);

const lineArb: fc.Arbitrary<LineSpec> = fc.record({
  product: fc.constantFrom(...PRODUCTS),
  deltaUnit: fc.boolean(),
  delta: fc.integer({ min: 0, max: 20 }),
  rate: fc.constantFrom(...RATES),
  netto: fc.integer({ min: 0, max: 100_000 }),
  discount: fc.integer({ min: 0, max: 5000 }),
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

/** What a version prints: a proforma (while Open), its Normal receipt (once sold), copies (after the receipt). */
const printsArb = fc.record({ proforma: fc.boolean(), normal: fc.boolean(), copies: fc.nat(2) });

const PATHS: readonly (readonly SaleState[])[] = [
  ['Open'],
  ['Open', 'Open', 'Paid'],
  ['Open', 'Paid', 'Complete'],
  ['Open', 'Cancelled'],
  ['Paid'],
  ['Paid', 'Complete', 'Complete'],
];

const historyArb = fc.record({
  refund: fc.boolean(),
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

/** The versions of one sale: its content and payments are edited while Open and frozen once sold; prints accumulate. */
function versionsOf(history: History, index: number): Sale[] {
  const sales: Sale[] = [];
  for (const version of history.versions) {
    const before = sales.at(-1);
    const frozen = before !== undefined && sold(before.saleState);
    const base = frozen ? before : saleOf(version.content.lines);
    const prints = [...(before?.prints ?? [])];
    const hasNormal = () => prints.some((p) => p.printType === 'Normal');
    if (version.prints.proforma && version.saleState === 'Open') prints.push(print('Proforma'));
    if (version.prints.normal && sold(version.saleState) && !hasNormal()) prints.push(print('Normal', index + 1));
    if (hasNormal()) for (let copy = 0; copy < version.prints.copies; copy += 1) prints.push(print('Copy', index + 1));
    sales.push({
      ...base,
      identifier: `sale-${index}`,
      // Sales 20 minutes apart, so that some share an hour.
      close: Date.parse('2024-06-11T06:00:00Z') + index * 1_200_000,
      saleState: version.saleState,
      refund: history.refund,
      refundFor: history.refund ? 1 : null,
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

/** The report's figures computed straight from the final sales and balance changes, without the totals module. */
function expectedFigures(sales: readonly Sale[], changes: readonly { action: BalanceAction; amount: number }[]) {
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
    salesPerCategory: grouped(
      lines.flatMap(({ sale, line }) =>
        [...new Set(CATEGORIES.get(line.productIdentifier))].map((category): [string, Record<string, number>] => [
          category,
          {
            count: signed(sale, line.deltaUnit ? line.delta : 1),
            brutto: signed(sale, line.brutto),
            vat: signed(sale, line.vat),
          },
        ]),
      ),
    ),
    goods: {
      pieces: sum(lines.filter(({ line }) => line.deltaUnit).map(({ sale, line }) => signed(sale, line.delta))),
      otherUnits: sum(lines.filter(({ line }) => !line.deltaUnit).map(({ sale }) => signed(sale, 1))),
    },
    receipts: printed('Normal').count,
    unprinted: soldSales.filter((sale) => !sale.prints.some((p) => p.printType === 'Normal')).length,
    drawerOpenings: soldSales.filter((sale) => cashOf(sale) > 0).length + changes.length,
    copies: printed('Copy'),
    proforma: printed('Proforma'),
    discounts: sum(soldSales.map((sale) => signed(sale, sale.discount))),
    cancelled: inState('Cancelled'),
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
  [totals.vatRates, totals.payments, totals.products, totals.hours].some((map) =>
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
          const report = buildReport(reportInput(totals, { categories: CATEGORIES }));
          expect(report).toMatchObject({
            sales: expected.sales,
            refunds: expected.refunds,
            goods: expected.goods,
            receipts: expected.receipts,
            unprinted: expected.unprinted,
            drawerOpenings: expected.drawerOpenings,
            copies: expected.copies,
            proforma: expected.proforma,
            discounts: expected.discounts,
            cancelled: expected.cancelled,
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
          expect(keyed(report.salesPerCategory, 'category')).toEqual(expected.salesPerCategory);
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
