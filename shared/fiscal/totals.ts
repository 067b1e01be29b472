/**
 * A trading day's running totals (day close, cash balance, X/Z report): a small JSON object stored on the day's item and kept
 * incrementally in the transaction of every sale write (`totals - saleContribution(old) + saleContribution(new)`)
 * and balance change, so day close and the X/Z report read one item whatever the number of sales.
 *
 * Money is integer hundredths. A refund counts with a minus sign in every net figure (VAT per rate, payment
 * types, cash, discounts, goods, products) and separately, positive, in `refunds`. Only Paid and Complete sales
 * count as sold; Open and Cancelled ones count in their own lines only. Prints count whatever the sale's state.
 *
 * | Field | Meaning |
 * |---|---|
 * | sold | sold sales that are not refunds: count, brutto, vat, netto (= brutto - vat) |
 * | refunds | sold refunds: count, brutto, vat, netto (positive) |
 * | cancelled, open | Cancelled / Open sales (refunds too): count, brutto (positive) |
 * | unprinted | sold sales (refunds too) without a Normal print; closing the day needs 0 |
 * | receipts | Normal prints |
 * | copies, proforma | Copy / Proforma prints: count, brutto (each print counts the sale's brutto once) |
 * | discounts | the sold sales' `discount`, signed |
 * | goods, services | sold lines of GOODS / SERVICE articles (`articleType`; a line without one is goods): `pieces` = sum of `delta` of `deltaUnit` lines, `other` = other lines (1 each); signed |
 * | training | sold training sales: count, brutto; a training sale counts here and nowhere else |
 * | cash | `sales`: counting Cash payments of sold sales, signed; `salesCount`: sold sales with one; deposits and withdrawals: sum and count |
 * | vatRates | by `vatRate` (hundredths of a percent) as text: `count` of sold sales at that rate, netto/vat/brutto signed |
 * | payments | by paymentType: `count` of counting payments of sold sales, `amount` and `vat` (the payment's share of its sale's VAT) signed |
 * | products | by `P#<productIdentifier>`: `count` (units: `delta` of a `deltaUnit` line, else 1), brutto, vat of sold lines, signed; read with `productTotals` |
 * | groups | by `G#<group>` (the line's frozen `group`; `G#` without one): `count` (units), brutto and vat of sold lines, signed; what a sale's brutto and vat differ from its lines' sums (a discount on the whole sale) goes to its last line's group, so the groups add up to the sales; read with `groupTotals` |
 * | hours | by the start of the sale's hour (ms since the epoch, as text; the sale's `close`, else when the server recorded it): `count` of sold sales, `brutto` signed; read with `hourTotals` |
 *
 * The five maps are keyed by strings (DynamoDB map items) and hold no entry whose figures are all zero, so a
 * sale's removal leaves no key behind and the stored item does not grow with what was undone. Product keys carry
 * a prefix because `__proto__` and `constructor` are legal identifiers that the AWS SDK's marshalling cannot
 * store as map keys (the first is silently dropped, the second makes it throw).
 *
 * `products` and `groups` are the day's breakdown: they grow with what the day sold (every distinct product and
 * group name a register sends), so an open day's item does not keep them (`DayTotals`; docs/decisions.md, "Where a
 * day's per-product totals live"): they are folded from the day's sales where they are read (`breakdownOf`). The
 * close keeps the groups in the closed day's item, for its Z report.
 */
import { countsAsPaid, countsAsSold } from './arithmetic.ts';
import type { BalanceAction, PrintType, Sale } from './model.ts';

/** One line of named integer figures. Type aliases (not interfaces) so that they index as records. */
type Figures = Readonly<Record<string, number>>;

export type Counted = { count: number; brutto: number };
export type SaleSums = { count: number; brutto: number; vat: number; netto: number };
export type Goods = { pieces: number; other: number };
export type GroupSums = { count: number; brutto: number; vat: number };
export type CashMovements = {
  sales: number;
  salesCount: number;
  deposits: number;
  depositCount: number;
  withdrawals: number;
  withdrawalCount: number;
  /** Openings without a sale the register journaled (`DRAWER_OPENED`); absent on days before they were counted. */
  drawerOpened?: number;
};
export type RateSums = { count: number; netto: number; vat: number; brutto: number };
export type PaymentSums = { count: number; amount: number; vat: number };
export type ProductSums = { count: number; brutto: number; vat: number };
export type HourSums = { count: number; brutto: number };

