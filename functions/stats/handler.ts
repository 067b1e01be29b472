import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { queryParam } from '#shared/http/query.ts';
import { onFirstUse, route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { DATE_GROUPING_UNITS } from './times.ts';

// The figures' code loads on first use, out of the function's Init (docs/decisions.md, Cold start).
const stats = () => import('./stats.ts');
const csv = () => import('./csv.ts');

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

/** A seller's statistics and sales export (spec 4.5, 4.7): folded from its registers' day totals. */
export const routes: Route[] = [
  route({
    query: PERIOD_QUERY,
    responses: { 200: 'taxStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/taxes/stats',
    versions: SINCE_26,
    handle: onFirstUse(stats, 'getTaxStats'),
  }),
  route({
    query: PERIOD_QUERY,
    responses: { 200: 'categoryStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/categories/stats',
    versions: SINCE_26,
    handle: onFirstUse(stats, 'getCategoryStats'),
  }),
  route({
    query: PERIOD_QUERY,
    responses: { 200: 'productStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/products/stats',
    versions: ALL_VERSIONS,
    handle: onFirstUse(stats, 'getProductStats'),
  }),
  route({
    query: PERIOD_QUERY,
    responses: { 200: { list: 'registerStats' } },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/registrations/stats',
    versions: ALL_VERSIONS,
    handle: onFirstUse(stats, 'getRegisterStats'),
  }),
  route({
    query: [...PERIOD_QUERY, GROUPING_QUERY],
    responses: { 200: 'salesStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/sales/stats',
    versions: ALL_VERSIONS,
    handle: onFirstUse(stats, 'getSalesStats'),
  }),
  route({
    query: PERIOD_QUERY,
    responses: { 200: 'paymentTypeStats' },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION']],
    ...reader,
    path: '/{sellerId}/sales/stats/payment-type',
    versions: SINCE_26,
    handle: onFirstUse(stats, 'getPaymentTypeStats'),
  }),
  route({
    query: [...PERIOD_QUERY, FILE_NAME_QUERY],
    responses: { 200: { media: ['text/csv'] } },
    errors: [['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION', 'SERVER_IS_OVERLOADED']],
    ...reader,
    path: '/{sellerId}/sales/stats/csv',
    versions: [33],
    handle: onFirstUse(csv, 'salesCsvFile'),
  }),
  route({
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
