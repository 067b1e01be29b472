import { httpApi } from '#shared/http/api.ts';
import { catalogRoutes } from './entity.ts';
import { taxes } from './taxes.ts';

/** The seller's catalog (spec 4.5). */
export const handler = httpApi([...catalogRoutes(taxes)]);
