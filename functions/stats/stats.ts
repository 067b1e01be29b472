/**
 * The statistics reads (spec 4.5, 4.7; docs/conventions.md §20). Each reads the registers' days of the period
 * (`period.ts`) and folds their running totals: it costs the days and registers of the period, never its sales.
 * The catalog is read only for names: the sold products (one BatchGet), the taxes, the categories.
 */
import type { ProductBody, TaxBody } from '#schemas/types.ts';
import { entityPrefix } from '#shared/db/keys.ts';
import { taxes as taxEntity } from '#shared/domain/taxes.ts';
import { readItems } from '#shared/db/reads.ts';
import { readLive } from '#shared/db/streams.ts';
import { productCategories } from '#shared/domain/categories.ts';
import { sellerStream, sellerKeys } from '#shared/domain/seller.ts';
import { readDayBreakdown } from '#shared/fiscal/ledger.ts';
import { productTotals } from '#shared/fiscal/totals.ts';
import { enumParam } from '#shared/http/query.ts';
import { ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import type { Coverage } from '#shared/stats/coverage.ts';
import { DATE_GROUPING_UNITS } from '#shared/stats/times.ts';
import { coverage } from './period.ts';
import {
  categoryStats,
  type DayOfRegister,
  dayStats,
  fold,
  paymentTypeStats,
  productStats,
  registerStats,
  salesStats,
  taxStats,
} from './records.ts';

type StatsRequest = ApiRequest<unknown, 'sellerId'>;

/** Every day covered, with its register's name. */
const daysOf = (covered: Coverage): DayOfRegister[] =>
  covered.registers.flatMap(({ register, days }) => days.map((day) => ({ ...day, cashRegisterName: register.cash })));

/** The totals of every day covered, summed. */
const totalsOf = (covered: Coverage) => fold(daysOf(covered).map((day) => day.totals));

/**
 * The same with the days' breakdown (per product and group), which the days' items do not keep: each day's comes
 * from its sales (`readDayBreakdown`), a day after the other, so these reads cost the period's sale lines.
 */
async function totalsWithBreakdown(covered: Coverage) {
  const days = [];
  for (const { register, days: ofRegister } of covered.registers) {
    for (const day of ofRegister) days.push({ ...day.totals, ...(await readDayBreakdown(register, day)) });
  }
  return fold(days);
}

/** `GET /{sellerId}/taxes/stats` (v26, v33). */
export async function getTaxStats(request: StatsRequest): Promise<Reply> {
  const [covered, taxes] = await Promise.all([
    coverage(request),
    readLive<TaxBody>(sellerStream(request.params.sellerId), entityPrefix(taxEntity.kind)),
  ]);
  return ok(taxStats(totalsOf(covered), taxes, request.version));
}

/** `GET /{sellerId}/categories/stats` (v26, v33). */
export async function getCategoryStats(request: StatsRequest): Promise<Reply> {
  const [covered, categories] = await Promise.all([coverage(request), productCategories(request.params.sellerId)]);
  return ok(categoryStats(await totalsWithBreakdown(covered), categories));
}

/** `GET /{sellerId}/products/stats` (all versions): names from the catalog's products sold (a tombstone has none). */
export async function getProductStats(request: StatsRequest): Promise<Reply> {
  const totals = await totalsWithBreakdown(await coverage(request));
  const sold = productTotals(totals).map((sums) => sums.productIdentifier);
  const products = await readItems(sold.map((id) => sellerKeys.catalog<ProductBody>(request.params.sellerId, 'PRODUCT', id)));
  const names = new Map(products.map((product) => [product.identifier ?? '', product]));
  return ok(productStats(totals, names, request.version));
}

/** `GET /{sellerId}/registrations/stats` (all versions). */
export async function getRegisterStats(request: StatsRequest): Promise<Reply> {
  const covered = await coverage(request);
  return ok(
    registerStats(
      covered.registers.map(({ register, days }) => ({
        cashRegisterName: register.cash,
        totals: fold(days.map((day) => day.totals)),
      })),
    ),
  );
}

/** `GET /{sellerId}/sales/stats` (all versions): `dateGroupingUnit` (v26, v33; default HOUR) groups `bruttoStats`. */
export async function getSalesStats(request: StatsRequest): Promise<Reply> {
  const unit =
    request.version === 15
      ? 'HOUR'
      : (enumParam('dateGroupingUnit', request.query.get('dateGroupingUnit'), DATE_GROUPING_UNITS) ?? 'HOUR');
  const covered = await coverage(request);
  return ok(salesStats(daysOf(covered), unit, covered.timeZone, request.version));
}

/** `GET /{sellerId}/sales/stats/payment-type` (v26, v33). */
export async function getPaymentTypeStats(request: StatsRequest): Promise<Reply> {
  return ok(paymentTypeStats(totalsOf(await coverage(request)), request.version));
}

/** `GET /{sellerId}/days/stats` (v26, v33). */
export async function getDayStats(request: StatsRequest): Promise<Reply> {
  return ok(dayStats(daysOf(await coverage(request)), request.version));
}
