/** Seller (spec 2.3) in its three versions: v26 adds fields and relaxes `name`; v33 adds more. */
/** One day's opening hours (v26, v33); a day without hours is null. */
export const openingHours = {
  $id: 'openingHours',
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['openTime', 'closeTime'],
  properties: {
    openTime: { type: 'integer', $ref: 'scalars#/$defs/int32' },
    closeTime: { type: 'integer', $ref: 'scalars#/$defs/int32' },
  },
} as const;

const day = { $ref: 'openingHours' } as const;

const v15Properties = {
  corporateId: { type: 'string', $ref: 'scalars#/$defs/corporateId' },
  name: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 96 },
  country: { type: 'string', $ref: 'scalars#/$defs/country' },
  publicAccess: { type: 'boolean' },
  description: { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength: 1024 },
  city: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', maxLength: 255 },
  workHours: { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength: 255 },
  phone: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', maxLength: 255 },
  custom: { type: ['string', 'null'], $ref: 'scalars#/$defs/custom' },
} as const;

const v26Properties = {
  ...v15Properties,
  name: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', maxLength: 96 },
  workHoursWeek: {
    type: 'object',
    additionalProperties: false,
    properties: {
      MONDAY: day,
      TUESDAY: day,
      WEDNESDAY: day,
      THURSDAY: day,
      FRIDAY: day,
      SATURDAY: day,
      SUNDAY: day,
    },
  },
  address: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', maxLength: 500 },
  currency: { type: ['string', 'null'], $ref: 'currency' },
  masterPassword: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 64 },
} as const;

export const sellerV15 = {
  $id: 'seller.v15',
  type: 'object',
  additionalProperties: false,
  required: ['corporateId', 'name', 'country', 'publicAccess'],
  properties: v15Properties,
} as const;

export const sellerV26 = {
  $id: 'seller.v26',
  type: 'object',
  additionalProperties: false,
  required: ['corporateId', 'country', 'publicAccess', 'workHoursWeek'],
  properties: v26Properties,
} as const;

export const sellerV33 = {
  $id: 'seller.v33',
  type: 'object',
  additionalProperties: false,
  required: ['corporateId', 'country', 'publicAccess', 'workHoursWeek'],
  properties: {
    ...v26Properties,
    protectedHeaders: { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', minLength: 1, maxLength: 1024 },
    zip: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', maxLength: 12 },
  },
} as const;
