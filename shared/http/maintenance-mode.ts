import { config } from '#shared/config.ts';
import type { Key } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { serverIsDown } from '#shared/errors.ts';

/** The maintenance switch as an operator sets it (`npm run maintenance`, or the item in the console). */
export interface MaintenanceSwitch {
  on: boolean;
  /** What `Retry-After` tells clients while it is on, in seconds. */
  retryAfterSeconds: number;
  /** When it was last flipped (ISO 8601), for the operator's eyes. */
  changedAt: string;
}

/** The one switch of the whole service; every route reads it. */
export const maintenanceSwitchKey = (): Key<MaintenanceSwitch> => ({ pk: 'SERVICE', sk: '#MAINTENANCE' });

let cached: { state: Promise<MaintenanceSwitch | undefined>; until: number } | undefined;

/** The switch's item while what this process knows of it is stale, so a request can read it with its other items. */
export const staleSwitch = (now: number = Date.now()): Key[] =>
  cached === undefined || now >= cached.until ? [maintenanceSwitchKey()] : [];

/** What `Retry-After` says while a deploy forces maintenance (`MAINTENANCE=on`): the switch item is not read then. */
const FORCED_RETRY_AFTER_SECONDS = 300;

/**
 * Throws `503 ServiceUnavailable SERVER_IS_DOWN` with `Retry-After` while the switch is on (docs/conventions.md §24), or
 * while the deploy forces it (`MAINTENANCE=on`: its table may not hold the switch yet).
 * One GetItem on the table every function already reads, kept `MAINTENANCE_CACHE_SECONDS` per process (a flip
 * reaches every warm container within that time); a failed read is not kept, and fails the request as any read does.
 */
export async function refuseDuringMaintenance(now: number = Date.now()): Promise<void> {
  if (config().maintenanceForced) throw serverIsDown(FORCED_RETRY_AFTER_SECONDS);
  if (cached === undefined || now >= cached.until) {
    const state = readItem(maintenanceSwitchKey());
    const entry = { state, until: now + config().maintenanceCacheSeconds * 1000 };
    cached = entry;
    state.catch(() => {
      if (cached === entry) cached = undefined;
    });
  }
  const current = await cached.state;
  if (current?.on) throw serverIsDown(current.retryAfterSeconds);
}
