import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import { getBridge, removeBridge } from './bridges.ts';
import { connectUnit, deleteUnit, disconnectUnit, getUnit, listUnits } from './units.ts';

// `administrator` lets the hyper admin and software-vendor users in; the domain functions keep a vendor user to
// reading its own vendor's units and refuse it every change (403 CU_ARE_NOT_MANAGEABLE_BY_SVA).
const common = { versions: ALL_VERSIONS, access: access.administrator };

/** Control units and their edge bridges (docs/conventions.md §23). */
export const routes: Route[] = [
  route({ ...common, method: 'GET', path: '/control-units', handle: listUnits }),
  route({ ...common, method: 'GET', path: '/control-units/{serial}', handle: getUnit }),
  route({ ...common, method: 'DELETE', path: '/control-units/{serial}', handle: deleteUnit }),
  route({ ...common, method: 'PUT', path: '/control-units/{serial}/software-vendor/{vendorId}', handle: connectUnit }),
  route({ ...common, method: 'DELETE', path: '/control-units/{serial}/software-vendor', handle: disconnectUnit }),
  route({ ...common, method: 'GET', path: '/control-units/{serial}/bridge', handle: getBridge }),
  route({ ...common, method: 'DELETE', path: '/control-units/{serial}/bridge', handle: removeBridge }),
];

export const handler = httpApi(routes);
