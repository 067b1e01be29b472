import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { salesCsvFile } from './csv.ts';
import {
  getCategoryStats,
  getDayStats,
  getPaymentTypeStats,
  getProductStats,
  getRegisterStats,
  getSalesStats,
  getTaxStats,
} from './stats.ts';

/** Users with access to the seller, and its registers, read its statistics (docs/conventions.md §20). */
const reader = { access: access.seller, method: 'GET' } as const;

/** A seller's statistics and sales export (spec 4.5, 4.7): folded from its registers' day totals. */
export const routes: Route[] = [
  route({ ...reader, path: '/{sellerId}/taxes/stats', versions: SINCE_26, handle: getTaxStats }),
  route({ ...reader, path: '/{sellerId}/categories/stats', versions: SINCE_26, handle: getCategoryStats }),
  route({ ...reader, path: '/{sellerId}/products/stats', versions: ALL_VERSIONS, handle: getProductStats }),
  route({ ...reader, path: '/{sellerId}/registrations/stats', versions: ALL_VERSIONS, handle: getRegisterStats }),
  route({ ...reader, path: '/{sellerId}/sales/stats', versions: ALL_VERSIONS, handle: getSalesStats }),
  route({ ...reader, path: '/{sellerId}/sales/stats/payment-type', versions: SINCE_26, handle: getPaymentTypeStats }),
  route({ ...reader, path: '/{sellerId}/sales/stats/csv', versions: [33], handle: salesCsvFile }),
  route({ ...reader, path: '/{sellerId}/days/stats', versions: SINCE_26, handle: getDayStats }),
];

export const handler = httpApi(routes);
