import { httpApi } from '#shared/http/api.ts';
import { docsRoutes } from './docs.ts';

/**
 * Every path no endpoint group claims: 404 ENDPOINT_NOT_FOUND in the pinned shape (docs/conventions.md §1), but for
 * `GET /health` and, under the local stack, the API reference at /docs.
 */
export const handler = httpApi([], docsRoutes());
