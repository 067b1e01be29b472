/**
 * The X and Z report of a trading day (what SKVFS 2014:9, 7 kap. 3 § asks of a daily report), built from the day's running totals
 * (`totals.ts`) without reading its sales. Money is integer hundredths, times are milliseconds since the epoch.
 * Net figures carry refunds with a minus sign; counts never do.
 *
 * | Field | Meaning |
 * |---|---|
 * | type | `X` while the day is open, `Z` once it is closed |
 * | reportNumber | the Z report's number = `dayNumber` (an unbroken series); null on an X report |
 * | produced | when the report was produced |
 * | seller | `name`, `corporateId`, `address`, `country` |
 * | register | `cashRegisterName`, `productionNumber`, `controlUnitSerial` |
 * | dayNumber, date | the day and its business date (`yyyymmdd`, the seller's time zone) |
 * | open, close | when the day opened and closed (null while open) |
 * | sales | sold sales that are not refunds (Paid or Complete): `count`, `brutto`, `vat`, `netto` |
 * | refunds | sold refunds: `count`, `brutto`, `vat`, `netto` (positive) |
 * | netSales | `sales - refunds`: `brutto`, `vat`, `netto` |
 * | salesPerCategory | per category (`category`, the lines' frozen `group`; null: lines without one): `count` (units), `brutto`, `vat` of the sold lines, signed; they add up to `netSales`; empty when no line has a group |
 * | vatPerRate | per `vatRate` (hundredths of a percent, ascending): `count` of sold sales, `netto`, `vat`, `brutto` (signed) |
 * | paymentTypes | per `paymentType` (spec order): `count` of counting payments, `amount` and `vat` (the payments' share of their sales' VAT; signed) |
 * | goods, services | lines of GOODS / SERVICE articles: `pieces` (sum of `delta` of unit lines) and `otherUnits` (other lines, 1 each), signed |
 * | training | training receipts (sold training sales): `count`, `brutto`; in no other figure |
 * | receipts | Normal receipts printed |
 * | unprinted | sold sales without a Normal receipt (0 on every Z report) |
 * | drawerOpenings | sold sales paid (partly) in cash + `drawerOpeningsWithoutSale` |
 * | drawerOpeningsWithoutSale | the openings that registered no sale: deposits + withdrawals + the day's `DRAWER_OPENED` events of the register's journal |
 * | copies, proforma | Copy / Proforma prints: `count`, `brutto` |
 * | discounts | discounts given on sold sales (signed) |
 * | cancelled | Cancelled sales: `count`, `brutto` |
 * | otherReductions | registrations other than refunds and discounts that reduced the day's sales: the Cancelled sales, `count`, `brutto` |
 * | unfinished | sales still Open: `count`, `brutto` |
 * | cash | `deposits` (the float) and `depositCount`, `withdrawals` and `withdrawalCount`, `cashPayments` (signed cash payments of sold sales), `expected` = deposits + cashPayments - withdrawals |
 * | grandTotals | the register's cumulative `sales` and `refunds` since its first day, and `net` = sales - refunds |
 */
import { PAYMENT_TYPES } from './model.ts';
import type { Day, PaymentType } from './model.ts';
import { cashBalance, drawerOpenings, drawerOpeningsWithoutSale, groupTotals } from './totals.ts';
import type { Counted, DayTotals, PaymentSums, RateSums, SaleSums } from './totals.ts';

export interface ReportSeller {
  name: string | null;
  corporateId: string;
  address: string | null;
  country: string;
}

export interface ReportRegister {
  cashRegisterName: string;
  productionNumber: string | null;
  controlUnitSerial: string | null;
}

export interface ReportInput {
  seller: ReportSeller;
  register: ReportRegister;
  day: Day;
  /** The day's totals with its sales per category (`groups`); per-product figures are not reported. */
  totals: DayTotals & Pick<Required<DayTotals>, 'groups'>;
  /** The register's cumulative totals since its first day (for a Z report, the day's frozen `grandTotal*`). */
  grandTotals: { sales: number; refunds: number };
  produced: number;
}

export interface CategorySums {
  category: string | null;
  count: number;
  brutto: number;
  vat: number;
}

