import { httpApi } from '#shared/http/api.ts';

/** Every path no endpoint group claims: 404 ENDPOINT_NOT_FOUND in the pinned shape (DESIGN.md pin 1). */
export const handler = httpApi([]);
