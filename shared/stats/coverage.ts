/**
 * What a statistics read covers (docs/conventions.md §20): the seller's registers (or the one named by
 * `cashRegisterName`) and their days dated in the period. Reads the registrations and, per register, its
 * days from the newest back to the period's first: never a sale. Takes the parameters as text, so a route
 * gives them from its query and an export job from what it stored, with the same refusals.
 */
import { readPartition } from '#shared/db/reads.ts';
import type { Stored } from '#shared/db/streams.ts';
import { inconsistentData, typeMismatch } from '#shared/errors.ts';
import { businessDate, daysBetween, periodStart, timeZoneOf } from '#shared/fiscal/dates.ts';
import { type DayRecord, daysSince, type Register } from '#shared/fiscal/ledger.ts';
import { intParam } from '#shared/http/query.ts';
import { registrationKeys } from '#shared/domain/records.ts';

/** The longest `period`: a hundred years of days. */
export const MAX_PERIOD_DAYS = 36_600;
/** The latest Date JavaScript (and so the service) can represent. */
const MAX_DATE = 8_640_000_000_000_000;

/** The parameters that choose what a statistics read covers, as text; absent or null: not given. */
export interface StatsParams {
  period?: string | null;
  from?: string | null;
  to?: string | null;
  cashRegisterName?: string | null;
}

/** The parameters of a query string. */
export const statsParamsOf = (query: URLSearchParams): StatsParams => ({
  period: query.get('period'),
  from: query.get('from'),
  to: query.get('to'),
  cashRegisterName: query.get('cashRegisterName'),
});

/** Business dates (`yyyymmdd`, the seller's time zone), both included. */
export interface Period {
  first: number;
  last: number;
}

/** A register and its days of the period, oldest first; `next` is the first day after the period, if any. */
export interface RegisterDays {
  register: Register;
  days: Stored<DayRecord>[];
  next: Stored<DayRecord> | undefined;
}

export interface Coverage {
  timeZone: string;
  period: Period;
  registers: RegisterDays[];
}

/** A Date parameter: an integer from 0 to the last representable instant; anything else is 400 TypeMismatch. */
function dateParam(name: string, raw: string | null | undefined): number | undefined {
  const value = intParam(name, raw);
  if (value !== undefined && (value < 0 || value > MAX_DATE)) throw typeMismatch(name, 'a Date (ms since the epoch)', raw ?? '');
  return value;
}

/**
 * The period the parameters ask for: `from`/`to` (either may be left out: the beginning, now) when given, else
 * the last `period` days ending today (default 1, today). Bad values are 400 TypeMismatch.
 */
export function periodOf(params: StatsParams, timeZone: string, now: number): Period {
  const from = dateParam('from', params.from);
  const to = dateParam('to', params.to);
  if (from !== undefined || to !== undefined) {
    const first = businessDate(from ?? 0, timeZone);
    const last = businessDate(to ?? now, timeZone);
    if (last < first) throw typeMismatch('to', 'a Date not before from', params.to ?? '');
    return { first, last };
  }
  const days = intParam('period', params.period, 1) ?? 1;
  if (days < 1 || days > MAX_PERIOD_DAYS) {
    throw typeMismatch('period', `a number of days from 1 to ${MAX_PERIOD_DAYS}`, params.period ?? '');
  }
  return { first: periodStart(days, timeZone, now), last: businessDate(now, timeZone) };
}

/**
 * The registers a read covers, in name order: every register the seller has had a registration for (a
 * register deleted since still counts for the days it traded), or only the one `cashRegisterName` names
 * (one the seller never had is 409 SELLER_HAS_NOT_REGISTRATION).
 */
async function registersOf(sellerId: string, named: string | null | undefined): Promise<Register[]> {
  const registrations = await readPartition(registrationKeys.registrations(sellerId));
  const names = [...new Set(registrations.map((registration) => registration.cashRegisterName))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  if (named) {
    if (!names.includes(named)) throw inconsistentData('SELLER_HAS_NOT_REGISTRATION', `The seller has no register ${named}`);
    return [{ sellerId, cash: named }];
  }
  return names.map((cash) => ({ sellerId, cash }));
}

/**
 * A register's days of the period, read newest first as far back as its first date. The first page asks for
 * about one day per calendar day from today back to the period's first, and one older day that ends the read.
 */
async function daysOf(register: Register, period: Period, today: number): Promise<RegisterDays> {
  const days: Stored<DayRecord>[] = [];
  let next: Stored<DayRecord> | undefined;
  const firstPage = Math.min(Math.max(daysBetween(period.first, today) + 2, 2), 100);
  for await (const day of daysSince(register, period.first, firstPage)) {
    if (day.date > period.last) next = day;
    else days.push(day);
  }
  return { register, days: days.reverse(), next };
}

/**
 * What a statistics read of the seller covers: its period, its registers and their days (registers read in
 * parallel). `now` is when it was asked: a job run later passes the time of its request, so `period` days
 * "ending today" and a missing `to` mean what they meant then.
 */
export async function coverageOf(sellerId: string, params: StatsParams, now: number = Date.now()): Promise<Coverage> {
  const timeZone = timeZoneOf(sellerId);
  const period = periodOf(params, timeZone, now);
  const registers = await registersOf(sellerId, params.cashRegisterName);
  const today = businessDate(now, timeZone);
  return { timeZone, period, registers: await Promise.all(registers.map((register) => daysOf(register, period, today))) };
}
