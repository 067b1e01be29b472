import { httpApi } from '#shared/http/api.ts';

/** Every path no endpoint group claims: 404 ENDPOINT_NOT_FOUND in the pinned shape (docs/conventions.md §1). */
export const handler = httpApi([]);
