import { readItems, readPartition } from '#shared/db/reads.ts';
import { type Activation, activationKeys, registrationKeys } from '#shared/domain/records.ts';
import { ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';

/** Seller stats (spec 2.3 Statistics records). */
export interface SellerStats {
  hasLocalControlUnits: boolean;
  expiredActivations: number;
  expireSoonActivations: number;
  /** Tables, additives and additive classes are always false (spec 2.3). */
  hasTables: false;
  hasAdditives: false;
  hasAdditiveClasses: false;
}

const DAY = 86_400_000;

/** Midnight UTC of the day holding `time`: the seller has no time zone, so every caller sees the same day. */
const startOfUtcDay = (time: number) => {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
};

/**
 * Midnight UTC of the same day of the next calendar month; a day the next month lacks becomes its
 * last day (31 January -> 28 or 29 February), so "a month ahead" never spills into the month after.
 */
function sameDayNextMonth(today: number): number {
  const date = new Date(today);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  // Day 0 of the month after is the last day of `month` (Date.UTC carries month 12 into the next year).
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay));
}

/**
 * The stats of a seller's registers from their latest activations (one per live registration), at
 * `now`. An activation's "activation date" is its `validTo`, taken by UTC day: expired when that day
 * is before today, expiring soon when it is today or any day up to the same day next month
 * (inclusive). A CLOSED latest activation counts for nothing: the register was retired or stopped on
 * purpose, so there is nothing to renew and its control unit is not in use.
 */
export function sellerStats(latest: readonly Activation[], now: number): SellerStats {
  const today = startOfUtcDay(now);
  // Exclusive end: the whole day one month ahead is still "soon".
  const soonEnd = sameDayNextMonth(today) + DAY;
  const open = latest.filter((activation) => activation.status !== 'CLOSED');
  return {
    hasLocalControlUnits: open.some((activation) => activation.controlUnitLocation === 'DEVICE'),
    expiredActivations: open.filter((activation) => activation.validTo < today).length,
    expireSoonActivations: open.filter((activation) => today <= activation.validTo && activation.validTo < soonEnd).length,
    hasTables: false,
    hasAdditives: false,
    hasAdditiveClasses: false,
  };
}

/**
 * GET /{sellerId}/stats (spec 4.4). Two round trips: the seller's counter (is it live?) and its
 * registrations partition in parallel, then one BatchGet of each live registration's latest
 * activation. Each registration is one register on its own (latest) installation, so counting
 * registrations counts the spec's "latest installations".
 */
export async function getSellerStats(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const sellerId = request.params.sellerId;
  const registrations = await readPartition(registrationKeys.registrations(sellerId));
  // activationIds is newest first; a deleted registration's activations were closed with it and are not counted.
  const latestIds = registrations.flatMap((registration) => (registration.deleted ? [] : registration.activationIds.slice(0, 1)));
  const latest = await readItems(latestIds.map((id) => activationKeys.activation(id)));
  return ok(sellerStats(latest, Date.now()));
}
