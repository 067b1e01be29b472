/**
 * The statistics records (spec 2.3; docs/conventions.md §20), each version's fields, built from the running
 * totals of the days a read covers (`shared/fiscal/totals.ts`): the same figures as the days' Z reports.
 * Money is integer hundredths; refunds count with a minus sign. Pure: no storage.
 */
import { PAYMENT_TYPES } from '#shared/fiscal/model.ts';
import { paymentTypeIn } from '#shared/fiscal/payment-types.ts';
import { addTotals, type DayTotals, emptyTotals, hourTotals, productTotals, type Totals } from '#shared/fiscal/totals.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { bucketDate, type DateGroupingUnit, formatInstant, startOfDate } from '#shared/stats/times.ts';

/** The sum of several days' totals. */
export const fold = (totals: readonly DayTotals[]): Totals =>
  totals.reduce<Totals>((sum, day) => addTotals(sum, day), emptyTotals());

/** Sold brutto less refunded brutto. */
const netBrutto = (totals: DayTotals) => totals.sold.brutto - totals.refunds.brutto;
const netVat = (totals: DayTotals) => totals.sold.vat - totals.refunds.vat;
/** Units sold (a `deltaUnit` line's `delta`, 1 for any other line), refunds taken off. */
const unitsSold = (totals: Totals) => totals.goods.pieces + totals.goods.other;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A tax of the seller's catalog: a rate in whole percent and its name. */
export interface TaxName {
  vat: number;
  name: string;
}

/** `taxes/stats`: per VAT rate (hundredths of a percent, ascending); v33 names it after the seller's tax of that rate. */
export function taxStats(totals: Totals, taxes: readonly TaxName[], version: ApiVersion) {
  const names = new Map<number, string>();
  for (const tax of [...taxes].sort((a, b) => byText(a.name, b.name))) {
    if (!names.has(tax.vat * 100)) names.set(tax.vat * 100, tax.name);
  }
  return {
    taxStats: Object.entries(totals.vatRates)
      .map(([rate, sums]) => ({
        vatRate: Number(rate),
        count: sums.count,
        netto: sums.netto,
        brutto: sums.brutto,
        vatSum: sums.vat,
        ...(version === 33 ? { vatName: names.get(Number(rate)) ?? null } : {}),
      }))
      .sort((a, b) => a.vatRate - b.vatRate),
  };
}

/** A product of the seller's catalog, as product stats name it. */
export interface ProductName {
  name: string;
  salesUnit: string;
}

/** `products/stats`: per product sold, the best-selling (by brutto) first; names from the catalog (null when gone). */
export function productStats(totals: Totals, products: ReadonlyMap<string, ProductName>, version: ApiVersion) {
  const items = productTotals(totals)
    .map((sums) => ({
      identifier: sums.productIdentifier,
      name: products.get(sums.productIdentifier)?.name ?? null,
      brutto: sums.brutto,
      count: sums.count,
      salesUnit: products.get(sums.productIdentifier)?.salesUnit ?? null,
      ...(version === 15 ? {} : { vatSum: sums.vat }),
    }))
    .sort((a, b) => b.brutto - a.brutto || byText(a.identifier, b.identifier));
  return { totalBrutto: netBrutto(totals), totalProductsSold: unitsSold(totals), productStats: items };
}

/**
 * `categories/stats`: per category (name order), its products' sold lines; a product in two categories counts in
 * both, so `totalProductsSold` (every unit once, categorised or not) need not be the sum of the counts.
 */
export function categoryStats(totals: Totals, categories: ReadonlyMap<string, readonly string[]>) {
  const sums = new Map<string, { name: string; brutto: number; count: number; vatSum: number }>();
  for (const figures of productTotals(totals)) {
    for (const name of new Set(categories.get(figures.productIdentifier))) {
      const before = sums.get(name) ?? { name, brutto: 0, count: 0, vatSum: 0 };
      sums.set(name, {
        name,
        brutto: before.brutto + figures.brutto,
        count: before.count + figures.count,
        vatSum: before.vatSum + figures.vat,
      });
    }
  }
  return { totalProductsSold: unitsSold(totals), categoryStats: [...sums.values()].sort((a, b) => byText(a.name, b.name)) };
}

/** `registrations/stats`: each register's net brutto of the period (0 when it sold nothing), in name order. */
export const registerStats = (registers: readonly { cashRegisterName: string; totals: Totals }[]) =>
  registers.map(({ cashRegisterName, totals }) => ({ cashRegisterName, total: netBrutto(totals) }));

/** `sales/stats/payment-type`: per payment type (spec order, the version's names), its counting payments. */
export function paymentTypeStats(totals: Totals, version: ApiVersion) {
  return {
    paymentTypeStats: PAYMENT_TYPES.flatMap((type) => {
      const sums = totals.payments[type];
      return sums
        ? [{ paymentType: paymentTypeIn(type, version), count: sums.count, brutto: sums.amount, vatSum: sums.vat }]
        : [];
    }),
  };
}

/** A day of a register as day stats show it. */
export interface DayOfRegister {
  cashRegisterName: string;
  dayNumber: number;
  date: number;
  open: number;
  close?: number | null;
  totals: DayTotals;
}

/** `days/stats`: every day of the period, of every register covered, in the order they opened. */
export const dayStats = (days: readonly DayOfRegister[], version: ApiVersion) => ({
  dayStats: [...days]
    .sort((a, b) => a.open - b.open || byText(a.cashRegisterName, b.cashRegisterName))
    .map((day) => ({
      cashRegisterName: day.cashRegisterName,
      dayNumber: day.dayNumber,
      open: day.open,
      ...(version === 33 ? { close: day.close ?? null } : {}),
      brutto: netBrutto(day.totals),
      vatSum: netVat(day.totals),
    })),
});

/**
 * `bruttoStats`: net brutto per bucket, keyed by the bucket's start in the seller's time zone, in time order;
 * a bucket appears when a sale or refund counts in it. Hours come from the sales' own times (`hourTotals`),
 * days, weeks and months from the business dates of the days the sales were recorded in.
 */
function bruttoStats(days: readonly DayOfRegister[], unit: DateGroupingUnit, timeZone: string): Record<string, number> {
  const buckets = new Map<number, number>();
  const add = (start: number, brutto: number) => buckets.set(start, (buckets.get(start) ?? 0) + brutto);
  if (unit === 'HOUR') {
    for (const { hour, brutto } of hourTotals(fold(days.map((day) => day.totals)))) add(hour, brutto);
  } else {
    for (const day of days) {
      const counted = day.totals.sold.count + day.totals.refunds.count;
      if (counted > 0) add(startOfDate(bucketDate(day.date, unit), timeZone), netBrutto(day.totals));
    }
  }
  return Object.fromEntries(
    [...buckets].sort(([a], [b]) => a - b).map(([start, brutto]) => [formatInstant(start, timeZone), brutto]),
  );
}

/** `sales/stats`: the period's net brutto, its sales and refunds, units sold, and brutto per bucket (`dateGroupingUnit` from v26). */
export function salesStats(days: readonly DayOfRegister[], unit: DateGroupingUnit, timeZone: string, version: ApiVersion) {
  const totals = fold(days.map((day) => day.totals));
  return {
    total: netBrutto(totals),
    amountOfSales: totals.sold.count + totals.refunds.count,
    amountOfProducts: unitsSold(totals),
    ...(version === 15 ? {} : { dateGroupingUnit: unit }),
    bruttoStats: bruttoStats(days, unit, timeZone),
  };
}
