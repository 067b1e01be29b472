import { sellerV15, sellerV26, sellerV33 } from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { listQuery } from '#shared/http/query.ts';
import { perVersion, route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import type { SellerBody } from '#shared/domain/seller.ts';
import {
  ORDER_FIELDS as SELLER_ORDER,
  createSeller,
  deleteSeller,
  getSeller,
  getVersion,
  listSellers,
  putSeller,
} from './sellers.ts';
import { getSellerStats } from './stats.ts';

const sellerBody = perVersion<SellerBody>({ 15: sellerV15, 26: sellerV26, 33: sellerV33 });

/** Sellers (spec 4.4). */
export const routes: Route[] = [
  route({
    summary: 'Lists sellers',
    description:
      "Lists the sellers the caller may see: every seller for the hyper admin, its vendor's for a software-vendor " +
      'user, its connected sellers for a regular user, its own for a register. LIST parameters: `orderBy` `COUNTRY` or ' +
      '`NAME`, `like` on name, corporate id and seller id. Deleted sellers are left out.',
    query: listQuery(SELLER_ORDER),
    responses: { 200: { view: sellerBody, list: true } },
    method: 'GET',
    path: '/sellers',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: listSellers,
  }),
  route({
    summary: 'Creates a seller',
    description:
      "Creates the seller whose id the body's `country` and `corporateId` make (the country code followed directly by " +
      'the corporate id) and answers that id. An existing seller is refused. v26 and v33 create a seller with a PUT of ' +
      'its id.',
    responses: { 201: 'identifierResult' },
    errors: [['VersionConflict'], ['InconsistentData']],
    method: 'POST',
    path: '/sellers',
    versions: [15],
    access: access.hyperAdmin,
    body: sellerBody,
    handle: createSeller,
  }),
  route({
    summary: 'Reads a seller',
    description: "Answers the seller's profile as the version shows it, its version as ETag. A deleted seller is not found.",
    conditional: 'read',
    responses: { 200: { view: sellerBody } },
    errors: [['NotFound']],
    method: 'GET',
    path: '/sellers/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.sellerRecord,
    handle: getSeller,
  }),
  route({
    summary: 'Creates or updates a seller',
    description:
      "Writes the fields the version knows over the seller's profile (the others are kept), or creates the seller when " +
      "it does not exist or was deleted (the hyper admin only). The body's `country` and `corporateId` must make the " +
      "URL's id. Every change takes the seller's next version, so its registers sync it.",
    conditional: 'write',
    responses: { 201: 'identifierResult', 204: null },
    errors: [['NotFound'], ['InconsistentData', 'URL_AND_BODY_IDENTIFIERS_MISMATCH'], ['RequestMethodNotSupported']],
    method: 'PUT',
    path: '/sellers/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.sellerRecord,
    body: sellerBody,
    handle: putSeller,
  }),
  route({
    summary: 'Deletes a seller',
    description:
      'Hides the seller: its reads answer 404, lists leave it out and writes to its data are refused. Its records are ' +
      'kept, as bookkeeping law asks; created again, the seller resumes its version sequence.',
    conditional: 'write',
    responses: { 204: null },
    errors: [['NotFound'], ['UnprocessableEntity']],
    method: 'DELETE',
    path: '/sellers/{sellerId}',
    versions: ALL_VERSIONS,
    access: access.hyperAdmin,
    handle: deleteSeller,
  }),
  route({
    summary: "Reads a seller's data version",
    description:
      "Answers the seller's current version: every change of its data (profile, catalog, images) takes the next. A register " +
      'compares it with the version it last synced and reads the diffs in between. v26 and v33 add ' +
      '`modificationApiVersion`, the API version of the last change.',
    responses: { 200: 'versionResult' },
    method: 'GET',
    path: '/{sellerId}/version',
    versions: ALL_VERSIONS,
    access: access.seller,
    handle: getVersion,
  }),
  route({
    summary: "Reads a seller's activation statistics",
    description:
      "Counts the seller's registers by their latest activation, closed ones left out: `expiredActivations` whose " +
      '`validTo` is before today (UTC), `expireSoonActivations` whose `validTo` falls from today to the same day next ' +
      'month, and `hasLocalControlUnits` when one has its control unit on the device. `hasTables`, `hasAdditives` and ' +
      '`hasAdditiveClasses` are always false.',
    responses: { 200: 'sellerStats' },
    method: 'GET',
    path: '/{sellerId}/stats',
    versions: ALL_VERSIONS,
    access: access.seller,
    handle: getSellerStats,
  }),
];

export const handler = httpApi(routes);