/** A day's totals; see the table at the top of this file. */
export type Totals = {
  sold: SaleSums;
  refunds: SaleSums;
  cancelled: Counted;
  open: Counted;
  unprinted: number;
  receipts: number;
  copies: Counted;
  proforma: Counted;
  discounts: number;
  goods: Goods;
  services: Goods;
  training: Counted;
  cash: CashMovements;
  vatRates: Record<string, RateSums>;
  payments: Record<string, PaymentSums>;
  products: Record<string, ProductSums>;
  groups: Record<string, GroupSums>;
  hours: Record<string, HourSums>;
};

type Sign = 1 | -1;

/** `a + b` or `a - b`, written so that no -0 appears (stored and compared figures stay plain zeros). */
const move = (a: number, b: number, sign: Sign): number => (sign === 1 ? a + b : a - b);

/** Figure by figure; a figure absent from one side counts as zero. */
function combineFigures<T extends Figures>(a: T | undefined, b: T, sign: Sign): T {
  const out: Record<string, number> = { ...a };
  for (const [name, value] of Object.entries(b)) out[name] = move(out[name] ?? 0, value, sign);
  return out as T;
}

const isZero = (figures: Figures): boolean => Object.values(figures).every((value) => value === 0);

/** Entry by entry, dropping entries that come to all zeros. */
function combineMap<T extends Figures>(
  a: Readonly<Record<string, T>>,
  b: Readonly<Record<string, T>>,
  sign: Sign,
): Record<string, T> {
  const out = new Map(Object.entries(a));
  for (const [key, figures] of Object.entries(b)) {
    const combined = combineFigures(out.get(key), figures, sign);
    if (isZero(combined)) out.delete(key);
    else out.set(key, combined);
  }
  return Object.fromEntries(out);
}

/** The figures per key that grow with what a day sells (see the top of this file). */
export type Breakdown = Pick<Totals, 'products' | 'groups'>;

/** A day's totals as its item keeps them: no breakdown, except on days stored before it moved out (then complete). */
export type DayTotals = Omit<Totals, keyof Breakdown> & Partial<Breakdown>;

/** The totals a day's item keeps: all but the breakdown. */
export function dayTotals(totals: Totals): DayTotals {
  const kept: DayTotals & Partial<Breakdown> = { ...totals };
  delete kept.products;
  delete kept.groups;
  return kept;
}

/** Totals stored before a figure was kept (or without the breakdown) have none of it: it counts as zero. */
const complete = (totals: DayTotals): Totals => ({ ...emptyTotals(), ...totals });

function combine(stored: DayTotals, change: DayTotals, sign: Sign): Totals {
  const a = complete(stored);
  const b = complete(change);
  return {
    sold: combineFigures(a.sold, b.sold, sign),
    refunds: combineFigures(a.refunds, b.refunds, sign),
    cancelled: combineFigures(a.cancelled, b.cancelled, sign),
    open: combineFigures(a.open, b.open, sign),
    unprinted: move(a.unprinted, b.unprinted, sign),
    receipts: move(a.receipts, b.receipts, sign),
    copies: combineFigures(a.copies, b.copies, sign),
    proforma: combineFigures(a.proforma, b.proforma, sign),
    discounts: move(a.discounts, b.discounts, sign),
    goods: combineFigures(a.goods, b.goods, sign),
    services: combineFigures(a.services, b.services, sign),
    training: combineFigures(a.training, b.training, sign),
    cash: combineFigures(a.cash, b.cash, sign),
    vatRates: combineMap(a.vatRates, b.vatRates, sign),
    payments: combineMap(a.payments, b.payments, sign),
    products: combineMap(a.products, b.products, sign),
    groups: combineMap(a.groups, b.groups, sign),
    hours: combineMap(a.hours, b.hours, sign),
  };
}

/** The totals of a day without sales or balance changes. */
export function emptyTotals(): Totals {
  const counted = (): Counted => ({ count: 0, brutto: 0 });
  const saleSums = (): SaleSums => ({ count: 0, brutto: 0, vat: 0, netto: 0 });
  return {
    sold: saleSums(),
    refunds: saleSums(),
    cancelled: counted(),
    open: counted(),
    unprinted: 0,
    receipts: 0,
    copies: counted(),
    proforma: counted(),
    discounts: 0,
    goods: { pieces: 0, other: 0 },
    services: { pieces: 0, other: 0 },
    training: counted(),
    cash: { sales: 0, salesCount: 0, deposits: 0, depositCount: 0, withdrawals: 0, withdrawalCount: 0 },
    vatRates: {},
    payments: {},
    products: {},
    groups: {},
    hours: {},
  };
}

/** `a + b`: e.g. a day's totals plus a new sale's contribution. */
export const addTotals = (a: DayTotals, b: DayTotals): Totals => combine(a, b, 1);

