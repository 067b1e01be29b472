/** The day arithmetic of seller stats (spec 4.4 GET /{sellerId}/stats) at fixed instants, where e2e cannot pin the clock. */
import { describe, expect, it } from 'vitest';
import { sellerStats } from '#functions/sellers/stats.ts';
import { activationOf as activation } from '../support/decisions.ts';

const at = (iso: string) => Date.parse(iso);

/** [expired, expireSoon] of one activation ending at `validTo`, seen at `now`. */
const counted = (validTo: string, now: string) => {
  const stats = sellerStats([activation({ validTo: at(validTo) })], at(now));
  return [stats.expiredActivations, stats.expireSoonActivations];
};

describe('sellerStats', () => {
  it.each([
    ['the day before today', '2024-01-30T23:59:59.999Z', [1, 0]],
    ['the first instant of today', '2024-01-31T00:00:00.000Z', [0, 1]],
    ['earlier today (already past, but today)', '2024-01-31T10:00:00.000Z', [0, 1]],
    ['the last instant of the same day next month (31 Jan -> 29 Feb in a leap year)', '2024-02-29T23:59:59.999Z', [0, 1]],
    ['the day after that', '2024-03-01T00:00:00.000Z', [0, 0]],
  ])('validTo on %s, seen 31 January 15:00 UTC', (_, validTo, expected) => {
    expect(counted(validTo, '2024-01-31T15:00:00.000Z')).toEqual(expected);
  });

  it('a month ahead of mid-December is mid-January of the next year', () => {
    expect(counted('2025-01-15T23:59:59.999Z', '2024-12-15T08:00:00.000Z')).toEqual([0, 1]);
    expect(counted('2025-01-16T00:00:00.000Z', '2024-12-15T08:00:00.000Z')).toEqual([0, 0]);
  });

  it('a closed activation counts for nothing; an ISSUED or WORKING one counts; DEVICE only makes local control units', () => {
    const now = at('2024-06-10T12:00:00.000Z');
    const yesterday = now - 86_400_000;
    expect(sellerStats([activation({ status: 'CLOSED', validTo: yesterday, controlUnitLocation: 'DEVICE' })], now)).toEqual({
      hasLocalControlUnits: false,
      expiredActivations: 0,
      expireSoonActivations: 0,
      hasTables: false,
      hasAdditives: false,
      hasAdditiveClasses: false,
    });
    expect(
      sellerStats(
        [
          activation({ status: 'ISSUED', validTo: yesterday }),
          activation({ status: 'WORKING', validTo: now + 86_400_000, controlUnitLocation: 'DEVICE' }),
          activation({ validTo: now + 400 * 86_400_000, controlUnitLocation: null }),
        ],
        now,
      ),
    ).toMatchObject({ hasLocalControlUnits: true, expiredActivations: 1, expireSoonActivations: 1 });
  });
});
