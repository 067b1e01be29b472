/** Load tests trade where the day has hours left (tests/support/fiscal-load.ts), so midnight never fails them. */
import { describe, expect, it } from 'vitest';
import { tradingCountry } from '../support/fiscal-load.ts';

describe('tradingCountry', () => {
  it.each([
    // Stockholm 13:00: Sweden.
    ['2026-12-01T12:00:00Z', 'SE'],
    // Stockholm 21:30 (2.5 hours left): Helsinki is at 23:30, London 20:30, New York 15:30.
    ['2026-12-01T20:30:00Z', 'US'],
    // Stockholm 00:30 the next day: Sweden again.
    ['2026-12-01T23:30:00Z', 'SE'],
    // Stockholm 23:50 in summer (UTC+2): Helsinki 00:50 has nearly a day left.
    ['2026-07-01T21:50:00Z', 'FI'],
  ])('at %s trades in %s', (instant, country) => {
    expect(tradingCountry(Date.parse(instant))).toBe(country);
  });
});
