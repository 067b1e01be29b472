/**
 * The fiscal records a register writes (spec 2.3 Sale and Day, 4.7): sales in their three versions,
 * days, balance changes and the register's own e-journal events. The limits are docs/decisions.md,
 * Fiscal limits. Fields the server sets (a sale's `day`, a day's figures) are read-only: a body may
 * carry them as a read gave them, and they are ignored.
 */
import { REGISTER_EVENT_TYPES, type RegisterEventType } from '#shared/fiscal/journal.ts';
import { PAYMENT_TYPE_NAMES } from '#shared/fiscal/payment-types.ts';
import {
  ARTICLE_TYPES,
  BALANCE_ACTIONS,
  DELIVERY_TYPES,
  PAYMENT_STATES,
  PRINT_TYPES,
  SALE_STATES,
  SALES_UNITS,
} from '#shared/fiscal/model.ts';
import type { ApiVersion } from '#shared/versions.ts';

/** Lines of one sale: as many as an order or precept may have. */
export const MAX_SALE_PRODUCTS = 500;
/** Payments of one sale: split tenders, retries and declined attempts included. */
export const MAX_PAYMENTS = 20;
/** Prints of one sale: its Normal receipt, proformas and copies. */
export const MAX_PRINTS = 50;
/** VAT rates of one sale: no country has more. */
export const MAX_VAT_RATE_SUMS = 10;

const INT32_MAX = 2147483647;
const int = { type: 'integer', $ref: 'scalars#/$defs/int32' } as const;
const optionalInt = { type: ['integer', 'null'], $ref: 'scalars#/$defs/int32' } as const;
/** Money in hundredths: positive, as `refund` gives the direction. */
const money = { type: 'integer', minimum: 0, maximum: INT32_MAX } as const;
const optionalMoney = { type: ['integer', 'null'], minimum: 0, maximum: INT32_MAX } as const;
const date = { type: ['integer', 'null'], $ref: 'scalars#/$defs/date' } as const;
/** A receipt number, or the one a refund names: the series starts at 1. */
const receiptNumber = { type: ['integer', 'null'], minimum: 1, maximum: INT32_MAX } as const;
const treasurer = { type: ['string', 'null'], $ref: 'scalars#/$defs/identifier' } as const;

/** A line's figures in every version. */
const saleProductV15 = {
  productIdentifier: { type: 'string', $ref: 'scalars#/$defs/identifier' },
  deltaUnit: { type: 'boolean' },
  // Units or an amount; a line of a return may count down.
  delta: int,
  absoluteDiscount: optionalMoney,
  relativeDiscount: optionalMoney,
  vat: money,
  netto: money,
  brutto: money,
  vanillaBrutto: optionalMoney,
  discount: optionalMoney,
  created: date,
  // What was sold, frozen at the sale (additive, every version; docs/conventions.md §16): the catalog's when absent.
  name: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 100 },
  group: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 100 },
  articleType: { type: ['string', 'null'], enum: [...ARTICLE_TYPES, null] },
  // Units, or weight, length or time in salesUnit; at most three decimals (checked in functions/fiscal/lines.ts).
  quantity: { type: ['number', 'null'], minimum: -1_000_000, maximum: 1_000_000 },
  salesUnit: { type: ['string', 'null'], enum: [...SALES_UNITS, null] },
  unitPrice: optionalMoney,
} as const;

const saleProductsOf = <const P extends object>(properties: P) =>
  ({
    type: 'array',
    maxItems: MAX_SALE_PRODUCTS,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['productIdentifier', 'deltaUnit', 'delta', 'vat', 'netto', 'brutto'],
      properties,
    },
  }) as const;

const saleProductsV15 = saleProductsOf(saleProductV15);
const saleProductsV26 = saleProductsOf({
  ...saleProductV15,
  productBrutto: optionalMoney,
  // Whole percent on a line (hundredths of a percent in vatRateSums).
  vatRate: { type: ['integer', 'null'], minimum: 0, maximum: 100 },
  effectiveBrutto: optionalMoney,
});

