/** TypeScript types derived from the schemas, so validation and types cannot drift apart. */
import type { FromSchema } from 'json-schema-to-ts';
import type {
  activationAdvancedV33,
  activationOrder,
  activationStatusChange,
  activationUpdateV33,
  connectionV33,
  nameExistence,
  productionNumberOrder,
} from './activation.ts';
import type { booking, category, commodity, keyboard, keyboardEntry, order, precept, product, treasurer } from './catalog.ts';
import type { contact, geolocation, geolocationV15 } from './common.ts';
import type { currency } from './enums.ts';
import type { hairdresser, restaurant, restaurantV15 } from './restaurant.ts';
import type { scalars } from './scalars.ts';
import type { openingHours, sellerV15, sellerV26, sellerV33 } from './seller.ts';
import type { tax } from './tax.ts';
import type { newUser, passwordChange, user, userV15 } from './user.ts';
import type { applicationDescriptionV33, softwareVendor } from './vendor.ts';

type References = {
  references: [typeof scalars, typeof currency, typeof openingHours, typeof geolocationV15, typeof geolocation, typeof contact];
};

export type TaxBody = FromSchema<typeof tax, References>;
export type CategoryBody = FromSchema<typeof category, References>;
export type ProductBody = FromSchema<typeof product, References>;
export type CommodityBody = FromSchema<typeof commodity, References>;
export type KeyboardBody = FromSchema<typeof keyboard, References>;
export type KeyboardEntryBody = FromSchema<typeof keyboardEntry, References>;
export type OrderBody = FromSchema<typeof order, References>;
export type PreceptBody = FromSchema<typeof precept, References>;
export type BookingBody = FromSchema<typeof booking, References>;
export type TreasurerBody = FromSchema<typeof treasurer, References>;
export type SellerV15Body = FromSchema<typeof sellerV15, References>;
export type SellerV26Body = FromSchema<typeof sellerV26, References>;
export type SellerV33Body = FromSchema<typeof sellerV33, References>;

export type ProductionNumberOrderBody = FromSchema<typeof productionNumberOrder, References>;
export type ActivationOrderBody = FromSchema<typeof activationOrder, References>;
export type ActivationAdvancedBody = FromSchema<typeof activationAdvancedV33, References>;
export type ConnectionBody = FromSchema<typeof connectionV33, References>;
export type NameExistenceBody = FromSchema<typeof nameExistence, References>;
export type ActivationStatusChangeBody = FromSchema<typeof activationStatusChange, References>;
export type ActivationUpdateBody = FromSchema<typeof activationUpdateV33, References>;

export type UserV15Body = FromSchema<typeof userV15, References>;
export type UserBody = FromSchema<typeof user, References>;
export type NewUserBody = FromSchema<typeof newUser, References>;
export type PasswordChangeBody = FromSchema<typeof passwordChange, References>;

export type SoftwareVendorBody = FromSchema<typeof softwareVendor, References>;
export type ApplicationDescriptionBody = FromSchema<typeof applicationDescriptionV33, References>;

export type RestaurantV15Body = FromSchema<typeof restaurantV15, References>;
export type RestaurantBody = FromSchema<typeof restaurant, References>;
export type HairdresserBody = FromSchema<typeof hairdresser, References>;
