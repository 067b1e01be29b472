import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import {
  deleteRegistration,
  getRegistration,
  getRegisterVersion,
  listRegistrations,
  listRegistrationsAdvanced,
} from './registrations.ts';

const seller = { access: access.seller } as const;

/** A seller's registers (spec 4.7 registrations): lists, detail, removal, and each register's data version. */
export const routes: Route[] = [
  route({ ...seller, method: 'GET', path: '/{sellerId}/registrations', versions: ALL_VERSIONS, handle: listRegistrations }),
  route({
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations-advanced',
    versions: SINCE_26,
    handle: listRegistrationsAdvanced,
  }),
  route({ ...seller, method: 'GET', path: '/{sellerId}/registrations/{cash}', versions: SINCE_26, handle: getRegistration }),
  route({
    ...seller,
    method: 'DELETE',
    path: '/{sellerId}/registrations/{cash}',
    versions: SINCE_26,
    handle: deleteRegistration,
  }),
  route({
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/version',
    versions: SINCE_26,
    handle: getRegisterVersion,
  }),
];

export const handler = httpApi(routes);
