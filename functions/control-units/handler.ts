import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { listQuery } from '#shared/http/query.ts';
import { type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import { getBridge, removeBridge } from './bridges.ts';
import { connectUnit, deleteUnit, disconnectUnit, getUnit, listUnits, UNIT_ORDER } from './units.ts';

// `administrator` lets the hyper admin and software-vendor users in; the domain functions keep a vendor user to
// reading its own vendor's units and refuse it every change (403 CU_ARE_NOT_MANAGEABLE_BY_SVA).
const common = { versions: ALL_VERSIONS, access: access.administrator };

/** Control units and their edge bridges (docs/conventions.md §23). */
export const routes: Route[] = [
  route({
    ...common,
    method: 'GET',
    path: '/control-units',
    query: listQuery(UNIT_ORDER),
    responses: { 200: { list: 'controlUnitInfo' } },
    handle: listUnits,
  }),
  route({
    ...common,
    method: 'GET',
    path: '/control-units/{serial}',
    responses: { 200: 'controlUnitInfo' },
    errors: [['NotFound']],
    handle: getUnit,
  }),
  route({
    ...common,
    method: 'DELETE',
    path: '/control-units/{serial}',
    responses: { 204: null },
    errors: [['NotFound'], ['Forbidden', 'CU_ARE_NOT_MANAGEABLE_BY_SVA'], ['UnprocessableEntity', 'CU_HAS_REFERENCED_DATA']],
    handle: deleteUnit,
  }),
  route({
    ...common,
    method: 'PUT',
    path: '/control-units/{serial}/software-vendor/{vendorId}',
    responses: { 204: null },
    errors: [
      ['NotFound'],
      ['ReferenceNotFound'],
      ['Forbidden', 'CU_ARE_NOT_MANAGEABLE_BY_SVA'],
      ['UnprocessableEntity', 'CONTROL_UNIT_IS_CONNECTED_ALREADY'],
    ],
    handle: connectUnit,
  }),
  route({
    ...common,
    method: 'DELETE',
    path: '/control-units/{serial}/software-vendor',
    responses: { 204: null },
    errors: [
      ['NotFound'],
      ['Forbidden', 'CU_ARE_NOT_MANAGEABLE_BY_SVA'],
      ['UnprocessableEntity', 'CONTROL_UNIT_IS_DISCONNECTED_ALREADY'],
    ],
    handle: disconnectUnit,
  }),
  route({
    ...common,
    method: 'GET',
    path: '/control-units/{serial}/bridge',
    responses: { 200: 'bridgeStatus' },
    errors: [['NotFound']],
    handle: getBridge,
  }),
  route({
    ...common,
    method: 'DELETE',
    path: '/control-units/{serial}/bridge',
    responses: { 204: null },
    errors: [['NotFound'], ['Forbidden', 'CU_ARE_NOT_MANAGEABLE_BY_SVA'], ['InconsistentData', 'SERVER_CANT_BE_REMOVED']],
    handle: removeBridge,
  }),
];

export const handler = httpApi(routes);
