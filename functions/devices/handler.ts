import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { getDeviceOverview, listBuildInfoes, listDeviceOverviews, listDevices } from './devices.ts';

/** Devices and installations (spec 4.8): who runs what, where. */
export const routes: Route[] = [
  route({ method: 'GET', path: '/devices', versions: SINCE_26, access: access.user, handle: listDevices }),
  route({ method: 'GET', path: '/devices-overview', versions: SINCE_26, access: access.user, handle: listDeviceOverviews }),
  route({
    method: 'GET',
    path: '/devices-overview/{deviceId}',
    versions: SINCE_26,
    access: access.administrator,
    handle: getDeviceOverview,
  }),
  route({
    method: 'GET',
    path: '/installations/{productionNumber}/build-infoes',
    versions: ALL_VERSIONS,
    access: access.authenticated,
    handle: listBuildInfoes,
  }),
];

export const handler = httpApi(routes);
