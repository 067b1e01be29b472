/**
 * A kd body -> the kd command its unit registers (docs/conventions.md §25), pure: print type, amounts and their
 * direction, VAT rates, the receipt's local time, the seller's org number and the register's id at its unit.
 */
import type { KdBody } from '#schemas/types.ts';
import { controlUnitReceipt, inconsistentData, nonUnique, valueNotValid } from '#shared/errors.ts';
import { wallClock } from '#shared/fiscal/dates.ts';
import type { PrintType } from '#shared/fiscal/model.ts';
import { KdFieldError, type KdRequest, type KdType, type KdVat, registerIdOf, validateKdRequest } from '#shared/kd/codec.ts';
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

/** A VAT rate key (`25`, `12.5`, `6.00`: percent) in hundredths of a percent. */
export function rateOf(key: string): number {
  const [whole = '0', fraction = ''] = key.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The VAT in `brutto` at `rate` (hundredths of a percent), rounded half up to the hundredth. */
export function vatIn(brutto: number, rate: number): number {
  const divisor = 10_000 + rate;
  return Math.floor((2 * brutto * rate + divisor) / (2 * divisor));
}

/** `vatRateToSum` as the unit's VAT fields, highest rate first: each rate with the VAT of its brutto. */
export function vatRates(vatRateToSum: Readonly<Record<string, number>>): KdVat[] {
  const rates = Object.entries(vatRateToSum).map(([key, brutto]) => ({ key, rate: rateOf(key), brutto }));
  const seen = new Set<number>();
  for (const { key, rate } of rates) {
    if (seen.has(rate)) throw nonUnique(`vatRateToSum names the rate ${key} % twice`);
    seen.add(rate);
  }
  return rates.sort((a, b) => b.rate - a.rate).map(({ rate, brutto }) => ({ rate, amount: vatIn(brutto, rate) }));
}

/** The receipt's amount: the sum of `vatRateToSum`; v15's `brutto` must be that sum. */
export function bruttoOf(body: KdBody): number {
  const sum = Object.values(body.vatRateToSum).reduce((total, brutto) => total + brutto, 0);
  if ('brutto' in body && body.brutto !== sum) {
    throw inconsistentData('SALE_TOTALS_INCONSISTENT', `brutto ${body.brutto} is not the sum ${sum} of vatRateToSum`, {
      relation: 'brutto = sum of vatRateToSum',
    });
  }
  return sum;
}

/** An instant as the unit's `YYYYMMDDhhmm` in the seller's time zone. */
export function kdDate(instant: number, timeZone: string): string {
  const { year, month, day, hour, minute } = wallClock(instant, timeZone);
  return [year, month, day, hour, minute].map((part, index) => String(part).padStart(index === 0 ? 4 : 2, '0')).join('');
}

/**
 * The receipt number a kd is for. v26 and v33 name it. v15 may leave it null: a Normal or Proforma kd is then for
 * the register's next receipt number (`lastReceipt` + 1, the one its next Normal print takes), a Copy for its
 * last one; a Copy before any receipt is refused.
 */
export function receiptNumberOf(body: KdBody, version: ApiVersion, lastReceipt: number): number {
  if (body.receiptNumber !== null && body.receiptNumber !== undefined) return body.receiptNumber;
  if (version !== 15 || (body.printType === 'Copy' && lastReceipt === 0)) {
    throw valueNotValid('SHOULD_NOT_BE_NULL', 'receiptNumber must name the receipt', { field: 'receiptNumber' });
  }
  return body.printType === 'Copy' ? lastReceipt : lastReceipt + 1;
}

/** The kd command of a body for a receipt number. */
export function kdCommand(body: KdBody, receiptNo: number, context: KdContext): KdRequest {
  const brutto = bruttoOf(body);
  const command: KdRequest = {
    date: kdDate(body.date, context.timeZone),
    org: context.org,
    registerId: context.registerId,
    receiptNo,
    // A training receipt is registered as one (`ovning`) whatever it prints as (docs/conventions.md §16).
    type: body.training && body.printType === 'Normal' ? 'ovning' : KD_TYPE_OF[body.printType],
    returnAmount: body.refund ? brutto : 0,
    salesAmount: body.refund ? 0 : brutto,
    vat: vatRates(body.vatRateToSum),
  };
  try {
    validateKdRequest(command);
  } catch (error) {
    refusedField(error);
  }
  return command;
}
