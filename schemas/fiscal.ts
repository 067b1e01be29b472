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

/**
 * `schema` with its `description`: what the field is and its unit, as the API reference (docs/openapi) and the typed
 * client show it. Units: money in hundredths of the seller's currency (öre for SEK); instants (Dates) in milliseconds
 * since the epoch, UTC; business dates `yyyymmdd` in the seller's time zone. tests/unit/answer-descriptions.test.ts
 * fails on a property of the fiscal schemas without one.
 */
export const described = <const S extends object>(description: string, schema: S) => ({ ...schema, description });

/** A line's figures in every version. */
const saleProductV15 = {
  productIdentifier: described("The product's identifier in the seller's catalog (the line's article number).", {
    type: 'string',
    $ref: 'scalars#/$defs/identifier',
  }),
  deltaUnit: described('True: `delta` counts units (pieces); false: the line sells an amount of money, `delta` is that amount.', {
    type: 'boolean',
  }),
  // Units or an amount; a line of a return may count down.
  delta: described(
    'Units sold when `deltaUnit` is true, else the amount in hundredths of the currency; negative on a line that counts down (a return within a sale).',
    int,
  ),
  absoluteDiscount: described(
    'The discount the register gave on the line as an amount, in hundredths of the currency; null or absent: 0. Stored and shown as sent: the reports count `discount`.',
    optionalMoney,
  ),
  relativeDiscount: described(
    'The discount the register gave on the line as a share, as the register states it (an integer the service stores and shows but never computes with); null or absent: 0. What it took off is in `discount`.',
    optionalMoney,
  ),
  vat: described(
    "The line's VAT after its discount, in hundredths of the currency; positive (the sale's `refund` gives the direction).",
    money,
  ),
  netto: described(
    "The line's amount without VAT after its discount (`brutto - vat`), in hundredths of the currency; positive.",
    money,
  ),
  brutto: described("The line's amount with VAT after its discount, in hundredths of the currency; positive.", money),
  vanillaBrutto: described(
    "The line's amount with VAT before its discount, in hundredths of the currency; null or absent: `brutto + discount`.",
    optionalMoney,
  ),
  discount: described(
    'What the discount took off the line with VAT (`vanillaBrutto - brutto`), in hundredths of the currency; null or absent: 0.',
    optionalMoney,
  ),
  created: described('When the register registered the line: milliseconds since the epoch (UTC); null when not sent.', date),
  // What was sold, frozen at the sale (additive, every version; docs/conventions.md §16): the catalog's when absent.
  name: described(
    "The article's name as sold, frozen at the sale for receipts, reports and the auditor's export; null or absent: the catalog's product name at the write (docs/conventions.md §16).",
    { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 100 },
  ),
  group: described(
    "The name of the article's category (main group) as sold, frozen at the sale; the Z report's sales per category count by it. Null or absent: the catalog's at the write, or none.",
    { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 100 },
  ),
  articleType: described(
    "Goods or a service, frozen at the sale; the Z report counts them apart. Null or absent: the catalog's, else `GOODS`.",
    { type: ['string', 'null'], enum: [...ARTICLE_TYPES, null] },
  ),
  // Units, or weight, length or time in salesUnit; at most three decimals (checked in functions/fiscal/lines.ts).
  quantity: described(
    'How much was sold, in `salesUnit`: units, or a weight, length or time; at most three decimals. Null or absent: `delta` on a unit line, else 1.',
    { type: ['number', 'null'], minimum: -1_000_000, maximum: 1_000_000 },
  ),
  salesUnit: described(
    "The unit of `quantity` (`Piece`, `Kilogram`, `Hours`, ...; `Price`: the line is an amount). Null or absent: the catalog product's, else `Piece` on a unit line and `Price` otherwise.",
    { type: ['string', 'null'], enum: [...SALES_UNITS, null] },
  ),
  unitPrice: described(
    'The price with VAT per unit of `quantity` before discounts, in hundredths of the currency; null or absent: `productBrutto`, else worked out from `vanillaBrutto` and `quantity`.',
    optionalMoney,
  ),
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
  productBrutto: described("The product's unit price with VAT, in hundredths of the currency (v26, v33).", optionalMoney),
  // Whole percent on a line (hundredths of a percent in vatRateSums).
  vatRate: described(
    "The line's VAT rate in whole percent: 12 is 12 % (v26, v33). Unlike `vatRateSums[].vatRate`, which is in hundredths of a percent.",
    { type: ['integer', 'null'], minimum: 0, maximum: 100 },
  ),
  effectiveBrutto: described(
    "The line's amount with VAT after its own discount and its share of the sale's discounts, in hundredths of the currency (v26, v33); stored and shown as sent.",
    optionalMoney,
  ),
});

