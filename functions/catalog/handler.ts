import { httpApi } from '#shared/http/api.ts';
import type { Route } from '#shared/http/router.ts';
import { commodityAdvancedRoutes } from './advanced.ts';
import { bookings, categories, commodities, keyboardEntries, keyboards, precepts, products, treasurers } from './entities.ts';
import { taxes } from '#shared/domain/taxes.ts';
import { catalogRoutes } from './entity.ts';
import { modificationsRoute } from './modifications.ts';
import { orderRoutes } from './orders.ts';
import { treasurerUserRoutes } from './treasurers.ts';

/** The seller's catalog (spec 4.5) and its sync (`/modifications`). */
export const routes: Route[] = [
  ...catalogRoutes(taxes),
  ...catalogRoutes(categories),
  ...catalogRoutes(products),
  ...catalogRoutes(commodities),
  ...catalogRoutes(keyboards),
  ...catalogRoutes(keyboardEntries),
  ...catalogRoutes(precepts),
  ...catalogRoutes(bookings),
  ...catalogRoutes(treasurers),
  ...commodityAdvancedRoutes,
  ...orderRoutes,
  ...treasurerUserRoutes,
  modificationsRoute,
];

export const handler = httpApi(routes);
