/** TypeScript types derived from the schemas, so validation and types cannot drift apart. */
import type { FromSchema } from 'json-schema-to-ts';
import type { contact, geolocation, geolocationV15 } from './common.ts';
import type { currency } from './enums.ts';
import type { scalars } from './scalars.ts';
import type { openingHours, sellerV15, sellerV26, sellerV33 } from './seller.ts';
import type { tax } from './tax.ts';

type References = {
  references: [
    typeof scalars,
    typeof currency,
    typeof openingHours,
    typeof geolocationV15,
    typeof geolocation,
    typeof contact,
  ];
};

export type TaxBody = FromSchema<typeof tax, References>;
export type SellerV15Body = FromSchema<typeof sellerV15, References>;
export type SellerV26Body = FromSchema<typeof sellerV26, References>;
export type SellerV33Body = FromSchema<typeof sellerV33, References>;
