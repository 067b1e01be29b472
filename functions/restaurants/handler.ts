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
    summary: 'Lists public restaurants',
    description:
      'Lists the restaurants of the sellers that are public now, with LIST parameters (`orderBy` `corporateId`, ' +
      '`name`, `city`, `address` or `averageBill`, by seller id otherwise; `like` on name, city and address). An item ' +
      "shows `logo`, the first of the restaurant's images, and `country`, so that the seller id can be made.",
    query: listQuery(RESTAURANT_ORDER),
    responses: { 200: { list: 'restaurantListItem' } },
    method: 'GET',
    path: '/restaurants',
    versions: SINCE_26,
    access: access.authenticated,
    handle: listRestaurants,
  }),
  route({
    summary: "Reads a seller's restaurant",
    description:
      "Answers the seller's restaurant as the version shows it (v15 without `workHoursWeek`). A public seller's is " +
      'read by any authenticated caller; a seller that is not public shows it only to those with access to it.',
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
    summary: "Creates or replaces a seller's restaurant",
    description:
      "Creates the seller's restaurant (201) or replaces the fields the version writes (204; a v15 write keeps " +
      "`workHoursWeek`). The body's `country` and `corporateId` must name the URL's seller (`country` may be left out " +
      'in v26 and v33). Menu products are not checked against the catalog; registers do not sync restaurants.',
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
    summary: "Removes a seller's restaurant",
    description: "Removes the seller's restaurant and its entry in the restaurants list.",
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
    summary: "Reads a seller's restaurant overview",
    description:
      "Answers the seller's restaurant with the seller's live taxes (in the version's view of a tax) and its " +
      "`currency`, read as the restaurant is: public sellers' by anyone. It joins three records, so it has no ETag.",
    responses: { 200: 'restaurantOverview' },
    errors: [['NotFound'], ['Forbidden', 'SELLER_IS_NOT_PUBLIC']],
    method: 'GET',
    path: '/restaurants-overview/{sellerId}',
    versions: SINCE_26,
    access: access.authenticated,
    handle: getOverview,
  }),

  route({
    summary: "Reads a seller's hairdresser",
    description:
      "Answers the seller's hairdresser record (`country`, `corporateId`, `custom`). Unlike a restaurant it is not " + 'public.',
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
    summary: "Creates or replaces a seller's hairdresser",
    description:
      "Creates the seller's hairdresser record (201) or replaces it (204); the body's `country` and `corporateId` must " +
      "name the URL's seller.",
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
    summary: "Removes a seller's hairdresser",
    description: "Removes the seller's hairdresser record.",
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
