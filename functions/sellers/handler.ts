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
    query: listQuery(SELLER_ORDER),
    responses: { 200: { view: sellerBody, list: true } },
    method: 'GET',
    path: '/sellers',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: listSellers,
  }),
  route({
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
    responses: { 200: 'versionResult' },
    method: 'GET',
    path: '/{sellerId}/version',
    versions: ALL_VERSIONS,
    access: access.seller,
    handle: getVersion,
  }),
  route({
    responses: { 200: 'sellerStats' },
    method: 'GET',
    path: '/{sellerId}/stats',
    versions: ALL_VERSIONS,
    access: access.seller,
    handle: getSellerStats,
  }),
];

export const handler = httpApi(routes);
