/**
 * The seller's catalog entities of spec 2.3 beyond taxes: categories, products, commodities,
 * keyboards and keyboard entries (v15), orders (v15), precepts, bookings and treasurers (v26, v33).
 * A field a version lacks (`color` before v26) is absent from that version's schema, so its view
 * neither shows nor writes it (`shared/versions.ts`).
 */
import { ARTICLE_TYPES, SALES_UNITS } from '#shared/fiscal/model.ts';

/** Every versioned entity carries these (spec 1.5, 1.6). */
const entity = {
  deleted: { type: ['boolean', 'null'] },
  identifier: { type: ['string', 'null'], $ref: 'scalars#/$defs/identifier' },
} as const;

const name = { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 32 } as const;
/** The identifier of another entity of the same seller. */
const reference = { type: 'string', $ref: 'scalars#/$defs/identifier' } as const;
const optionalReference = { type: ['string', 'null'], $ref: 'scalars#/$defs/identifier' } as const;
const custom = { type: ['string', 'null'], $ref: 'scalars#/$defs/custom' } as const;
const int = { type: 'integer', $ref: 'scalars#/$defs/int32' } as const;
/** Sizes and positions on a keyboard grid. */
const notNegative = { type: 'integer', minimum: 0, maximum: 2147483647 } as const;
/** `color` (v26, v33): an ARGB int as Android gives it, so any Java int. */
const color = { type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647 } as const;

export const categoryV15 = {
  $id: 'category.v15',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { ...entity, name },
} as const;

export const category = {
  $id: 'category',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { ...entity, name, color },
} as const;

export const product = {
  $id: 'product',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'barcode', 'netto', 'tax', 'salesUnit', 'countedInPrice'],
  properties: {
    ...entity,
    name,
    barcode: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 32 },
    netto: int,
    tax: reference,
    salesUnit: { type: 'string', enum: SALES_UNITS },
    // "boolean-valued, may be transmitted as text" (spec 2.3): stored and shown as a boolean.
    countedInPrice: { type: ['boolean', 'string'], $ref: 'scalars#/$defs/text', pattern: '^(true|false)$' },
    description: { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength: 1024 },
    // Goods or a service (additive, every version; absent or null: GOODS): frozen on each sale line (docs/conventions.md §16).
    articleType: { type: ['string', 'null'], enum: [...ARTICLE_TYPES, null] },
    custom,
  },
} as const;

export const commodityV15 = {
  $id: 'commodity.v15',
  type: 'object',
  additionalProperties: false,
  required: ['product', 'category'],
  properties: { ...entity, product: reference, category: reference, custom },
} as const;

export const commodity = {
  $id: 'commodity',
  type: 'object',
  additionalProperties: false,
  required: ['product', 'category'],
  properties: { ...entity, product: reference, category: reference, custom, color },
} as const;

export const keyboard = {
  $id: 'keyboard',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'width', 'height', 'deviceFormFactor'],
  properties: {
    ...entity,
    name,
    width: notNegative,
    height: notNegative,
    deviceFormFactor: { type: 'string', enum: ['PHONE', 'TABLET_SMALL', 'TABLET_BIG'] },
    custom,
  },
} as const;

/** keyActionType as v15 knows it (v33 adds `SalesInOperation`; keyboards exist in v15 only). */
export const KEY_ACTIONS_V15 = [
  'Product',
  'SaleItemsView',
  'POSSaleItemsView',
  'Camera',
  'InitiateReturn',
  'InitSaleCash',
  'InitSaleCard',
  'InitSaleProviderD',
  'InitSaleProviderC',
  'InitSaleProviderE',
  'InitSaleWalletA',
  'InitSaleProviderB',
  'SubKeyboard',
  'Numeric0',
  'Numeric1',
  'Numeric2',
  'Numeric3',
  'Numeric4',
  'Numeric5',
  'Numeric6',
  'Numeric7',
  'Numeric8',
  'Numeric9',
  'Numeric00',
  'CurrencyUnit',
  'ProductUnit',
  'NumericReset',
  'NumericDot',
  'NumericBackspace',
  'NumericIndicator',
  'PercentDiscount',
  'CurrencyDiscount',
  'SendOrder',
  'GetOrders',
  'SubtotalIndicator',
  'ProductsSearchView',
  'GroupsProductsView',
  'GroupsProductsTextView',
  'TablesProductsView',
  'TablesProductsTextView',
  'NetworkIndicator',
  'PrintProforma',
] as const;

export const keyboardEntry = {
  $id: 'keyboardEntry',
  type: 'object',
  additionalProperties: false,
  required: ['keyboard', 'positionX', 'positionY', 'width', 'height', 'keyAction', 'label'],
  properties: {
    ...entity,
    // Only a `Product` key names a product; a digit or a payment key names none.
    product: optionalReference,
    keyboard: reference,
    subKeyboard: optionalReference,
    positionX: notNegative,
    positionY: notNegative,
    width: notNegative,
    height: notNegative,
    keyAction: { type: 'string', enum: KEY_ACTIONS_V15 },
    label: name,
    custom,
  },
} as const;

const treasurerName = { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 32 } as const;
const customization = { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength: 512 } as const;
/** Lines of one order or precept: far more than a table orders, far less than a body can carry. */
const MAX_LINES = 500;

export const order = {
  $id: 'order',
  type: 'object',
  additionalProperties: false,
  required: ['treasurerName', 'orderItems'],
  properties: {
    treasurerName,
    orderItems: {
      type: 'array',
      maxItems: MAX_LINES,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['productIdentifier', 'delta'],
        properties: {
          productIdentifier: reference,
          productCustomization: customization,
          delta: int,
          deltaUnit: { type: ['boolean', 'null'] },
        },
      },
    },
  },
} as const;

export const precept = {
  $id: 'precept',
  type: 'object',
  additionalProperties: false,
  required: ['treasurerName', 'preceptItems', 'status'],
  properties: {
    ...entity,
    treasurerName,
    preceptItems: {
      type: 'array',
      maxItems: MAX_LINES,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['delta'],
        properties: { productCustomization: customization, delta: int },
      },
    },
    table: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', maxLength: 50 },
    created: { type: ['integer', 'null'], $ref: 'scalars#/$defs/date' },
    // preceptStatusType: only NEW is known (spec 2.2), so any upper-case word is taken.
    status: { type: 'string', $ref: 'scalars#/$defs/text', pattern: '^[A-Z][A-Z_]{0,31}$' },
    message: { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength: 512 },
    order: optionalReference,
  },
} as const;

export const booking = {
  $id: 'booking',
  type: 'object',
  additionalProperties: false,
  required: ['bookingDate', 'persons', 'contactInfo'],
  properties: {
    ...entity,
    bookingDate: { type: 'integer', $ref: 'scalars#/$defs/date' },
    persons: notNegative,
    description: { type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength: 1024 },
    contactInfo: { type: 'object', $ref: 'contact' },
  },
} as const;

export const treasurer = {
  $id: 'treasurer',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    ...entity,
    name,
    ssn: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 32 },
    custom,
    // Set by joining a user (POST .../treasurers/{identifier}/user), never by a write of the treasurer.
    user: { type: ['string', 'null'], $ref: 'scalars#/$defs/identifier' },
    pin: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 32 },
  },
} as const;