/** `a - b`: e.g. a day's totals less the contribution of the sale's version being replaced. */
export const subtractTotals = (a: DayTotals, b: DayTotals): Totals => combine(a, b, -1);

/**
 * The breakdown of a day's sales (each counted as stored): what `saleContribution` gives each, summed in place, so
 * a day of many distinct products costs one pass over its lines.
 */
export async function breakdownOf(sales: AsyncIterable<Sale> | Iterable<Sale>): Promise<Breakdown> {
  const sums = { products: new Map<string, Figures>(), groups: new Map<string, Figures>() };
  for await (const sale of sales) {
    const contribution = saleContribution(sale);
    for (const field of ['products', 'groups'] as const) {
      for (const [key, figures] of Object.entries(contribution[field])) {
        sums[field].set(key, combineFigures(sums[field].get(key), figures, 1));
      }
    }
  }
  const kept = <T extends Figures>(map: Map<string, Figures>) =>
    Object.fromEntries([...map].filter(([, figures]) => !isZero(figures))) as Record<string, T>;
  return { products: kept<ProductSums>(sums.products), groups: kept<GroupSums>(sums.groups) };
}

const PRODUCT_KEY_PREFIX = 'P#';

/** The day's figures per product, keyed by productIdentifier in the products map as `P#<productIdentifier>`. */
export const productTotals = (totals: Totals): ({ productIdentifier: string } & ProductSums)[] =>
  Object.entries(totals.products).map(([key, sums]) => ({ productIdentifier: key.slice(PRODUCT_KEY_PREFIX.length), ...sums }));

const GROUP_KEY_PREFIX = 'G#';

/** The day's figures per frozen group (null: lines without one), keyed in the groups map as `G#<group>`. */
export const groupTotals = (totals: DayTotals): ({ group: string | null } & GroupSums)[] =>
  Object.entries(complete(totals).groups).map(([key, sums]) => ({ group: key.slice(GROUP_KEY_PREFIX.length) || null, ...sums }));

const HOUR = 3_600_000;

/** The day's sold brutto per hour, keyed in the hours map by the hour's start (ms since the epoch) as text. */
export const hourTotals = (totals: Totals): ({ hour: number } & HourSums)[] =>
  Object.entries(totals.hours).map(([key, sums]) => ({ hour: Number(key), ...sums }));

/**
 * Each counting payment's share of the sale's VAT, in proportion to its amount; the rounding is left to the
 * last payment, so the shares add up to the sale's VAT exactly (the payments add up to its brutto).
 */
function vatShares(vat: number, brutto: number, amounts: readonly number[]): number[] {
  let left = vat;
  return amounts.map((amount, index) => {
    const share = index === amounts.length - 1 || brutto === 0 ? left : Math.round((vat * amount) / brutto);
    left -= share;
    return share;
  });
}

/** Sums the entries of one sale into a map, the way `combineMap` keeps it (no all-zero entries), in one pass. */
function tally<T extends Figures>(entries: readonly (readonly [string, T])[]): Record<string, T> {
  const sums = new Map<string, T>();
  for (const [key, figures] of entries) sums.set(key, combineFigures(sums.get(key), figures, 1));
  return Object.fromEntries([...sums].filter(([, figures]) => !isZero(figures)));
}