const prints = {
  type: 'array',
  maxItems: MAX_PRINTS,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['printType'],
    properties: {
      receiptNumber,
      printType: { type: 'string', enum: PRINT_TYPES },
      deliveryType: { type: ['string', 'null'], enum: [...DELIVERY_TYPES, null] },
      controlNumber: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 100 },
      created: date,
      printed: { type: ['boolean', 'null'] },
    },
  },
} as const;

const paymentsIn = <const V extends ApiVersion>(version: V) =>
  ({
    type: 'array',
    maxItems: MAX_PAYMENTS,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['paymentType', 'amount'],
      properties: {
        paymentType: { type: 'string', enum: PAYMENT_TYPE_NAMES[version] },
        amount: money,
        paymentState: { type: ['string', 'null'], enum: [...PAYMENT_STATES, null] },
      },
    },
  }) as const;

const vatRateSums = {
  type: 'array',
  maxItems: MAX_VAT_RATE_SUMS,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['vatRate', 'vat', 'netto', 'brutto'],
    properties: {
      // Hundredths of a percent: 2500 is 25 %.
      vatRate: { type: 'integer', minimum: 0, maximum: 10000 },
      vanillaVat: optionalMoney,
      vanillaNetto: optionalMoney,
      vanillaBrutto: optionalMoney,
      vat: money,
      netto: money,
      brutto: money,
    },
  },
} as const;

const saleFields = {
  identifier: { type: ['string', 'null'], $ref: 'scalars#/$defs/identifier' },
  sellerIdentifier: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 32 },
  saleState: { type: 'string', enum: SALE_STATES },
  refund: { type: 'boolean' },
  refundFor: receiptNumber,
  absoluteDiscount: optionalMoney,
  relativeDiscount: optionalMoney,
  vanillaBrutto: optionalMoney,
  discount: optionalMoney,
  brutto: money,
  vat: money,
  controlUnitId: { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 20 },
  treasurer,
  close: date,
  // A training receipt (additive, every version; docs/conventions.md §16).
  training: { type: ['boolean', 'null'] },
} as const;

const saleRequired = [
  'identifier',
  'saleState',
  'refund',
  'brutto',
  'vat',
  'saleProducts',
  'payments',
  'vatRateSums',
  'prints',
] as const;

/** A sale as v15 writes it: no `day`, no line VAT rate, the v15 payment names. */
export const saleV15 = {
  $id: 'sale.v15',
  type: 'object',
  additionalProperties: false,
  required: saleRequired,
  properties: { ...saleFields, saleProducts: saleProductsV15, prints, payments: paymentsIn(15), vatRateSums },
} as const;

/** v26 adds the (read-only) `day` and three line fields. */
export const saleV26 = {
  $id: 'sale.v26',
  type: 'object',
  additionalProperties: false,
  required: saleRequired,
  properties: { ...saleFields, day: optionalInt, saleProducts: saleProductsV26, prints, payments: paymentsIn(26), vatRateSums },
} as const;

/** v33 is v26 with the v33 payment names. */
export const saleV33 = {
  $id: 'sale.v33',
  type: 'object',
  additionalProperties: false,
  required: saleRequired,
  properties: { ...saleFields, day: optionalInt, saleProducts: saleProductsV26, prints, payments: paymentsIn(33), vatRateSums },
} as const;

/**
 * A Day as POST and PUT `/days` take it (v26, v33): a register writes `closedDayTreasurer` and may close
 * the day with `opened: false`; every other field is the server's and is ignored.
 */
export const day = {
  $id: 'day',
  type: 'object',
  additionalProperties: false,
  properties: {
    id: optionalInt,
    date: optionalInt,
    dayNumber: optionalInt,
    opened: { type: ['boolean', 'null'] },
    reportPrinted: { type: ['boolean', 'null'] },
    open: date,
    close: date,
    cash: optionalInt,
    cashAtClose: optionalInt,
    grandTotal: optionalInt,
    grandTotalRefund: optionalInt,
    closedDayTreasurer: treasurer,
    version: optionalInt,
    modified: date,
  },
} as const;

