/**
 * A doubling page's `Limit` (shared/db/reads.ts `queryEach`): DynamoDB takes a 32-bit `Limit`, and a year's journal read
 * from pages of 100 entries doubles past 2^31 - 1 after 25 pages.
 */
import { describe, expect, it } from 'vitest';
import { nextPageLimit } from '#shared/db/reads.ts';

describe('the next page limit', () => {
  it('doubles from the first page, then leaves pages to 1 MB, never reaching 2^31', () => {
    const limits: (number | undefined)[] = [100];
    for (let page = 1; page < 40; page++) limits.push(nextPageLimit(limits[page - 1]));

    expect(limits.slice(0, 9)).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 12_800, undefined]);
    expect(limits.slice(8).every((limit) => limit === undefined)).toBe(true);
    expect(nextPageLimit(undefined)).toBeUndefined();
  });
});