/** What one sale adds to its day's totals (see the table at the top of this file). */
export function saleContribution(sale: Sale): Totals {
  const totals = emptyTotals();
  // A training receipt is no sale (SKVFS 2014:9 2 kap. 26 §): it counts in its own item only.
  if (sale.training) {
    if (countsAsSold(sale)) totals.training = { count: 1, brutto: sale.brutto };
    return totals;
  }
  const count = (printType: PrintType) => sale.prints.filter((print) => print.printType === printType).length;
  const normal = count('Normal');
  const copies = count('Copy');
  const proforma = count('Proforma');
  totals.receipts = normal;
  totals.copies = { count: copies, brutto: copies * sale.brutto };
  totals.proforma = { count: proforma, brutto: proforma * sale.brutto };
  if (sale.saleState === 'Open') totals.open = { count: 1, brutto: sale.brutto };
  if (sale.saleState === 'Cancelled') totals.cancelled = { count: 1, brutto: sale.brutto };
  if (!countsAsSold(sale)) return totals;

  const sign: Sign = sale.refund ? -1 : 1;
  const signed = (value: number) => move(0, value, sign);
  const sums: SaleSums = { count: 1, brutto: sale.brutto, vat: sale.vat, netto: sale.brutto - sale.vat };
  if (sale.refund) totals.refunds = sums;
  else totals.sold = sums;
  totals.unprinted = normal === 0 ? 1 : 0;
  totals.discounts = signed(sale.discount);
  const units = (line: Sale['saleProducts'][number]) => (line.deltaUnit ? line.delta : 1);
  const counted = (lines: Sale['saleProducts']): Goods => ({
    pieces: signed(lines.filter((line) => line.deltaUnit).reduce((total, line) => total + line.delta, 0)),
    other: signed(lines.filter((line) => !line.deltaUnit).length),
  });
  const isService = (line: Sale['saleProducts'][number]) => line.articleType === 'SERVICE';
  totals.goods = counted(sale.saleProducts.filter((line) => !isService(line)));
  totals.services = counted(sale.saleProducts.filter(isService));

  const paid = sale.payments.filter(countsAsPaid);
  const cash = paid.filter((payment) => payment.paymentType === 'Cash');
  totals.cash.sales = signed(cash.reduce((total, payment) => total + payment.amount, 0));
  totals.cash.salesCount = cash.length > 0 ? 1 : 0;

  totals.vatRates = tally(
    sale.vatRateSums.map((rate) => [
      String(rate.vatRate),
      { count: 1, netto: signed(rate.netto), vat: signed(rate.vat), brutto: signed(rate.brutto) },
    ]),
  );
  const shares = vatShares(
    sale.vat,
    sale.brutto,
    paid.map((payment) => payment.amount),
  );
  totals.payments = tally(
    paid.map((payment, index) => [
      payment.paymentType,
      { count: 1, amount: signed(payment.amount), vat: signed(shares[index] ?? 0) },
    ]),
  );
  totals.products = tally(
    sale.saleProducts.map((line) => [
      PRODUCT_KEY_PREFIX + line.productIdentifier,
      { count: signed(units(line)), brutto: signed(line.brutto), vat: signed(line.vat) },
    ]),
  );
  const linesBrutto = sale.saleProducts.reduce((total, line) => total + line.brutto, 0);
  const linesVat = sale.saleProducts.reduce((total, line) => total + line.vat, 0);
  const lastLine = sale.saleProducts.length - 1;
  totals.groups = tally(
    sale.saleProducts.map((line, index) => [
      GROUP_KEY_PREFIX + (line.group ?? ''),
      {
        count: signed(units(line)),
        brutto: signed(line.brutto + (index === lastLine ? sale.brutto - linesBrutto : 0)),
        vat: signed(line.vat + (index === lastLine ? sale.vat - linesVat : 0)),
      },
    ]),
  );
  if (lastLine < 0 && sale.brutto !== 0) {
    totals.groups = { [GROUP_KEY_PREFIX]: { count: 0, brutto: signed(sale.brutto), vat: signed(sale.vat) } };
  }
  const time = sale.close ?? sale.recorded;
  if (time != null) totals.hours = { [String(Math.floor(time / HOUR) * HOUR)]: { count: 1, brutto: signed(sale.brutto) } };
  return totals;
}

/** What a `POST .../balance` adds to its day's totals (a deposit or a withdrawal). */
export function balanceContribution(action: BalanceAction, amount: number): Totals {
  const totals = emptyTotals();
  if (action === 'DEPOSIT') totals.cash = { ...totals.cash, deposits: amount, depositCount: 1 };
  else totals.cash = { ...totals.cash, withdrawals: amount, withdrawalCount: 1 };
  return totals;
}

/** A drawer opened without a sale, as the register journals it (docs/conventions.md §19). */
export function drawerOpenedContribution(): Totals {
  const totals = emptyTotals();
  totals.cash = { ...totals.cash, drawerOpened: 1 };
  return totals;
}

/** The cash that should be in the drawer: deposits + signed cash payments of sales - withdrawals. */
export const cashBalance = (totals: DayTotals): number => totals.cash.deposits + totals.cash.sales - totals.cash.withdrawals;

/** Sold sales without a Normal receipt; a day closes only when this is 0. */
export const unprintedSales = (totals: DayTotals): number => totals.unprinted;

/** Drawer openings (a report figure): sold sales with a cash payment, deposits and withdrawals. */
export const drawerOpenings = (totals: DayTotals): number => totals.cash.salesCount + drawerOpeningsWithoutSale(totals);

/** The openings that registered no sale (2 kap. 14 §): deposits, withdrawals, and the openings the register journaled. */
export const drawerOpeningsWithoutSale = (totals: DayTotals): number =>
  totals.cash.depositCount + totals.cash.withdrawalCount + (totals.cash.drawerOpened ?? 0);
