import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { PAGE_QUERY, queryParam } from '#shared/http/query.ts';
import { type Route, route } from '#shared/http/router.ts';

const SELLER_QUERY = queryParam('seller', { type: 'string' }, "Only this seller's devices (a seller id).");
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { getDeviceOverview, listBuildInfoes, listDeviceOverviews, listDevices } from './devices.ts';

/** Devices and installations (spec 4.8): who runs what, where. */
export const routes: Route[] = [
  route({
    query: [...PAGE_QUERY, SELLER_QUERY],
    responses: { 200: { list: 'device' } },
    errors: [['ReferenceNotFound']],
    method: 'GET',
    path: '/devices',
    versions: SINCE_26,
    access: access.user,
    handle: listDevices,
  }),
  route({
    query: [...PAGE_QUERY, SELLER_QUERY],
    responses: { 200: { list: 'deviceOverview' } },
    errors: [['ReferenceNotFound']],
    method: 'GET',
    path: '/devices-overview',
    versions: SINCE_26,
    access: access.user,
    handle: listDeviceOverviews,
  }),
  route({
    responses: { 200: 'deviceOverview' },
    errors: [['NotFound']],
    method: 'GET',
    path: '/devices-overview/{deviceId}',
    versions: SINCE_26,
    access: access.administrator,
    handle: getDeviceOverview,
  }),
  route({
    responses: { 200: { list: 'buildInfo' } },
    errors: [['NotFound']],
    method: 'GET',
    path: '/installations/{productionNumber}/build-infoes',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: listBuildInfoes,
  }),
];

export const handler = httpApi(routes);