const prints = {
  type: 'array',
  maxItems: MAX_PRINTS,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['printType'],
    properties: {
      receiptNumber: described(
        "The receipt number: a Normal print takes the register's next one (a training sale's from its own series), a Copy repeats its Normal's, a Proforma has none (null). Null or absent: the server numbers it; a number sent must be that one (else 409 RECEIPT_NUMBER_OUT_OF_SEQUENCE).",
        receiptNumber,
      ),
      printType: described(
        '`Normal`: the receipt (one per sale); `Copy`: a copy of it (marked KOPIA, at most one); `Proforma`: a pro forma receipt (EJ KVITTO), no receipt number.',
        { type: 'string', enum: PRINT_TYPES },
      ),
      deliveryType: described(
        'How the print reached the customer (displayed, printed, SMS, e-mail, ...), as the register says.',
        {
          type: ['string', 'null'],
          enum: [...DELIVERY_TYPES, null],
        },
      ),
      controlNumber: described(
        "The control unit's control code for this print, from the kd request (docs/conventions.md §25); null without a control unit.",
        { type: ['string', 'null'], $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 100 },
      ),
      created: described(
        'When the print was made: milliseconds since the epoch (UTC); null or absent: when the server stored it.',
        date,
      ),
      printed: described('Whether the print came out of the printer, as the register says; null or absent: true.', {
        type: ['boolean', 'null'],
      }),
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
        paymentType: described(
          "The means of payment in this version's names (v15 and v26 `Card` and `ProviderD` are v33's `EmvStandalone` and `EmvIntegrated`).",
          { type: 'string', enum: PAYMENT_TYPE_NAMES[version] },
        ),
        amount: described(
          "The payment's amount in hundredths of the currency; positive (the sale's `refund` gives the direction). The counting payments of a Paid or Complete sale add up to its `brutto`.",
          money,
        ),
        paymentState: described(
          "The payment's state. Only a payment without one (null or absent) or `APPROVED` counts: toward the sale's `brutto`, the cash balance and the reports.",
          { type: ['string', 'null'], enum: [...PAYMENT_STATES, null] },
        ),
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
      vatRate: described(
        "The VAT rate in hundredths of a percent: 1200 is 12 %, 2500 is 25 % (the sale line's `vatRate` is in whole percent).",
        { type: 'integer', minimum: 0, maximum: 10000 },
      ),
      vanillaVat: described(
        'The VAT at this rate before discounts, in hundredths of the currency; null or absent: `vat`.',
        optionalMoney,
      ),
      vanillaNetto: described(
        'The amount without VAT at this rate before discounts, in hundredths of the currency; null or absent: `netto`.',
        optionalMoney,
      ),
      vanillaBrutto: described(
        'The amount with VAT at this rate before discounts, in hundredths of the currency; null or absent: `brutto`.',
        optionalMoney,
      ),
      vat: described(
        "The sale's VAT at this rate, in hundredths of the currency; the rates' `vat` add up to the sale's `vat`.",
        money,
      ),
      netto: described('The amount without VAT at this rate, in hundredths of the currency: `brutto - vat`.', money),
      brutto: described(
        "The amount with VAT at this rate, in hundredths of the currency; the rates' `brutto` add up to the sale's `brutto`.",
        money,
      ),
    },
  },
} as const;

