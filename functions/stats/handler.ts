import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import * as validators from '#schemas/generated/validators.js';
import { PAGE_QUERY, queryParam } from '#shared/http/query.ts';
import { onFirstUse, route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { DATE_GROUPING_UNITS } from '#shared/stats/times.ts';

// The figures' code loads on first use, out of the function's Init (docs/decisions.md, Cold start).
const stats = () => import('./stats.ts');
const csv = () => import('./csv.ts');
const csvExports = () => import('./csv-exports.ts');

/** Users with access to the seller, and its registers, read its statistics (docs/conventions.md §20). */
const reader = { access: access.seller, method: 'GET' } as const;

/** The period and registers a statistic covers (functions/stats/period.ts, docs/conventions.md §20). */
const PERIOD_QUERY = [
  queryParam(
    'period',
    { type: 'integer', minimum: 1, maximum: 36600, default: 1 },
    "Days ending today in the seller's time zone.",
  ),
  queryParam('from', { type: 'integer' }, 'A Date: the first day covered (instead of period).'),
  queryParam('to', { type: 'integer' }, 'A Date: the last day covered (instead of period).'),
  queryParam('cashRegisterName', { type: 'string' }, 'Only this register.'),
];
const GROUPING_QUERY = queryParam(
  'dateGroupingUnit',
  { type: 'string', enum: DATE_GROUPING_UNITS, default: 'HOUR' },
  'v26, v33: the buckets of bruttoStats.',
);
const FILE_NAME_QUERY = queryParam('fileName', { type: 'string', default: 'sales' }, 'The name of the file, without .csv.');

/** What every statistic covers, as the API reference says it (docs/conventions.md §20). */
const COVERED_TEXT =
  "It covers the days dated in the period (`period` days ending today in the seller's time zone, or `from` to `to`) " +
  "of every register the seller has had, or only `cashRegisterName`'s, and sums their Z reports' figures: only Paid " +
  'and Complete sales count, a refund with a minus sign.';

/** A seller's statistics and sales export (spec 4.5, 4.7): folded from its registers' day totals. */
export const routes: Route[] = [
  route({
    summary: 'Reads sales per VAT rate',
    description:
      'Answers per VAT rate the number of sales, their `netto`, `brutto` and `vatSum`, and in v33 `vatName`, the name ' +
      "of the seller's tax of that rate. " +
      COVERED_TEXT,
    query: PERIOD_QUERY,
    responses: { 200: 'taxStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/taxes/stats',
    versions: SINCE_26,
    handle: onFirstUse(stats, 'getTaxStats'),
  }),
  route({
    summary: 'Reads sales per category',
    description:
      "Answers per category, in name order, `brutto`, `count` and `vatSum` through the seller's commodities (a product " +
      'in two categories counts in both), and `totalProductsSold`, each unit counted once. ' +
      COVERED_TEXT,
    query: PERIOD_QUERY,
    responses: { 200: 'categoryStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/categories/stats',
    versions: SINCE_26,
    handle: onFirstUse(stats, 'getCategoryStats'),
  }),
  route({
    summary: 'Reads sales per product',
    description:
      'Answers per product `brutto`, `count` (units) and from v26 `vatSum`, the best-selling first, with names and ' +
      "sales units from the seller's products, and the period's `totalBrutto` and `totalProductsSold`. " +
      COVERED_TEXT,
    query: PERIOD_QUERY,
    responses: { 200: 'productStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/products/stats',
    versions: ALL_VERSIONS,
    handle: onFirstUse(stats, 'getProductStats'),
  }),
  route({
    summary: 'Reads takings per register',
    description:
      'Answers `cashRegisterName` and `total` of every register covered, in name order (0 for one that sold nothing). ' +
      COVERED_TEXT,
    query: PERIOD_QUERY,
    responses: { 200: { list: 'registerStats' } },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/registrations/stats',
    versions: ALL_VERSIONS,
    handle: onFirstUse(stats, 'getRegisterStats'),
  }),
  route({
    summary: 'Reads takings over time',
    description:
      'Answers the net `total`, `amountOfSales`, `amountOfProducts` and `bruttoStats`, the net brutto per time bucket ' +
      "keyed by the bucket's start in the seller's time zone; from v26 `dateGroupingUnit` sets the buckets (`HOUR`, " +
      'the default, `DAY`, `WEEK` or `MONTH`). ' +
      COVERED_TEXT,
    query: [...PERIOD_QUERY, GROUPING_QUERY],
    responses: { 200: 'salesStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/sales/stats',
    versions: ALL_VERSIONS,
    handle: onFirstUse(stats, 'getSalesStats'),
  }),
  route({
    summary: 'Reads takings per payment type',
    description:
      'Answers per payment type, named as the version names them, the `count` and `brutto` of the payments that count ' +
      "and their share of their sales' VAT (`vatSum`). " +
      COVERED_TEXT,
    query: PERIOD_QUERY,
    responses: { 200: 'paymentTypeStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/sales/stats/payment-type',
    versions: SINCE_26,
    handle: onFirstUse(stats, 'getPaymentTypeStats'),
  }),
  route({
    summary: 'Exports sales as CSV',
    description:
      "Answers the sales of the period's days, every state, as an RFC 4180 CSV file named by `fileName`: one row per " +
      'sale with its date, time, register, day, receipt number, amounts, VAT per rate and payments per type, register ' +
      'by register. The period and registers are chosen as for the statistics. At most 20,000 rows: a longer period is ' +
      'refused before any sale is read.',
    query: [...PERIOD_QUERY, FILE_NAME_QUERY],
    responses: { 200: { media: ['text/csv'] } },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION', 'SERVER_IS_OVERLOADED']],
    ...reader,
    path: '/{sellerId}/sales/stats/csv',
    versions: [33],
    handle: onFirstUse(csv, 'salesCsvFile'),
  }),
  route({
    summary: 'Starts an export of sales as CSV, of any length',
    description:
      'Starts writing the CSV of `GET .../sales/stats/csv` for the same parameters, without its 20,000 rows, in the ' +
      'background: answers `202` with the export and its `Location`, polled until `DONE` (its `url` downloads the ' +
      'gzipped file) or `FAILED`. `period` and a missing `to` are taken on the day of the request. The same parameters ' +
      'asked again while their export is `PENDING` or `RUNNING` answer that export (`200`).',
    body: validators.salesCsvExportOrder,
    responses: { 200: 'exportJob', 202: 'exportJob' },
    errors: [['TypeMismatch'], ['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION'], ['ServiceUnavailable']],
    access: access.seller,
    method: 'POST',
    path: '/{sellerId}/sales/stats/csv-exports',
    versions: [33],
    handle: onFirstUse(csvExports, 'startSalesCsvExport'),
  }),
  route({
    summary: "Lists the seller's sales CSV exports",
    description: "Answers the seller's sales CSV exports, newest first, each as `GET .../csv-exports/{exportId}` answers it.",
    query: PAGE_QUERY,
    responses: { 200: 'exportJobList' },
    ...reader,
    path: '/{sellerId}/sales/stats/csv-exports',
    versions: [33],
    handle: onFirstUse(csvExports, 'listSalesCsvExports'),
  }),
  route({
    summary: 'Reads a sales CSV export',
    description:
      "Answers the export's `status`; when `DONE`, the gzipped file's `bytes` and `sha256` and a `url` that downloads " +
      'it until `expires` (a new one at each read); when `FAILED`, the `error`. An export is kept 7 days.',
    responses: { 200: 'exportJobState' },
    errors: [['NotFound']],
    ...reader,
    path: '/{sellerId}/sales/stats/csv-exports/{exportId}',
    versions: [33],
    handle: onFirstUse(csvExports, 'readSalesCsvExport'),
  }),
  route({
    summary: 'Reads totals per register day',
    description:
      'Answers for each register day of the period, in the order the days opened, its `brutto`, `vatSum`, `open` and ' +
      'in v33 `close` (null while open). ' +
      COVERED_TEXT,
    query: PERIOD_QUERY,
    responses: { 200: 'dayStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/days/stats',
    versions: SINCE_26,
    handle: onFirstUse(stats, 'getDayStats'),
  }),
];

export const handler = httpApi(routes);