/** POST `/registrations/{cash}/balance`. */
export const balanceChange = {
  $id: 'balanceChange',
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'action'],
  properties: {
    amount: money,
    action: { type: 'string', enum: BALANCE_ACTIONS },
  },
} as const;

/** Register events (docs/conventions.md §19): SKVFS 2021:16 names each field's element there. */
const eventText = { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 72 } as const;
const eventDate = { type: 'integer', $ref: 'scalars#/$defs/date' } as const;
const eventTreasurer = { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 72 } as const;
/** Units, or an amount; at most two decimals (checked in functions/fiscal/journals.ts). */
const eventQuantity = { type: 'number', minimum: -9999999999.99, maximum: 99999999999.99 } as const;
/** Hundredths of a percent: 2500 is 25 %. */
const eventVatRate = { type: 'integer', minimum: 0, maximum: 10000 } as const;

/** Discounts on one registered article. */
export const MAX_EVENT_DISCOUNTS = 20;

/**
 * An object of exactly `properties`: an unknown field is refused (`propertyNames`), not dropped as
 * `removeAdditional` would drop it.
 */
const exactly = <const P extends Record<string, object>, const R extends readonly (keyof P & string)[]>(
  properties: P,
  required: R,
) =>
  ({
    type: 'object',
    additionalProperties: false,
    required,
    properties,
    propertyNames: { enum: Object.keys(properties) },
  }) as const;
/** An object with no fields at all (`propertyNames` takes no `false` in OpenAPI 3.1 tools: only the empty name, dropped). */
const noFields = { type: 'object', additionalProperties: false, properties: {}, propertyNames: { enum: [''] } } as const;

const eventDiscounts = {
  type: 'array',
  maxItems: MAX_EVENT_DISCOUNTS,
  items: exactly({ name: eventText, amount: int }, ['amount']),
} as const;

/** What an article event says of the line (the SKVFS 2021:16 article elements). */
const articleFields = {
  lineId: eventText,
  articleType: { type: 'string', enum: ARTICLE_TYPES },
  group: eventText,
  articleNumber: eventText,
  name: eventText,
  quantity: eventQuantity,
  amount: eventText,
  unit: eventText,
  unitPrice: int,
  price: int,
  discounts: eventDiscounts,
  vatRate: eventVatRate,
  vat: int,
} as const;
const articleRequired = ['articleType', 'name', 'quantity', 'price', 'vatRate', 'vat'] as const;
/** The line as it was before a change. */
const { quantity, amount, unit, unitPrice, price, discounts, vatRate, vat } = articleFields;
const previousArticle = exactly({ quantity, amount, unit, unitPrice, price, discounts, vatRate, vat }, [
  'quantity',
  'price',
  'vatRate',
  'vat',
]);

