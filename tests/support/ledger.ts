/**
 * Inputs of the register's pure fiscal decisions (docs/conventions.md §15-§17): a register, its ledger state, its
 * stored sales and days, and a reader over a list of items. Figures are written by hand: a sale of 125.00 kr at 25 %.
 */
import { type Key } from '#shared/db/keys.ts';
import type { Item } from '#shared/db/reads.ts';
import type { Stored } from '#shared/db/streams.ts';
import { ApiError } from '#shared/errors.ts';
import {
  dayKey,
  type DayRecord,
  EMPTY_LEDGER,
  type Ledger,
  type LedgerState,
  type Reader,
  saleKey,
  type Writer,
} from '#shared/fiscal/ledger.ts';
import type { Print, Sale, SaleProduct } from '#shared/fiscal/model.ts';
import { dayTotals, emptyTotals, type Totals } from '#shared/fiscal/totals.ts';
import { type KdClaim, kdKeys } from '#shared/kd/records.ts';
import { activationOf, storedAs } from './decisions.ts';
import { activationKeys } from '#shared/domain/records.ts';

export const STOCKHOLM = 'Europe/Stockholm';
/** 2026-07-01 12:00 in Stockholm (UTC+2): business date 20260701. */
export const NOW = Date.UTC(2026, 6, 1, 10, 0);
export const TODAY = 20260701;
/** 2026-07-02 12:00 in Stockholm: the next business date. */
export const TOMORROW = NOW + 24 * 3_600_000;

export const writer: Writer = { sellerId: 'SE5560360793', cash: 'Kassa 1', activationId: 11 };

/** One coffee of 125.00 kr, 25.00 kr of it VAT, its facts frozen (so no catalog is read). */
export const line = (fields: Partial<SaleProduct> = {}): SaleProduct => ({
  productIdentifier: 'P1',
  deltaUnit: true,
  delta: 1,
  absoluteDiscount: 0,
  relativeDiscount: 0,
  vat: 2500,
  netto: 10000,
  brutto: 12500,
  vanillaBrutto: 12500,
  discount: 0,
  name: 'Kaffe',
  group: 'Dryck',
  articleType: 'GOODS',
  quantity: 1,
  salesUnit: 'Piece',
  unitPrice: 12500,
  ...fields,
});

/** A Paid sale of 125.00 kr at 25 %, paid in cash, not printed: its figures add up. */
export const saleContent = (fields: Partial<Sale> = {}): Omit<Sale, 'identifier' | 'day' | 'postDigest'> => ({
  saleState: 'Paid',
  refund: false,
  refundFor: null,
  absoluteDiscount: 0,
  relativeDiscount: 0,
  vanillaBrutto: 12500,
  discount: 0,
  brutto: 12500,
  vat: 2500,
  saleProducts: [line()],
  prints: [],
  payments: [{ paymentType: 'Cash', amount: 12500 }],
  vatRateSums: [
    { vatRate: 2500, vanillaVat: 2500, vanillaNetto: 10000, vanillaBrutto: 12500, vat: 2500, netto: 10000, brutto: 12500 },
  ],
  ...fields,
});

/** A sale as stored in day `day` (3 unless told), recorded at NOW. */
export const storedSale = (identifier: string, fields: Partial<Sale> = {}): Stored<Sale> & Key =>
  storedAs<Sale>(
    { ...saleContent(), identifier, day: 3, recorded: NOW - 60_000, postDigest: 'digest-A', ...fields },
    { ...saleKey(writer, identifier), version: 11 },
  );

export const normal = (receiptNumber: number, fields: Partial<Print> = {}): Print => ({
  printType: 'Normal',
  receiptNumber,
  created: NOW - 30_000,
  printed: true,
  ...fields,
});

/** The totals of a day item with some figures set by hand (the rest zero). */
export const totalsWith = (fields: Partial<Totals> = {}) => dayTotals({ ...emptyTotals(), ...fields });

/** Day `dayNumber` of the register as stored: open (unless told) since this morning, dated today, no sales. */
export const storedDay = (fields: Partial<DayRecord> = {}): Stored<DayRecord> & Key => {
  const day: DayRecord = {
    dayNumber: 3,
    date: TODAY,
    opened: true,
    reportPrinted: false,
    open: NOW - 3 * 3_600_000,
    close: null,
    cash: 0,
    cashAtClose: null,
    grandTotal: null,
    grandTotalRefund: null,
    closedDayTreasurer: null,
    totals: totalsWith(),
    openVersion: 9,
    ...fields,
  };
  return storedAs<DayRecord>(day, { ...dayKey(writer, day.dayNumber), version: 12 });
};

/** The ledger's summary of a stored day. */
export const latestOf = (day: DayRecord): NonNullable<Ledger['day']> => ({
  dayNumber: day.dayNumber,
  date: day.date,
  opened: day.opened,
  reportPrinted: day.reportPrinted,
});

/**
 * The register at version 12: 6 receipts printed, 2 training receipts, 1 000.00 kr sold and 50.00 kr refunded so far;
 * its latest day `day` (day 3, open, unless told; `null`: the register never opened one).
 */
export const ledgerState = (day: (Stored<DayRecord> & Key) | null = storedDay(), ledger: Partial<Ledger> = {}): LedgerState => ({
  version: 12,
  ledger: {
    ...EMPTY_LEDGER,
    receipt: 6,
    training: 2,
    grand: { sales: 100000, refunds: 5000 },
    ...(day ? { day: latestOf(day) } : {}),
    ...ledger,
  },
  day: day ?? undefined,
});

/** An item as the ledger's read returns it. */
export type LedgerItem = Key & object;

/** A read of the items given, by key, as the ledger's BatchGet answers. */
export const reader =
  (...items: readonly LedgerItem[]): Reader =>
  <T>(key: Key<T>) =>
    items.find((item) => item.pk === key.pk && item.sk === key.sk) as Item<T> | undefined;

/** The register's activation, with a control unit when `serial` is given. */
export const activationItem = (serial: string | null = null) => ({
  ...activationKeys.activation(writer.activationId),
  ...activationOf({ id: writer.activationId, controlUnitSerial: serial }),
});

/** A kd claim the unit signed with `code` for a sale of 125.00 kr (docs/conventions.md §25). */
export const signedClaim = (receiptNumber: number, printType: string, code: string): KdClaim & Key => ({
  ...kdKeys.claim(writer.sellerId, writer.cash, receiptNumber, printType),
  receiptNumber,
  printType: printType as KdClaim['printType'],
  serial: 'CU1',
  command: {
    date: '202607011200',
    org: '5560360793',
    registerId: 'KASSA1',
    receiptNo: receiptNumber,
    type: 'normal',
    returnAmount: 0,
    salesAmount: 12500,
    vat: [{ rate: 2500, amount: 2500 }],
  },
  state: 'SIGNED',
  correlationId: 'c1',
  deadline: NOW,
  controlCode: code,
  request: { activation: 11, brutto: 12500, kdDate: NOW, vatRateToSum: { '25': 12500 }, refund: false, softwareVendor: 3 },
  timedOut: false,
  created: NOW - 10_000,
  updated: NOW - 5_000,
});

/** What a refusal carries beyond its code (`details[0]` of the error body). */
export function detailsOf(act: () => unknown): Record<string, unknown> {
  try {
    act();
  } catch (error) {
    if (error instanceof ApiError) return error.details;
    throw error;
  }
  throw new Error('expected a refusal, but the decision went through');
}
