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
    summary: 'Lists devices',
    description:
      "The devices register apps are installed on, a page at a time, each by its device id. With `seller`, a user with access to that seller gets its devices; without it, the hyper admin gets every device and a software-vendor user those running its vendor's applications.",
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
    summary: 'Lists devices with their installations',
    description:
      'Each device with its latest installation, the application description it runs, its build infos and the registrations on it, a page at a time. `seller` and who sees what are as in the list of devices.',
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
    summary: 'Reads a device with its installations',
    description:
      "One device with its latest installation, the application description it runs, its build infos and the registrations on it. A software-vendor user reads only devices running its vendor's applications.",
    responses: { 200: 'deviceOverview' },
    errors: [['NotFound']],
    method: 'GET',
    path: '/devices-overview/{deviceId}',
    versions: SINCE_26,
    access: access.administrator,
    handle: getDeviceOverview,
  }),
  route({
    summary: "Lists an installation's build infos",
    description:
      "The build info (pairs of text the app reported about its build and device) of each install under a production number. The hyper admin, the application's software vendor and whoever may access a seller registered on the installation (its registers, their users) may read them.",
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
