/**
 * Sales and days as each API version writes and shows them (spec 2.3 Sale, Day, sales-minified): the
 * canonical records of `shared/fiscal/model.ts` in, the version's fields out. Pure: no storage.
 */
import * as fields from '#schemas/generated/fields.js';
import type { DayBody, SaleBody, SaleV26Body } from '#schemas/types.ts';
import type { Day, Sale, SaleProduct } from '#shared/fiscal/model.ts';
import { paymentTypeFrom, paymentTypeIn } from '#shared/fiscal/payment-types.ts';
import { type ApiVersion, present } from '#shared/versions.ts';

const SALE_FIELDS = { 15: fields.saleV15, 26: fields.saleV26, 33: fields.saleV33 } as const;
const LINE_FIELDS = {
  15: fields.saleV15_saleProducts,
  26: fields.saleV26_saleProducts,
  33: fields.saleV33_saleProducts,
} as const;
const PRINT_FIELDS = fields.saleV33_prints;
const PAYMENT_FIELDS = fields.saleV33_payments;
const VAT_RATE_SUM_FIELDS = fields.saleV33_vatRateSums;

/** A sale written by any version, seen through the widest one: v15's lines lack only optional fields. */
type Written = Omit<SaleBody, 'saleProducts'> & { saleProducts: SaleV26Body['saleProducts'] };

/**
 * The figures before discounts as a register that does not discount may leave them out: no discount is
 * 0, and the undiscounted figure is the figure plus its discount (docs/decisions.md, Fiscal limits).
 */
function discounts(record: {
  brutto: number;
  absoluteDiscount?: number | null;
  relativeDiscount?: number | null;
  vanillaBrutto?: number | null;
  discount?: number | null;
}) {
  const discount = record.discount ?? 0;
  return {
    absoluteDiscount: record.absoluteDiscount ?? 0,
    relativeDiscount: record.relativeDiscount ?? 0,
    vanillaBrutto: record.vanillaBrutto ?? record.brutto + discount,
    discount,
  };
}

/**
 * The canonical sale of a body written through `version`. A register writes its sales whole, so
 * nothing is merged with a stored sale: a v15 write has no v26 line fields, and they are null. The
 * body's `day` is the server's and is ignored; the identifier is decided by the caller (null: the server's).
 */
export function saleFromBody(body: SaleBody, version: ApiVersion): Omit<Sale, 'day' | 'postDigest' | 'identifier'> {
  const sale: Written = body;
  return {
    sellerIdentifier: sale.sellerIdentifier ?? null,
    saleState: sale.saleState,
    refund: sale.refund,
    refundFor: sale.refundFor ?? null,
    ...discounts(sale),
    brutto: sale.brutto,
    vat: sale.vat,
    controlUnitId: sale.controlUnitId ?? null,
    treasurer: sale.treasurer ?? null,
    close: sale.close ?? null,
    // Stored only when true, so a sale recorded before training receipts existed reads as what it is.
    ...(sale.training === true ? { training: true } : {}),
    saleProducts: sale.saleProducts.map((line): SaleProduct => ({
      productIdentifier: line.productIdentifier,
      deltaUnit: line.deltaUnit,
      delta: line.delta,
      ...discounts(line),
      vat: line.vat,
      netto: line.netto,
      brutto: line.brutto,
      created: line.created ?? null,
      productBrutto: line.productBrutto ?? null,
      vatRate: line.vatRate ?? null,
      effectiveBrutto: line.effectiveBrutto ?? null,
      name: line.name ?? null,
      group: line.group ?? null,
      articleType: line.articleType ?? null,
      quantity: line.quantity ?? null,
      salesUnit: line.salesUnit ?? null,
      unitPrice: line.unitPrice ?? null,
    })),
    prints: sale.prints.map((print) => ({
      receiptNumber: print.receiptNumber ?? null,
      printType: print.printType,
      deliveryType: print.deliveryType ?? null,
      controlNumber: print.controlNumber ?? null,
      created: print.created ?? null,
      printed: print.printed ?? null,
    })),
    payments: sale.payments.map((payment) => ({
      paymentType: paymentTypeFrom(payment.paymentType, version),
      amount: payment.amount,
      paymentState: payment.paymentState ?? null,
    })),
    vatRateSums: sale.vatRateSums.map((sum) => ({
      vatRate: sum.vatRate,
      vanillaVat: sum.vanillaVat ?? sum.vat,
      vanillaNetto: sum.vanillaNetto ?? sum.netto,
      vanillaBrutto: sum.vanillaBrutto ?? sum.brutto,
      vat: sum.vat,
      netto: sum.netto,
      brutto: sum.brutto,
    })),
  };
}

/** A sale as `version` shows it (spec 2.3): its fields only, `day` from v26, absent values as null. */
export function saleView(sale: Sale, version: ApiVersion) {
  return {
    ...present(sale, SALE_FIELDS[version]),
    training: sale.training === true,
    saleProducts: sale.saleProducts.map((line) => present(line, LINE_FIELDS[version])),
    prints: sale.prints.map((print) => present(print, PRINT_FIELDS)),
    payments: sale.payments.map((payment) => ({
      ...present(payment, PAYMENT_FIELDS),
      paymentType: paymentTypeIn(payment.paymentType, version),
    })),
    vatRateSums: sale.vatRateSums.map((sum) => present(sum, VAT_RATE_SUM_FIELDS)),
  };
}

/** The number of the sale's Normal receipt, or null before it is printed. */
const receiptNumberOf = (sale: Sale) => sale.prints.find((print) => print.printType === 'Normal')?.receiptNumber ?? null;

/** A sale overview of `sales-minified` (v26, v33): v33 adds `trip`, which no sale of ours belongs to. */
export function saleOverview(sale: Sale, cashRegisterName: string, version: ApiVersion) {
  return {
    id: sale.identifier,
    close: sale.close ?? null,
    brutto: sale.brutto,
    receiptNumber: receiptNumberOf(sale),
    cashRegisterName,
    vatSum: sale.vat,
    treasurer: sale.treasurer ? [{ identifier: sale.treasurer }] : [],
    ...(version === 33 ? { trip: null } : {}),
  };
}

/** A day as lists name it (spec 2.3 Day): its number is its id. */
export const dayMinified = (day: Day) => ({ id: day.dayNumber, date: day.date });

/**
 * A day as `version` lists it: v15's list is the minified form; v26/v33 show the Day with the `id`
 * and `date` of list reads, and the stream's `version` and `modified`.
 */
export function dayView(day: Day & { version: number; modified: number }, version: ApiVersion) {
  if (version === 15) return dayMinified(day);
  return {
    ...dayMinified(day),
    dayNumber: day.dayNumber,
    opened: day.opened,
    reportPrinted: day.reportPrinted,
    open: day.open,
    close: day.close ?? null,
    cash: day.cash,
    cashAtClose: day.cashAtClose ?? null,
    grandTotal: day.grandTotal ?? null,
    grandTotalRefund: day.grandTotalRefund ?? null,
    closedDayTreasurer: day.closedDayTreasurer ?? null,
    version: day.version,
    modified: day.modified,
  };
}

/**
 * What a POST or PUT of a Day may change: `opened: false` asks to close the day (absent or true keeps
 * it open), and `closedDayTreasurer` names who closes it. Every other field of the body is the server's.
 */
export function dayFromBody(body: DayBody): Pick<Day, 'opened' | 'closedDayTreasurer'> {
  return { opened: body.opened !== false, closedDayTreasurer: body.closedDayTreasurer ?? null };
}
