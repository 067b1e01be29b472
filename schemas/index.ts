/**
 * Every schema of the service: the one source of request validation (compiled ahead of time by
 * `scripts/generate.ts` into `schemas/generated/validators.js`), of the TypeScript types
 * (`FromSchema`) and of the OpenAPI document.
 */
import { contact, geolocation, geolocationV15 } from './common.ts';
import { currency } from './enums.ts';
import { scalars } from './scalars.ts';
import { openingHours, sellerV15, sellerV26, sellerV33 } from './seller.ts';
import { tax } from './tax.ts';

/** Schemas that other schemas reach through `$ref` only. */
export const sharedSchemas = [scalars, currency, openingHours, geolocationV15, geolocation, contact] as const;

/** Request-body schemas, each compiled into a validator exported under its name. */
export const bodySchemas = { tax, sellerV15, sellerV26, sellerV33 } as const;
export type BodySchemaName = keyof typeof bodySchemas;