/** The report's JSON; see the table at the top of this file. */
export interface Report {
  type: 'X' | 'Z';
  reportNumber: number | null;
  produced: number;
  seller: ReportSeller;
  register: ReportRegister;
  dayNumber: number;
  date: number;
  open: number;
  close: number | null;
  sales: SaleSums;
  refunds: SaleSums;
  netSales: { brutto: number; vat: number; netto: number };
  salesPerCategory: CategorySums[];
  vatPerRate: ({ vatRate: number } & RateSums)[];
  paymentTypes: ({ paymentType: PaymentType } & PaymentSums)[];
  goods: { pieces: number; otherUnits: number };
  services: { pieces: number; otherUnits: number };
  training: Counted;
  receipts: number;
  unprinted: number;
  drawerOpenings: number;
  drawerOpeningsWithoutSale: number;
  copies: Counted;
  proforma: Counted;
  discounts: number;
  cancelled: Counted;
  otherReductions: Counted;
  unfinished: Counted;
  cash: {
    deposits: number;
    depositCount: number;
    withdrawals: number;
    withdrawalCount: number;
    cashPayments: number;
    expected: number;
  };
  grandTotals: { sales: number; refunds: number; net: number };
}

/** The sales per frozen group, in name order, lines without one last; none when no line has a group. */
export function salesPerCategory(totals: DayTotals): CategorySums[] {
  const groups = groupTotals(totals);
  if (groups.every(({ group }) => group === null)) return [];
  const order = (name: string | null) => name ?? '\uffff';
  return groups
    .map(({ group, count, brutto, vat }) => ({ category: group, count, brutto, vat }))
    .sort((a, b) => (order(a.category) < order(b.category) ? -1 : order(a.category) > order(b.category) ? 1 : 0));
}

/** The day's X report while it is open, its Z report once closed. */
export function buildReport(input: ReportInput): Report {
  const { day, totals } = input;
  const closed = !day.opened;
  const { sold, refunds } = totals;
  return {
    type: closed ? 'Z' : 'X',
    reportNumber: closed ? day.dayNumber : null,
    produced: input.produced,
    seller: { ...input.seller },
    register: { ...input.register },
    dayNumber: day.dayNumber,
    date: day.date,
    open: day.open,
    close: day.close ?? null,
    sales: { ...sold },
    refunds: { ...refunds },
    netSales: { brutto: sold.brutto - refunds.brutto, vat: sold.vat - refunds.vat, netto: sold.netto - refunds.netto },
    salesPerCategory: salesPerCategory(totals),
    vatPerRate: Object.entries(totals.vatRates)
      .map(([vatRate, sums]) => ({ vatRate: Number(vatRate), ...sums }))
      .sort((a, b) => a.vatRate - b.vatRate),
    paymentTypes: PAYMENT_TYPES.flatMap((paymentType) => {
      const sums = totals.payments[paymentType];
      return sums ? [{ paymentType, ...sums }] : [];
    }),
    goods: { pieces: totals.goods.pieces, otherUnits: totals.goods.other },
    services: { pieces: totals.services?.pieces ?? 0, otherUnits: totals.services?.other ?? 0 },
    training: { ...(totals.training ?? { count: 0, brutto: 0 }) },
    receipts: totals.receipts,
    unprinted: totals.unprinted,
    drawerOpenings: drawerOpenings(totals),
    drawerOpeningsWithoutSale: drawerOpeningsWithoutSale(totals),
    copies: { ...totals.copies },
    proforma: { ...totals.proforma },
    discounts: totals.discounts,
    cancelled: { ...totals.cancelled },
    otherReductions: { ...totals.cancelled },
    unfinished: { ...totals.open },
    cash: {
      deposits: totals.cash.deposits,
      depositCount: totals.cash.depositCount,
      withdrawals: totals.cash.withdrawals,
      withdrawalCount: totals.cash.withdrawalCount,
      cashPayments: totals.cash.sales,
      expected: cashBalance(totals),
    },
    grandTotals: { ...input.grandTotals, net: input.grandTotals.sales - input.grandTotals.refunds },
  };
}
