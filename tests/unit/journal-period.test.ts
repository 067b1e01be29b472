/**
 * The journal's period, its pure parts (docs/conventions.md §19): the hour markers a journal's entries need (what the
 * ledger writes, and what a migration writes for an older journal), and how much of a period one answer holds.
 */
import { describe, expect, it } from 'vitest';
import { chainEvents, entriesWithin, GENESIS_HEAD, type JournalEntry } from '#shared/fiscal/journal.ts';
import { hourMarkers, journalHour } from '#shared/fiscal/ledger.ts';

/** 2026-01-01 10:00 UTC: hour 490,906 since the epoch. */
const TEN = Date.UTC(2026, 0, 1, 10);
const HOUR = 3_600_000;

/** Entries of one register written by one write each, at `times` (ms) in turn. */
function journalAt(times: readonly number[]): JournalEntry[] {
  let head = GENESIS_HEAD;
  const entries: JournalEntry[] = [];
  for (const time of times) {
    const chained = chainEvents(head, [{ type: 'DEVICE', dayNumber: null, data: { at: time } }], time);
    entries.push(...chained.entries);
    head = chained.head;
  }
  return entries;
}

async function* streamOf(entries: readonly JournalEntry[]): AsyncGenerator<JournalEntry> {
  yield* entries;
}

describe('the hour of an instant', () => {
  it('is the hours since the epoch, an hour starting at its first millisecond', () => {
    expect(journalHour(TEN)).toBe(490_906);
    expect(journalHour(TEN - 1)).toBe(490_905);
    expect(journalHour(TEN + HOUR - 1)).toBe(490_906);
  });
});

describe('hour markers', () => {
  it('name the least sequence of each hour that has entries, by hour', () => {
    // Prepare: hours 10 and 12 have entries, 11 has none.
    const entries = [
      { sequence: 1, created: TEN },
      { sequence: 2, created: TEN + 59 * 60_000 },
      { sequence: 3, created: TEN + 2 * HOUR + 5 },
      { sequence: 4, created: TEN + 2 * HOUR + 6 },
    ];

    // Act
    const markers = hourMarkers(entries);

    // Assess
    expect(markers).toEqual([
      { hour: journalHour(TEN), sequence: 1 },
      { hour: journalHour(TEN) + 2, sequence: 3 },
    ]);
  });

  it('of an older journal whose times went back (clocks apart) still name the least sequence of each hour', () => {
    // Prepare: entry 2 was stamped by a clock ahead, in hour 11; entry 3 by one behind, in hour 10 again.
    const entries = [
      { sequence: 3, created: TEN + 10 },
      { sequence: 1, created: TEN },
      { sequence: 2, created: TEN + HOUR },
      { sequence: 4, created: TEN + HOUR + 1 },
    ];

    // Act
    const markers = hourMarkers(entries);

    // Assess
    expect(markers).toEqual([
      { hour: journalHour(TEN), sequence: 1 },
      { hour: journalHour(TEN) + 1, sequence: 2 },
    ]);
  });

  it('of no entries are none', () => {
    expect(hourMarkers([])).toEqual([]);
  });
});

describe('the entries one answer holds', () => {
  const entries = journalAt([TEN, TEN + 1000, TEN + 2000, TEN + 3000]);
  const size = (entry: JournalEntry) => Buffer.byteLength(JSON.stringify(entry), 'utf8') + 1;
  const sizes = entries.map(size);
  const upTo = (count: number) => sizes.slice(0, count).reduce((sum, bytes) => sum + bytes, 0);

  it('are all of a period that fits, exactly at the limit', async () => {
    // Act
    const within = await entriesWithin(streamOf(entries), upTo(4));

    // Assess
    expect(within).toEqual({ entries });
  });

  it('past the limit name the time of the last entry that fits as the end of the longest period', async () => {
    // Act
    const within = await entriesWithin(streamOf(entries), upTo(3) + 1);

    // Assess
    expect(within).toEqual({ longestTo: TEN + 2000 });
  });

  it("end the longest period before a write's time when the write's entries fit only in part", async () => {
    // Prepare: a write of three entries at TEN + 1000, after one at TEN.
    const first = chainEvents(GENESIS_HEAD, [{ type: 'DEVICE', dayNumber: null, data: null }], TEN);
    const event = { type: 'DEVICE', dayNumber: null, data: { n: 1 } } as const;
    const second = chainEvents(first.head, [event, event, event], TEN + 1000);
    const journal = [...first.entries, ...second.entries];
    const fitting = journal.slice(0, 3).reduce((sum, entry) => sum + size(entry), 0);

    // Act
    const within = await entriesWithin(streamOf(journal), fitting);

    // Assess
    expect(within).toEqual({ longestTo: TEN });
  });

  it('when not even the first write fits, name a period of nothing: just before it', async () => {
    // Act
    const within = await entriesWithin(streamOf(entries), 10);

    // Assess
    expect(within).toEqual({ longestTo: TEN - 1 });
  });
});
