/**
 * What a request read ahead answers its reads by key until it writes (shared/db/read-ahead.ts); the reads and writes
 * against the table are tests/integration/round-trips.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import type { Key } from '#shared/db/keys.ts';
import { aheadOf, forgetAhead, keepAhead, withReadAhead } from '#shared/db/read-ahead.ts';

const counter: Key = { pk: 'S#SE5560360793', sk: '#VERSION' };
const tax: Key = { pk: 'S#SE5560360793', sk: 'TAX#moms' };
const stored = { ...counter, ver: 7, live: true };

describe('a request that read ahead', () => {
  it('answers a key it read, found or not, and knows nothing of another', async () => {
    await withReadAhead(async () => {
      keepAhead([counter, tax], [stored]);
      expect(aheadOf(counter)).toEqual({ item: stored });
      expect(aheadOf(tax)).toEqual({ item: undefined });
      expect(aheadOf({ pk: 'S#SE5560360793', sk: 'TAX#other' })).toBeUndefined();
    });
  });

  it('answers nothing once it writes', async () => {
    await withReadAhead(async () => {
      keepAhead([counter], [stored]);
      forgetAhead();
      expect(aheadOf(counter)).toBeUndefined();
    });
  });

  it("keeps each request's reads apart, and outside a request keeps nothing", async () => {
    const other = { ...counter, ver: 8, live: true };
    await Promise.all([
      withReadAhead(async () => {
        keepAhead([counter], [stored]);
        await Promise.resolve();
        expect(aheadOf(counter)).toEqual({ item: stored });
      }),
      withReadAhead(async () => {
        keepAhead([counter], [other]);
        await Promise.resolve();
        expect(aheadOf(counter)).toEqual({ item: other });
      }),
    ]);
    keepAhead([counter], [stored]);
    expect(aheadOf(counter)).toBeUndefined();
  });
});
