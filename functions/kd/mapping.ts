/**
 * A kd body -> the kd command its unit registers (docs/conventions.md §25), pure: print type, amounts and their
 * direction, VAT rates, the receipt's local time, the seller's org number and the register's id at its unit.
 */
import type { KdBody } from '#schemas/types.ts';
import { controlUnitReceipt, inconsistentData, nonUnique, valueNotValid } from '#shared/errors.ts';
import { wallClock } from '#shared/fiscal/dates.ts';
import { PRINT_TYPES, type PrintType } from '#shared/fiscal/model.ts';
import { parseHundredths } from '#shared/hundredths.ts';
import { KdFieldError, type KdRequest, type KdType, registerIdOf, validateKdRequest } from '#shared/kd/codec.ts';
import type { ApiVersion } from '#shared/versions.ts';

export const KD_TYPE_OF: Readonly<Record<PrintType, KdType>> = { Normal: 'normal', Copy: 'kopia', Proforma: 'profo' };

/** What a kd names besides its body: the seller's org number, the register's id at its unit, the seller's time zone. */
export interface KdContext {
  org: string;
  registerId: string;
  timeZone: string;
}

/** A field of the command that comes from stored data, not the body: the unit would refuse it, so it is never sent. */
function refusedField(error: unknown): never {
  if (error instanceof KdFieldError) {
    throw controlUnitReceipt(error.message, { returnCode: error.returnCode, field: error.field });
  }
  throw error;
}

/**
 * The seller's org number at its unit: the corporate id of its seller id (`SE5560360793` -> `5560360793`; a
 * hyphen, as in `556036-0793`, is dropped). Anything but ten digits is refused as the unit would refuse it.
 */
export function orgOf(sellerId: string): string {
  const org = sellerId.slice(2).replace('-', '');
  if (!/^\d{10}$/.test(org))
    refusedField(new KdFieldError('org', `the seller's corporate id ${sellerId.slice(2)} is not 10 digits`));
  return org;
}

/** The register's id at its unit (`registerIdOf`); a name without a letter or digit has none. */
export function registerIdFor(cashRegisterName: string): string {
  try {
    return registerIdOf(cashRegisterName);
  } catch (error) {
    return refusedField(error);
  }
}

/**
 * A kd in the service's one form, whatever version and habit sent it (docs/conventions.md §25): what the unit signs
 * (the receipt's amount and its VAT per rate) and what places it (print type, training, direction, time, number).
 */
export interface KdOrder {
  printType: PrintType;
  training: boolean;
  refund: boolean;
  /** The receipt's time as the register sent it (epoch ms). */
  date: number;
  /** Named by v26 and v33; v15 may leave it null (`receiptNumberOf`). */
  receiptNumber: number | null;
  /** The receipt's amount in hundredths, absolute (`refund` gives the direction). */
  brutto: number;
  /**
   * The receipt's VAT per rate, highest rate first: `key` the rate in percent as the register wrote it (`6`, `12.5`),
   * `rate` in hundredths of a percent, `amount` in hundredths.
   */
  vat: readonly KdOrderVat[];
}

export interface KdOrderVat {
  key: string;
  rate: number;
  amount: number;
  /** The gross at the rate when the register sent it (no `brutto`), else null: a cloud unit registers the net. */
  gross: number | null;
}

/**
 * A kd body in the one form. With `brutto` (every version; the srv4pos habit of docs/compatibility.md) `vatRateToSum`
 * holds the VAT amount per rate, and the amounts must fit `brutto` (`checkVatFits`); without it (v26, v33 as the
 * specification lists them) `vatRateToSum` holds the gross per rate, and the VAT is each gross's. A print type may be
 * its position in `PRINT_TYPES` (0, 1, 2), as a client that writes enums as numbers sends it.
 */
export function kdOrderOf(body: KdBody): KdOrder {
  const rates = Object.entries(body.vatRateToSum).map(([key, sum]) => ({ key, rate: rateOf(key), sum }));
  const seen = new Set<number>();
  for (const { key, rate } of rates) {
    if (seen.has(rate)) throw nonUnique(`vatRateToSum names the rate ${key} % twice`);
    seen.add(rate);
  }
  const brutto = body.brutto ?? null;
  if (brutto !== null) checkVatFits(brutto, rates);
  return {
    printType: typeof body.printType === 'number' ? PRINT_TYPES[body.printType] : body.printType,
    training: body.training === true,
    refund: body.refund,
    date: body.date,
    receiptNumber: body.receiptNumber ?? null,
    brutto: brutto ?? rates.reduce((total, { sum }) => total + sum, 0),
    vat: rates
      .map(({ key, rate, sum }) => ({
        key,
        rate,
        amount: brutto === null ? vatIn(sum, rate) : sum,
        gross: brutto === null ? sum : null,
      }))
      .sort((a, b) => b.rate - a.rate),
  };
}

