import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { onFirstUse, route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';

// The figures' code loads on first use, out of the function's Init (docs/decisions.md, Cold start).
const stats = () => import('./stats.ts');
const csv = () => import('./csv.ts');

/** Users with access to the seller, and its registers, read its statistics (docs/conventions.md §20). */
const reader = { access: access.seller, method: 'GET' } as const;

/** A seller's statistics and sales export (spec 4.5, 4.7): folded from its registers' day totals. */
export const routes: Route[] = [
  route({ ...reader, path: '/{sellerId}/taxes/stats', versions: SINCE_26, handle: onFirstUse(stats, 'getTaxStats') }),
  route({ ...reader, path: '/{sellerId}/categories/stats', versions: SINCE_26, handle: onFirstUse(stats, 'getCategoryStats') }),
  route({ ...reader, path: '/{sellerId}/products/stats', versions: ALL_VERSIONS, handle: onFirstUse(stats, 'getProductStats') }),
  route({
    ...reader,
    path: '/{sellerId}/registrations/stats',
    versions: ALL_VERSIONS,
    handle: onFirstUse(stats, 'getRegisterStats'),
  }),
  route({ ...reader, path: '/{sellerId}/sales/stats', versions: ALL_VERSIONS, handle: onFirstUse(stats, 'getSalesStats') }),
  route({
    ...reader,
    path: '/{sellerId}/sales/stats/payment-type',
    versions: SINCE_26,
    handle: onFirstUse(stats, 'getPaymentTypeStats'),
  }),
  route({ ...reader, path: '/{sellerId}/sales/stats/csv', versions: [33], handle: onFirstUse(csv, 'salesCsvFile') }),
  route({ ...reader, path: '/{sellerId}/days/stats', versions: SINCE_26, handle: onFirstUse(stats, 'getDayStats') }),
];

export const handler = httpApi(routes);
