/**
 * Restaurant and Hairdresser (spec 2.3). One canonical restaurant: v26 and v33 show and write every
 * field, v15 all but `workHoursWeek`. The limits the spec leaves open (menu, images, description) keep
 * the largest restaurant inside one DynamoDB item (400 KB) even when every character takes 4 bytes.
 */
import { sellerV26 } from './seller.ts';

const fileName = { type: 'string', $ref: 'scalars#/$defs/identifier' } as const;

/** One part of the menu: a heading, the seller's products under it (their identifiers) and pictures. */
const menuSection = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 96 },
    products: { type: ['array', 'null'], maxItems: 20, items: { type: 'string', $ref: 'scalars#/$defs/identifier' } },
    images: { type: ['array', 'null'], maxItems: 5, items: fileName },
  },
} as const;

const v15Properties = {
  country: { type: 'string', $ref: 'scalars#/$defs/country' },
  corporateId: { type: 'string', $ref: 'scalars#/$defs/corporateId' },
  name: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 96 },
  city: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 255 },
  address: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 500 },
  phone: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 96 },
  workHours: { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength: 255 },
  description: { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength: 1024 },
  // Hundredths of the seller's currency, as every amount (spec 1.4).
  averageBill: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 },
  menu: { type: ['array', 'null'], maxItems: 20, items: menuSection },
  images: { type: ['array', 'null'], maxItems: 10, items: fileName },
  custom: { type: ['string', 'null'], $ref: 'scalars#/$defs/custom' },
} as const;

/** v15: the whole listing is required but the optional extras. */
export const restaurantV15 = {
  $id: 'restaurant.v15',
  type: 'object',
  additionalProperties: false,
  required: ['country', 'corporateId', 'name', 'city', 'address', 'phone'],
  properties: v15Properties,
} as const;

/**
 * v26 and v33: the spec's write/read shape needs only `corporateId` and `averageBill` (the URL names
 * the country); the listing fields may be null but keep their bounds, and `workHoursWeek` is the seller's shape.
 */
export const restaurant = {
  $id: 'restaurant',
  type: 'object',
  additionalProperties: false,
  required: ['corporateId', 'averageBill'],
  properties: {
    ...v15Properties,
    country: { type: ['string', 'null'], $ref: 'scalars#/$defs/country' },
    name: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 96 },
    city: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 255 },
    address: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 500 },
    phone: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 96 },
    averageBill: { type: 'integer', minimum: 0, maximum: 2147483647 },
    workHoursWeek: { ...sellerV26.properties.workHoursWeek, type: ['object', 'null'] },
  },
} as const;

/** Hairdresser (v26, v33): the spec shows `corporateId`; `country` as for restaurants, `custom` for the register's own data. */
export const hairdresser = {
  $id: 'hairdresser',
  type: 'object',
  additionalProperties: false,
  required: ['corporateId'],
  properties: {
    country: { type: ['string', 'null'], $ref: 'scalars#/$defs/country' },
    corporateId: { type: 'string', $ref: 'scalars#/$defs/corporateId' },
    custom: { type: ['string', 'null'], $ref: 'scalars#/$defs/custom' },
  },
} as const;