/** A VAT rate key (`25`, `12.5`, `6.00`: percent) in hundredths of a percent. */
export const rateOf = (key: string): number => parseHundredths(key, '.');

/** The VAT in `brutto` at `rate` (hundredths of a percent), rounded half up to the hundredth. */
export function vatIn(brutto: number, rate: number): number {
  const divisor = 10_000 + rate;
  return Math.floor((2 * brutto * rate + divisor) / (2 * divisor));
}

/** The most lines a receipt has (a sale's `saleProducts`, schemas/fiscal.ts), each VAT rounded by at most half a hundredth. */
export const MAX_RECEIPT_LINES = 500;

/** `numerator / denominator` rounded up, for non-negative integers, exactly. */
const divideUp = (numerator: number, denominator: number) =>
  (numerator - (numerator % denominator)) / denominator + (numerator % denominator === 0 ? 0 : 1);

/**
 * The least gross that can carry `vat` at `rate` (hundredths of a percent): the greater of two bounds that every receipt
 * of at most `MAX_RECEIPT_LINES` lines meets, its VAT rounded half up line by line or on the rate's total. Each
 * hundredth of VAT needs at least the least line that rounds to one (`divideUp(10000 + rate, 2 rate)`); and rounding
 * adds at most half a hundredth a line to the exact VAT, gross × rate / (10000 + rate).
 */
export function leastGrossFor(vat: number, rate: number): number {
  if (vat === 0) return 0;
  if (rate === 0) return Infinity;
  const divisor = 10_000 + rate;
  const byLines = vat * divideUp(divisor, 2 * rate);
  const beyondRounding = 2 * vat - MAX_RECEIPT_LINES;
  const byRounding = beyondRounding > 0 ? divideUp(beyondRounding * divisor, 2 * rate) : 0;
  return Math.max(byLines, byRounding);
}

/**
 * VAT amounts fit `brutto` when the least gross each needs at its rate, summed, is within it (what is left is sold
 * without VAT). Otherwise no receipt can carry them, and the unit would sign a wrong record: 409 SALE_TOTALS_INCONSISTENT.
 */
function checkVatFits(brutto: number, rates: readonly { key: string; rate: number; sum: number }[]): void {
  const least = rates.reduce((total, { rate, sum }) => total + leastGrossFor(sum, rate), 0);
  if (least <= brutto) return;
  const named = rates.map(({ key, sum }) => `${sum} at ${key} %`).join(', ');
  throw inconsistentData(
    'SALE_TOTALS_INCONSISTENT',
    `VAT ${named} needs a gross of at least ${Number.isFinite(least) ? least : 'more than any'}, above brutto ${brutto}`,
    { relation: 'vatRateToSum (VAT per rate) fits brutto' },
  );
}

/**
 * An instant's local time in the seller's time zone as digits: `YYYYMMDDhhmm` for a unit's kd line, with `seconds`
 * `YYYYMMDDhhmmss` for a cloud unit's `DateTime`.
 */
export function kdDate(instant: number, timeZone: string, seconds = false): string {
  const { year, month, day, hour, minute, second } = wallClock(instant, timeZone);
  return [year, month, day, hour, minute, ...(seconds ? [second] : [])]
    .map((part, index) => String(part).padStart(index === 0 ? 4 : 2, '0'))
    .join('');
}

/**
 * The receipt number a kd is for. v26 and v33 name it. v15 may leave it null: a Normal or Proforma kd is then for
 * the register's next receipt number (`lastReceipt` + 1, the one its next Normal print takes), a Copy for its
 * last one; a Copy before any receipt is refused.
 */
export function receiptNumberOf(order: KdOrder, version: ApiVersion, lastReceipt: number): number {
  if (order.receiptNumber !== null) return order.receiptNumber;
  if (version !== 15 || (order.printType === 'Copy' && lastReceipt === 0)) {
    throw valueNotValid('SHOULD_NOT_BE_NULL', 'receiptNumber must name the receipt', { field: 'receiptNumber' });
  }
  return order.printType === 'Copy' ? lastReceipt : lastReceipt + 1;
}

/** The kd command of an order for a receipt number. */
export function kdCommand(order: KdOrder, receiptNo: number, context: KdContext): KdRequest {
  const command: KdRequest = {
    date: kdDate(order.date, context.timeZone),
    org: context.org,
    registerId: context.registerId,
    receiptNo,
    // A training receipt is registered as one (`ovning`) whatever it prints as (docs/conventions.md §16).
    type: order.training && order.printType === 'Normal' ? 'ovning' : KD_TYPE_OF[order.printType],
    returnAmount: order.refund ? order.brutto : 0,
    salesAmount: order.refund ? 0 : order.brutto,
    vat: order.vat.map(({ rate, amount }) => ({ rate, amount })),
  };
  try {
    validateKdRequest(command);
  } catch (error) {
    refusedField(error);
  }
  return command;
}
