import {
  hairdresser as hairdresserValidator,
  restaurant as restaurantValidator,
  restaurantV15 as restaurantV15Validator,
} from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { listQuery } from '#shared/http/query.ts';
import { route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { deleteHairdresser, getHairdresser, putHairdresser } from './hairdressers.ts';
import {
  ORDER_FIELDS as RESTAURANT_ORDER,
  deleteRestaurant,
  getOverview,
  getRestaurant,
  listRestaurants,
  putRestaurant,
} from './restaurants.ts';

const restaurantBody = { 15: restaurantV15Validator, 26: restaurantValidator, 33: restaurantValidator };

/**
 * Restaurants and hairdressers (spec 4.5). Restaurants are a public listing: reads take any
 * credentials and the domain functions check the seller's `publicAccess`; writes and every
 * hairdresser operation need access to the seller.
 */
export const routes: Route[] = [
  route({
    query: listQuery(RESTAURANT_ORDER),
    responses: { 200: { list: 'restaurantListItem' } },
    method: 'GET',
    path: '/restaurants',
    versions: SINCE_26,
    access: access.authenticated,
    handle: listRestaurants,
  }),
  route({
    conditional: 'read',
    responses: { 200: { view: restaurantBody } },
    errors: [['NotFound'], ['Forbidden', 'SELLER_IS_NOT_PUBLIC']],
    method: 'GET',
    path: '/restaurants/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: getRestaurant,
  }),
  route({
    conditional: 'write',
    responses: { 201: 'identifierResult', 204: null },
    errors: [['InconsistentData', 'URL_AND_BODY_IDENTIFIERS_MISMATCH']],
    method: 'PUT',
    path: '/restaurants/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.seller,
    body: restaurantBody,
    handle: putRestaurant,
  }),
  route({
    conditional: 'write',
    responses: { 204: null },
    errors: [['NotFound']],
    method: 'DELETE',
    path: '/restaurants/{sellerId}',
    versions: SINCE_26,
    access: access.seller,
    handle: deleteRestaurant,
  }),
  route({
    responses: { 200: 'restaurantOverview' },
    errors: [['NotFound'], ['Forbidden', 'SELLER_IS_NOT_PUBLIC']],
    method: 'GET',
    path: '/restaurants-overview/{sellerId}',
    versions: SINCE_26,
    access: access.authenticated,
    handle: getOverview,
  }),

  route({
    conditional: 'read',
    responses: { 200: { view: hairdresserValidator } },
    errors: [['NotFound']],
    method: 'GET',
    path: '/hairdressers/{sellerId}',
    versions: SINCE_26,
    access: access.seller,
    handle: getHairdresser,
  }),
  route({
    conditional: 'write',
    responses: { 201: 'identifierResult', 204: null },
    errors: [['InconsistentData', 'URL_AND_BODY_IDENTIFIERS_MISMATCH']],
    method: 'PUT',
    path: '/hairdressers/{sellerId}',
    versions: SINCE_26,
    access: access.seller,
    body: hairdresserValidator,
    handle: putHairdresser,
  }),
  route({
    conditional: 'write',
    responses: { 204: null },
    errors: [['NotFound']],
    method: 'DELETE',
    path: '/hairdressers/{sellerId}',
    versions: SINCE_26,
    access: access.seller,
    handle: deleteHairdresser,
  }),
];

export const handler = httpApi(routes);