const saleFields = {
  identifier: described(
    "The sale's identifier on its register, chosen by the register (a UUID, say) so that a repeated POST is recognised; null: the server chooses one.",
    { type: ['string', 'null'], $ref: 'scalars#/$defs/identifier' },
  ),
  sellerIdentifier: described("The register's own reference for the sale (an order or ticket number), searched by `like`.", {
    type: ['string', 'null'],
    $ref: 'scalars#/$defs/text',
    minLength: 1,
    maxLength: 32,
  }),
  saleState: described(
    "`Open`: not paid yet; `Paid` and `Complete`: sold, counted in the day's takings; `Cancelled`: counted only as cancelled.",
    { type: 'string', enum: SALE_STATES },
  ),
  refund: described(
    'True: a refund (a return), its amounts paid back; every amount of the sale stays positive and this gives the direction. Never changes once recorded.',
    { type: 'boolean' },
  ),
  refundFor: described(
    'A refund: the receipt number (on the same register) of the sale it refunds; a refund never takes back more than is left of it.',
    receiptNumber,
  ),
  absoluteDiscount: described(
    'The discount the register gave on the whole sale as an amount, in hundredths of the currency; null or absent: 0. Stored and shown as sent: the reports count `discount`.',
    optionalMoney,
  ),
  relativeDiscount: described(
    'The discount the register gave on the whole sale as a share, as the register states it (an integer the service stores and shows but never computes with); null or absent: 0.',
    optionalMoney,
  ),
  vanillaBrutto: described(
    "The sale's amount with VAT before discounts, in hundredths of the currency; null or absent: `brutto + discount`.",
    optionalMoney,
  ),
  discount: described(
    "Everything discounted on the sale with VAT (`vanillaBrutto - brutto`), in hundredths of the currency; null or absent: 0. The Z report's `discounts` sum it.",
    optionalMoney,
  ),
  brutto: described(
    "The sale's total with VAT, in hundredths of the currency (öre for SEK); positive, `refund` gives the direction. Equals the sum of `vatRateSums[].brutto` and, once Paid, of the counting payments.",
    money,
  ),
  vat: described("The sale's VAT, in hundredths of the currency; positive. Equals the sum of `vatRateSums[].vat`.", money),
  controlUnitId: described(
    "The control unit the register names for the sale, as sent (the one that signs is the activation's).",
    {
      type: ['string', 'null'],
      $ref: 'scalars#/$defs/text',
      minLength: 1,
      maxLength: 20,
    },
  ),
  treasurer: described("The identifier of the treasurer (cashier) who made the sale, in the seller's treasurers.", treasurer),
  close: described(
    'When the sale was completed: milliseconds since the epoch (UTC). It dates the sale: the day it is recorded in and its hour in the statistics; null: when the server recorded it.',
    date,
  ),
  // A training receipt (additive, every version; docs/conventions.md §16).
  training: described(
    "A training receipt (ÖVNINGSKVITTO), numbered in its own series: counted only in the reports' `training`, in no takings, total or grand total (docs/conventions.md §16).",
    { type: ['boolean', 'null'] },
  ),
} as const;

/** v26, v33: the sale's day (read-only but for a new sale: docs/conventions.md §15). */
const saleDay = described(
  "The `dayNumber` of the register's trading day the sale is recorded in (v26, v33), set by the server. A new sale that names it is held to it: only the open day takes it.",
  optionalInt,
);

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

const saleLists = {
  saleProducts: 'The lines: what was sold, at most 500.',
  prints:
    "The prints of the sale's receipt, oldest first, at most 50: its Normal receipt, its one Copy, Proformas. Stored prints never change; a write sends them first, as stored.",
  payments:
    'The payments, at most 20: split tenders and declined attempts included (only those without a state or APPROVED count).',
  vatRateSums: "The sale's amounts per VAT rate, at most 10; they add up to the sale's `brutto` and `vat`.",
} as const;

/** The four lists of a sale, described. */
const listsOf = <const L extends object, const P extends object>(saleProducts: L, payments: P) => ({
  saleProducts: described(saleLists.saleProducts, saleProducts),
  prints: described(saleLists.prints, prints),
  payments: described(saleLists.payments, payments),
  vatRateSums: described(saleLists.vatRateSums, vatRateSums),
});

