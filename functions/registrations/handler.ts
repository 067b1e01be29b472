import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { listQuery, queryParam } from '#shared/http/query.ts';
import { route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import {
  deleteRegistration,
  getRegistration,
  getRegisterVersion,
  listRegistrations,
  listRegistrationsAdvanced,
  ORDER_FIELDS as REGISTRATION_ORDER,
} from './registrations.ts';

const seller = { access: access.seller } as const;
const ACTIVE_ONLY = queryParam('activeOnly', { type: 'boolean', default: false }, 'Only registers whose activation is in use.');

/** A seller's registers (spec 4.7 registrations): lists, detail, removal, and each register's data version. */
export const routes: Route[] = [
  route({
    query: [...listQuery(REGISTRATION_ORDER), ACTIVE_ONLY],
    responses: { 200: { list: 'registration' } },
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations',
    versions: ALL_VERSIONS,
    handle: listRegistrations,
  }),
  route({
    query: [...listQuery(REGISTRATION_ORDER), ACTIVE_ONLY],
    responses: { 200: { list: 'registration' } },
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations-advanced',
    versions: SINCE_26,
    handle: listRegistrationsAdvanced,
  }),
  route({
    conditional: 'read',
    responses: { 200: 'registration' },
    errors: [['NotFound'], ['ReferenceNotFound']],
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}',
    versions: SINCE_26,
    handle: getRegistration,
  }),
  route({
    conditional: 'write',
    responses: { 204: null },
    errors: [['NotFound'], ['ReferenceNotFound'], ['UnprocessableEntity']],
    ...seller,
    method: 'DELETE',
    path: '/{sellerId}/registrations/{cash}',
    versions: SINCE_26,
    handle: deleteRegistration,
  }),
  route({
    responses: { 200: 'versionResult' },
    errors: [['NotFound'], ['ReferenceNotFound']],
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/version',
    versions: SINCE_26,
    handle: getRegisterVersion,
  }),
];

export const handler = httpApi(routes);
