import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { listQuery } from '#shared/http/query.ts';
import { type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import { getBridge, removeBridge } from './bridges.ts';
import { getCloudUnit } from './cloud.ts';
import { connectUnit, deleteUnit, disconnectUnit, getUnit, listUnits, UNIT_ORDER } from './units.ts';
import { preloadCloudCertificate } from '#shared/kd/cloud-system.ts';

// `administrator` lets the hyper admin and software-vendor users in; the domain functions keep a vendor user to
// reading its own vendor's units and refuse it every change (403 CU_ARE_NOT_MANAGEABLE_BY_SVA).
const common = { versions: ALL_VERSIONS, access: access.administrator };

/** Control units and their edge bridges (docs/conventions.md §23). */
export const routes: Route[] = [
  route({
    summary: 'Lists control units',
    description:
      'The fiscal control units, a bare array ordered and searched by the list parameters (like matches the serial, city and postal code). A unit is registered by the first activation that names its serial; a software-vendor user sees only the units connected to its vendor.',
    ...common,
    method: 'GET',
    path: '/control-units',
    query: listQuery(UNIT_ORDER),
    responses: { 200: { list: 'controlUnitInfo' } },
    handle: listUnits,
  }),
  route({
    summary: 'Reads a control unit',
    description:
      "A control unit: its serial, location, registration date and software vendor. A software-vendor user reads only its own vendor's units; another vendor's is 404, as an unknown one.",
    ...common,
    method: 'GET',
    path: '/control-units/{serial}',
    responses: { 200: 'controlUnitInfo' },
    errors: [['NotFound']],
    handle: getUnit,
  }),
  route({
    summary: 'Deletes a control unit',
    description: "Removes a unit no activation names, closed ones included, with its bridge's records. Only the hyper admin may.",
    ...common,
    method: 'DELETE',
    path: '/control-units/{serial}',
    responses: { 204: null },
    errors: [['NotFound'], ['Forbidden', 'CU_ARE_NOT_MANAGEABLE_BY_SVA'], ['UnprocessableEntity', 'CU_HAS_REFERENCED_DATA']],
    handle: deleteUnit,
  }),
  route({
    summary: 'Connects a control unit to a software vendor',
    description:
      'Gives a unit that has no vendor this vendor; one that has a vendor must be disconnected first. A connected unit keeps its vendor from being deleted. Only the hyper admin may.',
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
    summary: 'Disconnects a control unit from its software vendor',
    description: "Takes the unit's vendor away; a disconnected unit can serve no new activation. Only the hyper admin may.",
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
    summary: "Reads a cloud control unit's state at its system",
    description:
      "For a unit enrolled with the stage's cloud control-unit system (a REMOTE activation without a serial): what the service keeps of the enrollment, and the system's own status of the register (asked now: active, requests seen, the last one). A unit behind a bridge is 404.",
    ...common,
    method: 'GET',
    path: '/control-units/{serial}/cloud',
    responses: { 200: 'cloudUnitStatus' },
    errors: [['NotFound']],
    handle: getCloudUnit,
  }),
  route({
    summary: "Reads a control unit's bridge",
    description:
      'The edge bridge between the unit and the service: whether it was provisioned and when, when it last reported, whether it was online then, and its version (null where there is nothing yet). A receipt signed through a bridge never provisioned or never heard from is 503 REQUIRES_SETUP.',
    ...common,
    method: 'GET',
    path: '/control-units/{serial}/bridge',
    responses: { 200: 'bridgeStatus' },
    errors: [['NotFound']],
    handle: getBridge,
  }),
  route({
    summary: "Removes a control unit's bridge",
    description:
      "Removes the bridge's provisioning record and last status, once every activation naming the unit is CLOSED; the bridge's certificate in the cloud is revoked by the operator. Only the hyper admin may.",
    ...common,
    method: 'DELETE',
    path: '/control-units/{serial}/bridge',
    responses: { 204: null },
    errors: [['NotFound'], ['Forbidden', 'CU_ARE_NOT_MANAGEABLE_BY_SVA'], ['InconsistentData', 'SERVER_CANT_BE_REMOVED']],
    handle: removeBridge,
  }),
];

// The cloud system's client certificate is read at Init (docs/conventions.md §27).
preloadCloudCertificate();

export const handler = httpApi(routes);