/** A sale as v15 writes it: no `day`, no line VAT rate, the v15 payment names. */
export const saleV15 = {
  $id: 'sale.v15',
  type: 'object',
  additionalProperties: false,
  required: saleRequired,
  properties: { ...saleFields, ...listsOf(saleProductsV15, paymentsIn(15)) },
} as const;

/** v26 adds the (read-only) `day` and three line fields. */
export const saleV26 = {
  $id: 'sale.v26',
  type: 'object',
  additionalProperties: false,
  required: saleRequired,
  properties: { ...saleFields, day: saleDay, ...listsOf(saleProductsV26, paymentsIn(26)) },
} as const;

/** v33 is v26 with the v33 payment names. */
export const saleV33 = {
  $id: 'sale.v33',
  type: 'object',
  additionalProperties: false,
  required: saleRequired,
  properties: { ...saleFields, day: saleDay, ...listsOf(saleProductsV26, paymentsIn(33)) },
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
    id: described("The day's id in lists: its `dayNumber`. Server's; ignored in a body.", optionalInt),
    date: described(
      "The business date as the integer `yyyymmdd` (20261127), in the seller's time zone (SE: Europe/Stockholm), not UTC. Server's; ignored in a body.",
      optionalInt,
    ),
    dayNumber: described(
      "The day's number on its register: 1, 2, 3, ... without gaps; a Z report's number. Server's; ignored in a body.",
      optionalInt,
    ),
    opened: described('True while the day is open. In a body, `false` closes the open day; absent or true keeps it open.', {
      type: ['boolean', 'null'],
    }),
    reportPrinted: described("Whether the day's Z report has been printed (once). Server's; ignored in a body.", {
      type: ['boolean', 'null'],
    }),
    open: described("When the day opened: milliseconds since the epoch (UTC). Server's; ignored in a body.", date),
    close: described(
      "When the day closed: milliseconds since the epoch (UTC); null while open. Server's; ignored in a body.",
      date,
    ),
    cash: described(
      "The cash that should be in the drawer, in hundredths of the currency: the day's deposits + cash payments of sales - cash paid back for refunds - withdrawals (docs/conventions.md §18); training receipts not included. Server's; ignored in a body.",
      optionalInt,
    ),
    cashAtClose: described(
      "`cash` as it was when the day closed, in hundredths of the currency; null while open. Server's; ignored in a body.",
      optionalInt,
    ),
    grandTotal: described(
      "The register's grand total at the close: the brutto of every Paid or Complete sale since its first day, this day's included, refunds and training receipts not, in hundredths of the currency; null while open. Server's; ignored in a body.",
      optionalInt,
    ),
    grandTotalRefund: described(
      "The register's refunds at the close: the brutto of every Paid or Complete refund since its first day, this day's included, in hundredths of the currency (positive); null while open. Server's; ignored in a body.",
      optionalInt,
    ),
    closedDayTreasurer: described('The identifier of the treasurer who closes the day: what a body writes.', treasurer),
    version: described("The register's record version at the day's last change. Server's; ignored in a body.", optionalInt),
    modified: described("When the day last changed: milliseconds since the epoch (UTC). Server's; ignored in a body.", date),
  },
} as const;

/** POST `/registrations/{cash}/balance`. */
export const balanceChange = {
  $id: 'balanceChange',
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'action'],
  properties: {
    amount: described(
      'The cash put into or taken out of the drawer, in hundredths of the currency; positive (`action` gives the direction).',
      money,
    ),
    action: described('`DEPOSIT`: cash put in (the float); `WITHDRAWAL`: cash taken out, at most the balance.', {
      type: 'string',
      enum: BALANCE_ACTIONS,
    }),
  },
} as const;

/** An export job's period (docs/conventions.md §28): Dates, either left out to leave that side open. */
export const journalExportOrder = {
  $id: 'journalExportOrder',
  type: 'object',
  additionalProperties: false,
  properties: {
    from: described("A Date: the first instant exported (absent: the journal's start).", {
      type: 'integer',
      $ref: 'scalars#/$defs/date',
    }),
    to: described('A Date: the last instant exported (absent: the time the export is made).', {
      type: 'integer',
      $ref: 'scalars#/$defs/date',
    }),
  },
} as const;

