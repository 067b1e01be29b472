import * as fields from '#schemas/generated/fields.js';
import * as validators from '#schemas/generated/validators.js';
import type {
  BookingBody,
  CategoryBody,
  CommodityBody,
  KeyboardBody,
  KeyboardEntryBody,
  PreceptBody,
  ProductBody,
  TreasurerBody,
} from '#schemas/types.ts';
import { nonUnique, referenceNotFound } from '#shared/errors.ts';
import { type ApiVersion, SINCE_26 } from '#shared/versions.ts';
import { everywhere, type VersionedEntity } from '#shared/versioned/entity.ts';

const V15: readonly ApiVersion[] = [15];

/** Categories: v26 adds `color`, which a v15 write keeps. */
export const categories: VersionedEntity<CategoryBody> = {
  plural: 'categories',
  kind: 'CATEGORY',
  versions: [15, 26, 33],
  body: { 15: validators.categoryV15, 26: validators.category, 33: validators.category },
  view: { 15: fields.categoryV15, 26: fields.category, 33: fields.category },
  orderFields: ['identifier', 'name'],
  searched: ['name', 'identifier'],
};

/** Products name their tax. */
export const products: VersionedEntity<ProductBody> = {
  plural: 'products',
  kind: 'PRODUCT',
  versions: [15, 26, 33],
  ...everywhere<ProductBody>(validators.product, fields.product),
  orderFields: ['identifier', 'name', 'barcode', 'netto'],
  searched: ['name', 'barcode', 'identifier'],
  references: [{ field: 'tax', kind: 'TAX' }],
  // A product is goods unless it says it is a service (docs/conventions.md §16).
  normalize: (body) => ({
    ...body,
    countedInPrice: body.countedInPrice === true || body.countedInPrice === 'true',
    articleType: body.articleType ?? 'GOODS',
  }),
};

/** Commodities link a product to a category; v26 adds `color`. */
export const commodities: VersionedEntity<CommodityBody> = {
  plural: 'commodities',
  kind: 'COMMODITY',
  versions: [15, 26, 33],
  body: { 15: validators.commodityV15, 26: validators.commodity, 33: validators.commodity },
  view: { 15: fields.commodityV15, 26: fields.commodity, 33: fields.commodity },
  orderFields: ['identifier', 'product', 'category'],
  searched: ['identifier', 'product', 'category'],
  references: [
    { field: 'product', kind: 'PRODUCT' },
    { field: 'category', kind: 'CATEGORY' },
  ],
};

export const keyboards: VersionedEntity<KeyboardBody> = {
  plural: 'keyboards',
  kind: 'KEYBOARD',
  versions: V15,
  body: { 15: validators.keyboard },
  view: { 15: fields.keyboard, 26: [], 33: [] },
  orderFields: ['identifier', 'name'],
  searched: ['name', 'identifier'],
};

/** A key on a keyboard: names its keyboard, the keyboard it opens and the product it sells. */
export const keyboardEntries: VersionedEntity<KeyboardEntryBody> = {
  plural: 'keyboard-entries',
  kind: 'KEYBOARD_ENTRY',
  versions: V15,
  body: { 15: validators.keyboardEntry },
  view: { 15: fields.keyboardEntry, 26: [], 33: [] },
  orderFields: ['identifier', 'label', 'keyboard'],
  searched: ['label', 'identifier'],
  references: [
    { field: 'keyboard', kind: 'KEYBOARD' },
    { field: 'subKeyboard', kind: 'KEYBOARD' },
    { field: 'product', kind: 'PRODUCT' },
  ],
};

/** Precepts (kitchen tickets): at most one per order (spec 3). */
export const precepts: VersionedEntity<PreceptBody> = {
  plural: 'precepts',
  kind: 'PRECEPT',
  versions: SINCE_26,
  body: { 26: validators.precept, 33: validators.precept },
  view: { 15: [], 26: fields.precept, 33: fields.precept },
  // The spec gives precepts PAGE parameters: no ordering.
  orderFields: [],
  searched: ['treasurerName', 'table', 'order', 'identifier'],
  unique: {
    field: 'order',
    refused: () => nonUnique('The order has a precept already', 'ORDER_ALREADY_HAS_PRECEPT'),
  },
};

export const bookings: VersionedEntity<BookingBody> = {
  plural: 'bookings',
  kind: 'BOOKING',
  versions: SINCE_26,
  body: { 26: validators.booking, 33: validators.booking },
  view: { 15: [], 26: fields.booking, 33: fields.booking },
  orderFields: ['identifier', 'bookingDate', 'persons'],
  searched: ['description', 'identifier'],
};

/**
 * Treasurers (cashiers), docs/conventions.md §12. `user` is set only by joining a user (`treasurers.ts`); a user
 * holds at most one treasurer of a seller.
 */
export const treasurers: VersionedEntity<TreasurerBody> = {
  plural: 'treasurers',
  kind: 'TREASURER',
  versions: SINCE_26,
  body: { 26: validators.treasurer, 33: validators.treasurer },
  view: { 15: [], 26: fields.treasurer, 33: fields.treasurer },
  orderFields: ['identifier', 'name'],
  searched: ['name', 'identifier'],
  kept: ['user'],
  unique: {
    field: 'user',
    refused: () =>
      referenceNotFound('The user holds a treasurer of this seller already', 'USER_HAS_TREASURER_WITH_SAME_SELLER_ID_ALREADY'),
  },
};
