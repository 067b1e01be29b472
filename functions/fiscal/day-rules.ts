import type { Stored } from '#shared/db/streams.ts';
import { businessDate } from '#shared/fiscal/dates.ts';
import type { JournalEvent } from '#shared/fiscal/journal.ts';
import {
  DAY,
  type DayRecord,
  dayKey,
  type Ledger,
  type LedgerEntity,
  type LedgerState,
  type Register,
} from '#shared/fiscal/ledger.ts';
import { addTotals, cashBalance, dayTotals, emptyTotals, type Totals } from '#shared/fiscal/totals.ts';
import { type ApiError, referenceNotFound } from '#shared/errors.ts';

/** Where a new fiscal record of the register goes: its day as it will be stored, and what opening it said. */
export interface TargetDay {
  day: DayRecord;
  seen: Stored<DayRecord> | undefined;
  events: JournalEvent[];
}

/**
 * The day a new record (a sale, a balance change) goes into (docs/conventions.md §17): the open day, unless the record
 * is dated after it (close that day first: `DAY_IS_NOT_CLOSED`); with no open day a new one opens
 * implicitly, unless the last day's Z report is not printed (`REPORT_IS_NOT_PRINTED`).
 */
export function dayForNewRecord(
  state: LedgerState,
  dated: { instant: number; timeZone: string; now: number },
  refuse: (condition: 'DAY_IS_NOT_CLOSED' | 'REPORT_IS_NOT_PRINTED') => ApiError,
): TargetDay {
  const date = businessDate(dated.instant, dated.timeZone);
  if (state.ledger.day?.opened && state.day) {
    if (date > state.day.date) throw refuse('DAY_IS_NOT_CLOSED');
    return { day: state.day, seen: state.day, events: [] };
  }
  if (state.ledger.day && !state.ledger.day.reportPrinted) throw refuse('REPORT_IS_NOT_PRINTED');
  // Days are dated in their order, so a period finds its days from the newest back: an old record that
  // opens a day dates it no earlier than the day before.
  const day = newDay(state, Math.max(date, state.ledger.day?.date ?? 0), dated.now);
  return { day, seen: undefined, events: [{ type: 'DAY_OPENED', dayNumber: day.dayNumber, data: { date: day.date } }] };
}

/**
 * A new record that names its day (a sale's `day`, docs/conventions.md §17) goes only into the open day: a day before
 * the latest, or the latest once closed, is `DAY_IS_CLOSED`; a day the register never opened is unknown. The open day
 * named, the record goes where `dayForNewRecord` puts it.
 */
export function checkNamedDay(state: LedgerState, dayNumber: number, refuse: (condition: 'DAY_IS_CLOSED') => ApiError): void {
  const latest = state.ledger.day;
  if (!latest || dayNumber < 1 || dayNumber > latest.dayNumber) throw referenceNotFound(`No day ${dayNumber}`);
  if (dayNumber < latest.dayNumber || !latest.opened) throw refuse('DAY_IS_CLOSED');
}

/** The register's next day, opened now: numbered after the last, empty, opened at the write's version. */
export function newDay(state: LedgerState, date: number, now: number): DayRecord {
  return {
    dayNumber: (state.ledger.day?.dayNumber ?? 0) + 1,
    date,
    opened: true,
    reportPrinted: false,
    open: now,
    close: null,
    cash: 0,
    cashAtClose: null,
    grandTotal: null,
    grandTotalRefund: null,
    closedDayTreasurer: null,
    totals: dayTotals(emptyTotals()),
    openVersion: state.version + 1,
  };
}

/**
 * The day with a change of its totals applied, its running cash balance with it (docs/conventions.md §18). The
 * breakdown is left out (a day stored with one drops it here): it is read from the day's sales (`readDayBreakdown`).
 */
export function withTotals(day: DayRecord, totals: Totals): DayRecord {
  // The change's breakdown is dropped before the sum, not after it: every sale write summed it for nothing.
  const next = addTotals(day.totals, dayTotals(totals));
  return { ...day, totals: dayTotals(next), cash: cashBalance(next) };
}

/**
 * The day's put (the write stamps it anew, over the stamp a read gave it). Only a closed day goes into the version
 * index: the open one is rewritten by every sale, and days-diff reads it by key (`readDaysDiff`).
 */
export function dayWrite(register: Register, target: { day: DayRecord; seen: Stored<DayRecord> | undefined }): LedgerEntity {
  return {
    kind: DAY,
    key: dayKey(register, target.day.dayNumber),
    seen: target.seen,
    data: target.day,
    indexed: !target.day.opened,
  };
}

export const latestDay = (day: DayRecord): NonNullable<Ledger['day']> => ({
  dayNumber: day.dayNumber,
  date: day.date,
  opened: day.opened,
  reportPrinted: day.reportPrinted,
});
