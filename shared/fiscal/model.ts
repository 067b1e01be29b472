/**
 * The canonical fiscal records of a register (spec 2.3 Sale and Day; docs/conventions.md §14): one stored
 * form, shown and written through each API version's view. Money is integer hundredths; times are
 * milliseconds since the epoch; business dates are `yyyymmdd` integers in the seller's time zone.
 */

export const SALE_STATES = ['Open', 'Paid', 'Cancelled', 'Complete'] as const;
export type SaleState = (typeof SALE_STATES)[number];

export const PRINT_TYPES = ['Normal', 'Copy', 'Proforma'] as const;
export type PrintType = (typeof PRINT_TYPES)[number];

/** What a kd came to, as the Kd log and the e-journal record it. */
export const KD_LOG_OUTCOMES = [
  'SIGNED',
  'REFUSED',
  'COMMUNICATION',
  'UNAVAILABLE',
  'TIMEOUT',
  'OFFLINE',
  'REQUIRES_SETUP',
] as const;
export type KdLogOutcome = (typeof KD_LOG_OUTCOMES)[number];

export const DELIVERY_TYPES = ['Display', 'Print', 'SMS', 'Email', 'Discard', 'Journal'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

/**
 * Payment types, spelt as v33 spells them. v15 and v26 name the same seven by position:
 * `Card` is `EmvStandalone` and `ProviderD` is `EmvIntegrated` (spec 2.2; `payment-types.ts`).
 */
export const PAYMENT_TYPES = [
  'Cash',
  'EmvStandalone',
  'WalletA',
  'ProviderB',
  'ProviderC',
  'EmvIntegrated',
  'ClosePayment',
] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export const PAYMENT_STATES = [
  'SENDING',
  'SENDING_FAILED',
  'PENDING',
  'APPROVED',
  'REJECTED',
  'PAUSED',
  'CANCELLED',
  'CHARGE_FAILED',
  'CHARGE_UNKNOWN',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export const BALANCE_ACTIONS = ['DEPOSIT', 'WITHDRAWAL'] as const;
export type BalanceAction = (typeof BALANCE_ACTIONS)[number];

/** Goods or services: a product's kind, frozen on each sale line; the Z report counts them apart (docs/conventions.md §16). */
export const ARTICLE_TYPES = ['GOODS', 'SERVICE'] as const;
export type ArticleType = (typeof ARTICLE_TYPES)[number];

export interface SaleProduct {
  productIdentifier: string;
  /** True: `delta` counts units; false: `delta` is an amount of money. */
  deltaUnit: boolean;
  delta: number;
  absoluteDiscount: number;
  relativeDiscount: number;
  vat: number;
  netto: number;
  brutto: number;
  vanillaBrutto: number;
  discount: number;
  created?: number | null;
  /** v26/v33: the unit price, the VAT rate in whole percent, and the line's brutto after the sale's discounts. */
  productBrutto?: number | null;
  vatRate?: number | null;
  effectiveBrutto?: number | null;
  /**
   * What the line sold, frozen at the sale so that a receipt, a report and the auditor's export show it whatever the
   * catalog says later (docs/conventions.md §16): sent by the register, or filled from the catalog at the write.
   * Absent on lines stored before they were kept.
   */
  name?: string | null;
  /** The name of the product's category, or null. */
  group?: string | null;
  articleType?: ArticleType | null;
  /** Units, or the weight, length or time in `salesUnit`, up to three decimals. */
  quantity?: number | null;
  salesUnit?: SalesUnit | null;
  /** Brutto per unit of `quantity` before discounts, in hundredths. */
  unitPrice?: number | null;
}

export const SALES_UNITS = ['Piece', 'Price', 'Kilogram', 'Hektogram', 'Meters', 'Centimeters', 'Hours', 'Minutes'] as const;
export type SalesUnit = (typeof SALES_UNITS)[number];

export interface Print {
  /** The Normal print's number, repeated by its Copies; null for a Proforma. */
  receiptNumber: number | null;
  printType: PrintType;
  deliveryType?: DeliveryType | null;
  /** The control unit's code for this print (docs/conventions.md §16); null without a control unit. */
  controlNumber?: string | null;
  created?: number | null;
  printed?: boolean | null;
  /**
   * The Normal print's digital-receipt token (`GET /noauth/receipts/{token}`): 128 random bits, base64url; the
   * server's, never in a sale's view nor written by a register.
   */
  receiptToken?: string | null;
}

export interface Payment {
  paymentType: PaymentType;
  amount: number;
  paymentState?: PaymentState | null;
}

export interface VatRateSum {
  /** Hundredths of a percent in every version (2500 = 25 %). */
  vatRate: number;
  vanillaVat: number;
  vanillaNetto: number;
  vanillaBrutto: number;
  vat: number;
  netto: number;
  brutto: number;
}

/** A sale as stored (without the stream's stamp). Amounts are positive; `refund` gives the direction. */
export interface Sale {
  identifier: string;
  sellerIdentifier?: string | null;
  saleState: SaleState;
  refund: boolean;
  /** The original's receipt number on the same register. */
  refundFor?: number | null;
  absoluteDiscount: number;
  relativeDiscount: number;
  vanillaBrutto: number;
  discount: number;
  brutto: number;
  vat: number;
  controlUnitId?: string | null;
  treasurer?: string | null;
  close?: number | null;
  /** A training receipt (ÖVNINGSKVITTO): counted only in the reports' training item, never in takings (docs/conventions.md §16). */
  training?: boolean | null;
  saleProducts: SaleProduct[];
  prints: Print[];
  payments: Payment[];
  vatRateSums: VatRateSum[];
  /** The day it was recorded in (its `dayNumber`); set by the server. */
  day: number;
  /** When the server first recorded it (ms since the epoch): the time of a sale without `close`. Absent on sales stored before it was kept. */
  recorded?: number | null;
  /** SHA-256 (hex) of the canonical JSON of the body that first created it: a repeated POST is compared with it (docs/conventions.md §15). */
  postDigest?: string | null;
}

/** A register's trading day (docs/conventions.md §17). Its identifier is its `dayNumber`. */
export interface Day {
  dayNumber: number;
  /** The business date, `yyyymmdd` in the seller's time zone. */
  date: number;
  opened: boolean;
  reportPrinted: boolean;
  open: number;
  close?: number | null;
  /** The running cash balance (docs/conventions.md §18). */
  cash: number;
  cashAtClose?: number | null;
  /** The register's cumulative sales and refunds since its first day, frozen at close. */
  grandTotal?: number | null;
  grandTotalRefund?: number | null;
  closedDayTreasurer?: string | null;
}
