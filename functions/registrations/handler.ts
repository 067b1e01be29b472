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
    summary: "Lists a seller's registers",
    description:
      "Lists the seller's registrations, one per register name, with LIST parameters (`like` on the register name and " +
      'production number). `activeOnly=true` keeps those whose latest activation is ACTIVE or WORKING within its ' +
      "validity period. v15 names each one's installation by `installationId`, v26 and v33 by `productionNumber`.",
    query: [...listQuery(REGISTRATION_ORDER), ACTIVE_ONLY],
    responses: { 200: { 15: { list: 'registrationV15' }, 26: { list: 'registration' }, 33: { list: 'registration' } } },
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations',
    versions: ALL_VERSIONS,
    handle: listRegistrations,
  }),
  route({
    summary: "Lists a seller's registers in detail",
    description:
      "Lists the registrations as the registers list does, each with the seller's overview, its installation, device, " +
      'application description and build infos, and the registers on the same installation.',
    query: [...listQuery(REGISTRATION_ORDER), ACTIVE_ONLY],
    responses: { 200: { list: 'registrationAdvanced' } },
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations-advanced',
    versions: SINCE_26,
    handle: listRegistrationsAdvanced,
  }),
  route({
    summary: "Reads a register's registration",
    description:
      "Answers the registration of the register the path names: the seller's overview, the application, installation " +
      "and device, the latest activation with its control unit serial, and the register's earlier activations.",
    conditional: 'read',
    responses: { 200: 'registrationDetail' },
    errors: [['NotFound'], ['ReferenceNotFound']],
    ...seller,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}',
    versions: SINCE_26,
    handle: getRegistration,
  }),
  route({
    summary: "Removes a register's registration",
    description:
      "Closes the register's activations that are not closed (their keys are refused from their next call) and removes " +
      "the registration; the register's sales, days and journal are kept, and its name can be registered again. A " +
      "register cannot remove itself: users do. `If-Match` takes the registration's ETag.",
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
    summary: "Reads a register's data version",
    description:
      "Answers the version of the register's own stream, which its sales and days take (0 before its first record): " +
      "the register's sales and days diffs read up to it.",
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
