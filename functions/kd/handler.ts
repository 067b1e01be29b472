import * as validators from '#schemas/generated/validators.js';
import type { KdBody } from '#schemas/types.ts';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { perVersion, route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import { listKdFacets } from './facets.ts';
import { postKd } from './kd.ts';

/**
 * Control units (spec 4.3; docs/conventions.md §23): a register's kd through its unit's edge bridge, and the Kd log.
 * The IoT data-plane SDK and the MQTT client load on the first publish (shared/iot/publisher.ts), not at Init.
 */
export const routes: Route[] = [
  route({
    method: 'POST',
    path: '/pospluses/kd',
    versions: [15, 26],
    access: access.register,
    body: perVersion<KdBody>({ 15: validators.kdV15, 26: validators.kdV26 }),
    handle: postKd,
  }),
  route({
    method: 'POST',
    path: '/{sellerId}/registration/{cash}/kd',
    versions: [33],
    access: access.ownRegister,
    body: validators.kdV33,
    handle: postKd,
  }),
  route({ method: 'GET', path: '/kd-facets', versions: ALL_VERSIONS, access: access.user, handle: listKdFacets }),
];

export const handler = httpApi(routes);