/**
 * A sales CSV export job's parameters (docs/conventions.md §28): `GET /{sellerId}/sales/stats/csv`'s query parameters,
 * with their meaning (§20).
 */
export const salesCsvExportOrder = {
  $id: 'salesCsvExportOrder',
  type: 'object',
  additionalProperties: false,
  properties: {
    period: described(
      "Days ending on the day the export is asked for, in the seller's time zone: 1 to 36,600 (default 1), refused as the GET refuses it.",
      { type: 'integer' },
    ),
    from: described('A Date: the first day covered (instead of period).', { type: 'integer' }),
    to: described('A Date: the last day covered (instead of period).', { type: 'integer' }),
    cashRegisterName: described('Only this register.', { type: 'string', $ref: 'scalars#/$defs/text' }),
    fileName: described('The name of the file, without .csv (an identifier; default `sales`).', {
      type: 'string',
      $ref: 'scalars#/$defs/identifier',
    }),
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
  items: exactly(
    {
      name: described("The discount's name (BenamningPaRabatt).", eventText),
      amount: described('The amount the discount took off, in hundredths of the currency (RabattensBelopp).', int),
    },
    ['amount'],
  ),
} as const;

/** What an article event says of the line (the SKVFS 2021:16 article elements). */
const articleFields = {
  lineId: described(
    "The register's identifier of the line the article is registered on (IdentitetsbeteckningForRegistreringAvArtiklar).",
    eventText,
  ),
  articleType: described('Goods or a service (TypAvArtikel).', { type: 'string', enum: ARTICLE_TYPES }),
  group: described("The name of the article's main group (NamnPaHuvudgrupp).", eventText),
  articleNumber: described('The article number (Artikelnummer).', eventText),
  name: described("The article's name (Artikelnamn).", eventText),
  quantity: described(
    'How many: units, or the amount of a weight, length, time or volume; at most two decimals, negative to count down (AntalAvRegistreradArtikel).',
    eventQuantity,
  ),
  amount: described(
    'The amount of a weighed or measured article as printed, a text (`"0,125"`; MangdAvRegistreradArtikel). Not money: the price is `price`.',
    eventText,
  ),
  unit: described('The unit of `amount`, a text (`"kg"`; EnhetForViktLangdTidEllerVolym).', eventText),
  unitPrice: described('The price per unit with VAT, in hundredths of the currency (PrisPerEnhet).', int),
  price: described("The line's price with VAT, in hundredths of the currency (PrisPaRegistreradArtikel).", int),
  discounts: described('The discounts on the line, at most 20 (RabatterPaRegistreradArtikelLISTA).', eventDiscounts),
  vatRate: described(
    'The VAT rate in hundredths of a percent: 1200 is 12 % (MervardesskattesatsForRegistreradArtikel).',
    eventVatRate,
  ),
  vat: described("The line's VAT in hundredths of the currency (MervardesskattPaRegistreradArtikel).", int),
} as const;
const articleRequired = ['articleType', 'name', 'quantity', 'price', 'vatRate', 'vat'] as const;
/** The line as it was before a change. */
const { quantity, amount, unit, unitPrice, price, discounts, vatRate, vat } = articleFields;
const previousArticle = described(
  "The line's figures before the change, with the same units.",
  exactly({ quantity, amount, unit, unitPrice, price, discounts, vatRate, vat }, ['quantity', 'price', 'vatRate', 'vat']),
);

const parkingId = described('The identifier of the parking the article is in (IdentitetsbeteckningPaParkering).', eventText);
const originallyRegistered = described('When the article was first registered: milliseconds since the epoch (UTC).', eventDate);
const reason = described('Why the article was changed, a text (OrsakTillAndring).', eventText);
const deletionType = described('How the article was deleted, a text (TypAvRadering).', eventText);

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
  PRICE_ENQUIRY: exactly(
    {
      group: articleFields.group,
      articleNumber: articleFields.articleNumber,
      name: articleFields.name,
      price: described('The price shown, with VAT, in hundredths of the currency (PrisPaEfterfragadArtikel).', int),
    },
    ['name', 'price'],
  ),
  ARTICLE_REGISTERED: exactly(articleFields, articleRequired),
  ARTICLE_CHANGED: exactly({ ...articleFields, previous: previousArticle, originallyRegistered, reason }, [
    ...articleRequired,
    'previous',
    'originallyRegistered',
  ]),
  ARTICLE_DELETED: exactly({ ...articleFields, originallyRegistered, deletionType }, [
    ...articleRequired,
    'originallyRegistered',
  ]),
  ARTICLE_PARKED: exactly({ ...articleFields, parkingId }, articleRequired),
  PARKED_ARTICLE_CHANGED: exactly({ ...articleFields, previous: previousArticle, parkingId, originallyRegistered, reason }, [
    ...articleRequired,
    'previous',
    'originallyRegistered',
  ]),
  PARKED_ARTICLE_DELETED: exactly({ ...articleFields, parkingId, originallyRegistered, deletionType }, [
    ...articleRequired,
    'originallyRegistered',
  ]),
  PARKED_ARTICLE_MOVED: exactly(
    {
      ...articleFields,
      parkingId,
      previousParkingId: described(
        'The parking the article was moved from (IdentitetsbeteckningForTidigareParkering).',
        eventText,
      ),
    },
    articleRequired,
  ),
  PARKING_OPENED: exactly({ parkingId }, []),
  PARKING_CLOSED: exactly({ parkingId }, []),
  CLOCK_CHANGED: exactly(
    {
      newTime: described(
        "The register clock's new time: milliseconds since the epoch (UTC) (NyTidVidOmstallningAvKlockan).",
        eventDate,
      ),
    },
    ['newTime'],
  ),
  OTHER_REPORT: exactly(
    {
      name: described("The report's name (NamnPaOvrigRapport).", eventText),
      searchParameters: described('What the report was asked for, a text of 1 to 256 characters (Sokparameter).', {
        type: 'string',
        $ref: 'scalars#/$defs/text',
        minLength: 1,
        maxLength: 256,
      }),
    },
    ['name', 'searchParameters'],
  ),
  CONTROL_PROGRAM_STATUS: exactly(
    { statusCode: described("The control program's status code (StatuskodFranKontrollprogrammet).", eventText) },
    ['statusCode'],
  ),
} as const satisfies Record<RegisterEventType, object>;

