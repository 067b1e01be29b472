import {
  hairdresser as hairdresserValidator,
  restaurant as restaurantValidator,
  restaurantV15 as restaurantV15Validator,
} from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { deleteHairdresser, getHairdresser, putHairdresser } from './hairdressers.ts';
import { deleteRestaurant, getOverview, getRestaurant, listRestaurants, putRestaurant } from './restaurants.ts';

const restaurantBody = { 15: restaurantV15Validator, 26: restaurantValidator, 33: restaurantValidator };

/**
 * Restaurants and hairdressers (spec 4.5). Restaurants are a public listing: reads take any
 * credentials and the domain functions check the seller's `publicAccess`; writes and every
 * hairdresser operation need access to the seller.
 */
export const routes: Route[] = [
  route({ method: 'GET', path: '/restaurants', versions: SINCE_26, access: access.authenticated, handle: listRestaurants }),
  route({
    method: 'GET',
    path: '/restaurants/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: getRestaurant,
  }),
  route({
    method: 'PUT',
    path: '/restaurants/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.seller,
    body: restaurantBody,
    handle: putRestaurant,
  }),
  route({
    method: 'DELETE',
    path: '/restaurants/{sellerId}',
    versions: SINCE_26,
    access: access.seller,
    handle: deleteRestaurant,
  }),
  route({
    method: 'GET',
    path: '/restaurants-overview/{sellerId}',
    versions: SINCE_26,
    access: access.authenticated,
    handle: getOverview,
  }),

  route({ method: 'GET', path: '/hairdressers/{sellerId}', versions: SINCE_26, access: access.seller, handle: getHairdresser }),
  route({
    method: 'PUT',
    path: '/hairdressers/{sellerId}',
    versions: SINCE_26,
    access: access.seller,
    body: hairdresserValidator,
    handle: putHairdresser,
  }),
  route({
    method: 'DELETE',
    path: '/hairdressers/{sellerId}',
    versions: SINCE_26,
    access: access.seller,
    handle: deleteHairdresser,
  }),
];

export const handler = httpApi(routes);