/** Each register event's `data`. */
export const registerEventData = {
  LOGIN: noFields,
  LOGOUT: noFields,
  DRAWER_OPENED: noFields,
  CLEAR: noFields,
  TRAINING_MODE_ON: noFields,
  TRAINING_MODE_OFF: noFields,
  REGISTER_STARTED: noFields,
  REGISTER_STOPPED: noFields,
  REGISTER_RESTARTED: noFields,
  PRICE_ENQUIRY: exactly({ group: eventText, articleNumber: eventText, name: eventText, price: int }, ['name', 'price']),
  ARTICLE_REGISTERED: exactly(articleFields, articleRequired),
  ARTICLE_CHANGED: exactly({ ...articleFields, previous: previousArticle, originallyRegistered: eventDate, reason: eventText }, [
    ...articleRequired,
    'previous',
    'originallyRegistered',
  ]),
  ARTICLE_DELETED: exactly({ ...articleFields, originallyRegistered: eventDate, deletionType: eventText }, [
    ...articleRequired,
    'originallyRegistered',
  ]),
  ARTICLE_PARKED: exactly({ ...articleFields, parkingId: eventText }, articleRequired),
  PARKED_ARTICLE_CHANGED: exactly(
    { ...articleFields, previous: previousArticle, parkingId: eventText, originallyRegistered: eventDate, reason: eventText },
    [...articleRequired, 'previous', 'originallyRegistered'],
  ),
  PARKED_ARTICLE_DELETED: exactly(
    { ...articleFields, parkingId: eventText, originallyRegistered: eventDate, deletionType: eventText },
    [...articleRequired, 'originallyRegistered'],
  ),
  PARKED_ARTICLE_MOVED: exactly({ ...articleFields, parkingId: eventText, previousParkingId: eventText }, articleRequired),
  PARKING_OPENED: exactly({ parkingId: eventText }, []),
  PARKING_CLOSED: exactly({ parkingId: eventText }, []),
  CLOCK_CHANGED: exactly({ newTime: eventDate }, ['newTime']),
  OTHER_REPORT: exactly(
    { name: eventText, searchParameters: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 256 } },
    ['name', 'searchParameters'],
  ),
  CONTROL_PROGRAM_STATUS: exactly({ statusCode: eventText }, ['statusCode']),
} as const satisfies Record<RegisterEventType, object>;

/** One register event type's body: its `created` is required. */
const registerEvent = <const T extends RegisterEventType>(type: T) =>
  ({
    type: 'object',
    required: ['type', 'created', 'data'],
    properties: {
      type: { type: 'string', enum: [type] },
      created: eventDate,
      treasurer: eventTreasurer,
      data: registerEventData[type],
    },
  }) as const;

/** A device event: any JSON object as `data` (its size is checked in code). */
const deviceData = { type: 'object' } as const;

/**
 * POST `/e-journals/{cash}`: a device event (no `type`, or `DEVICE`: `data` any JSON object) or one of the
 * register events (docs/conventions.md §19), told apart by `type`.
 */
export const journalUpload = {
  $id: 'journalUpload',
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: {
    type: { type: 'string', enum: ['DEVICE', ...REGISTER_EVENT_TYPES] },
    created: eventDate,
    treasurer: eventTreasurer,
    data: deviceData,
  },
  if: { properties: { type: true }, required: ['type'] },
  then: {
    discriminator: { propertyName: 'type' },
    oneOf: [
      {
        type: 'object',
        required: ['type', 'data'],
        properties: {
          type: { type: 'string', enum: ['DEVICE'] },
          created: eventDate,
          treasurer: eventTreasurer,
          data: deviceData,
        },
      },
      registerEvent('LOGIN'),
      registerEvent('LOGOUT'),
      registerEvent('DRAWER_OPENED'),
      registerEvent('CLEAR'),
      registerEvent('TRAINING_MODE_ON'),
      registerEvent('TRAINING_MODE_OFF'),
      registerEvent('REGISTER_STARTED'),
      registerEvent('REGISTER_STOPPED'),
      registerEvent('REGISTER_RESTARTED'),
      registerEvent('PRICE_ENQUIRY'),
      registerEvent('ARTICLE_REGISTERED'),
      registerEvent('ARTICLE_CHANGED'),
      registerEvent('ARTICLE_DELETED'),
      registerEvent('ARTICLE_PARKED'),
      registerEvent('PARKED_ARTICLE_CHANGED'),
      registerEvent('PARKED_ARTICLE_DELETED'),
      registerEvent('PARKED_ARTICLE_MOVED'),
      registerEvent('PARKING_OPENED'),
      registerEvent('PARKING_CLOSED'),
      registerEvent('CLOCK_CHANGED'),
      registerEvent('OTHER_REPORT'),
      registerEvent('CONTROL_PROGRAM_STATUS'),
    ],
  },
} as const;