/** One register event type's body: its `created` is required. */
const registerEvent = <const T extends RegisterEventType>(type: T) =>
  ({
    type: 'object',
    required: ['type', 'created', 'data'],
    properties: {
      type: described('The register event.', { type: 'string', enum: [type] }),
      created: eventCreated,
      treasurer: eventTreasurerDescribed,
      data: described(`What the ${type} event says (docs/conventions.md §19).`, registerEventData[type]),
    },
  }) as const;

const eventCreated = described(
  "When the event happened on the register: milliseconds since the epoch (UTC); required for a register event, at most 5 minutes ahead of the server and not before the latest closed day's close.",
  eventDate,
);
const eventTreasurerDescribed = described("Who did it: the treasurer's name or identifier, 1 to 72 characters.", eventTreasurer);

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
    type: described(
      '`DEVICE` or absent: a device event, `data` any JSON object; else the register event (docs/conventions.md §19).',
      {
        type: 'string',
        enum: ['DEVICE', ...REGISTER_EVENT_TYPES],
      },
    ),
    created: eventCreated,
    treasurer: eventTreasurerDescribed,
    data: described(
      "A device event's data (any JSON object of at most 8192 bytes as canonical JSON), or the register event's fields.",
      deviceData,
    ),
  },
  if: { properties: { type: true }, required: ['type'] },
  then: {
    discriminator: { propertyName: 'type' },
    oneOf: [
      {
        type: 'object',
        required: ['type', 'data'],
        properties: {
          type: described('A device event.', { type: 'string', enum: ['DEVICE'] }),
          created: described('When it happened, milliseconds since the epoch (UTC), if the device says.', eventDate),
          treasurer: eventTreasurerDescribed,
          data: described('Any JSON object of at most 8192 bytes as canonical JSON, kept as sent.', deviceData),
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
