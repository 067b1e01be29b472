/**
 * Every schema of the service: the one source of request validation (compiled ahead of time by
 * `scripts/generate.ts` into `schemas/generated/`), of the TypeScript types
 * (`FromSchema`) and of the OpenAPI document.
 */
import {
  activationAdvancedV26,
  activationAdvancedV33,
  activationOrder,
  activationStatusChange,
  activationUpdateV15,
  activationUpdateV26,
  activationUpdateV33,
  connectionV26,
  connectionV33,
  nameExistence,
  nameExistenceWithCountry,
  productionNumberOrder,
} from './activation.ts';
import {
  booking,
  category,
  categoryV15,
  commodity,
  commodityV15,
  keyboard,
  keyboardEntry,
  order,
  precept,
  product,
  treasurer,
} from './catalog.ts';
import { contact, geolocation, geolocationV15 } from './common.ts';
import { emailMessage } from './email.ts';
import { currency } from './enums.ts';
import {
  balanceChange,
  day,
  journalExportOrder,
  journalUpload,
  salesCsvExportOrder,
  saleV15,
  saleV26,
  saleV33,
} from './fiscal.ts';
import { gatewayPayment } from './gateway.ts';
import { kdV15, kdV26, kdV33 } from './kd.ts';
import { hairdresser, restaurant, restaurantV15 } from './restaurant.ts';
import * as responseSchemas from './responses.ts';
import { scalars } from './scalars.ts';
import { openingHours, sellerV15, sellerV26, sellerV33 } from './seller.ts';
import { tax } from './tax.ts';
import { newUser, passwordChange, user, userV15 } from './user.ts';
import { applicationDescription, applicationDescriptionV33, softwareVendor } from './vendor.ts';

/** Schemas that other schemas reach through `$ref` only. */
export const sharedSchemas = [scalars, currency, openingHours, geolocationV15, geolocation, contact] as const;

/** Request-body schemas, each compiled into a validator exported under its name. */
export const bodySchemas = {
  tax,
  categoryV15,
  category,
  product,
  commodityV15,
  commodity,
  keyboard,
  keyboardEntry,
  order,
  precept,
  booking,
  treasurer,
  sellerV15,
  sellerV26,
  sellerV33,
  productionNumberOrder,
  activationOrder,
  activationAdvancedV26,
  activationAdvancedV33,
  connectionV26,
  connectionV33,
  nameExistence,
  nameExistenceWithCountry,
  activationStatusChange,
  activationUpdateV15,
  activationUpdateV26,
  activationUpdateV33,
  userV15,
  user,
  newUser,
  passwordChange,
  softwareVendor,
  applicationDescription,
  applicationDescriptionV33,
  restaurantV15,
  restaurant,
  hairdresser,
  saleV15,
  saleV26,
  saleV33,
  day,
  balanceChange,
  journalUpload,
  journalExportOrder,
  salesCsvExportOrder,
  emailMessage,
  gatewayPayment,
  kdV15,
  kdV26,
  kdV33,
} as const;
export type BodySchemaName = keyof typeof bodySchemas;

export { responseSchemas };
/** A schema a route's response names (`responses` in shared/http/router.ts): a request body's view or a response. */
export type SchemaName = BodySchemaName | keyof typeof responseSchemas;
