/**
 * Tombstone retention (sync guarantee (c) and spec 4.4 `410 OutdatedVersion`): a deletion stays in
 * every diff that covers it until the purge removes it; after that a register whose last sync is
 * older than the purge mark is told to resync, never handed a diff that silently lacks a deletion.
 */
import { describe, expect, it } from 'vitest';
import { handler as maintenance } from '#functions/maintenance/handler.ts';
import { purgeTombstones } from '#shared/db/tombstones.ts';
import { expectError, newSeller, v } from '../support/http.ts';
import { sellerKeys } from '#shared/domain/seller.ts';

const version = async (sellerId: string) => ((await v(33).get(`/${sellerId}/version`)).body as { version: number }).version;
const identifiers = (body: unknown) =>
  (body as { identifier: string; deleted: boolean }[]).map((item) => `${item.identifier}:${item.deleted}`);

/** A seller whose catalog went: +a (1), +b (2), -a (3), +c (4) after the profile (version p). */
async function sellerWithDeletion() {
  const sellerId = await newSeller();
  const profile = await version(sellerId);
  for (const name of ['a', 'b']) await v(33).put(`/${sellerId}/taxes/${name}`, { vat: 6, name });
  await v(33).del(`/${sellerId}/taxes/a`);
  await v(33).put(`/${sellerId}/taxes/c`, { vat: 6, name: 'c' });
  return { sellerId, deletedAt: profile + 3, current: profile + 4 };
}

describe('tombstone retention', () => {
  it('within the retention every diff range covering the deletion shows it; the daily job keeps it', async () => {
    const { sellerId, deletedAt, current } = await sellerWithDeletion();
    const result = await maintenance();
    expect(result.sellers).toBeGreaterThan(0);
    for (let from = 0; from < deletedAt; from++) {
      for (const to of [deletedAt, current]) {
        const diff = await v(26).get(`/${sellerId}/taxes-diff/${from}/${to}`);
        expect(identifiers(diff.body).filter((id) => id === 'a:true')).toHaveLength(1);
      }
    }
    expect(identifiers((await v(26).get(`/${sellerId}/taxes-diff/${deletedAt}/${current}`)).body)).toEqual(['c:false']);
  });

  it('after the purge a diff or modifications from before the mark is 410 OutdatedVersion; from 0 and from the mark work', async () => {
    const { sellerId, deletedAt, current } = await sellerWithDeletion();
    const purge = await purgeTombstones(sellerKeys.counter(sellerId), Date.now() + 1000);
    expect(purge).toEqual({ purged: deletedAt, removed: 1 });

    for (const api of [15, 26, 33] as const) {
      expectError(await v(api).get(`/${sellerId}/taxes-diff/${deletedAt - 1}/${current}`), 410, 'OutdatedVersion');
      expectError(await v(api).get(`/${sellerId}/taxes-diff/1/${deletedAt}`), 410, 'OutdatedVersion');
      // A register with nothing (version 0) needs no deletions: it gets what exists.
      expect(identifiers((await v(api).get(`/${sellerId}/taxes-diff/0/${current}`)).body)).toEqual(['b:false', 'c:false']);
      expect(identifiers((await v(api).get(`/${sellerId}/taxes-diff/${deletedAt}/${current}`)).body)).toEqual(['c:false']);
    }
    expectError(await v(33).get(`/${sellerId}/modifications?from=1`), 410, 'OutdatedVersion');
    expect((await v(33).get(`/${sellerId}/modifications?from=${deletedAt}`)).status).toBe(200);

    // Deletions after the purge are kept and shown as before.
    await v(33).del(`/${sellerId}/taxes/b`);
    expect(identifiers((await v(33).get(`/${sellerId}/taxes-diff/${deletedAt}/${current + 1}`)).body)).toEqual([
      'c:false',
      'b:true',
    ]);
  });

  it('an identifier re-created after its deletion is never purged, and the mark never goes back', async () => {
    const { sellerId, deletedAt } = await sellerWithDeletion();
    await v(33).put(`/${sellerId}/taxes/a`, { vat: 12, name: 'again' });
    expect(await purgeTombstones(sellerKeys.counter(sellerId), Date.now() + 1000)).toEqual({ purged: 0, removed: 0 });
    expect((await v(33).get(`/${sellerId}/taxes/a`)).body).toMatchObject({ name: 'again' });

    await v(33).del(`/${sellerId}/taxes/c`);
    const mark = await version(sellerId);
    expect(await purgeTombstones(sellerKeys.counter(sellerId), Date.now() + 1000)).toEqual({ purged: mark, removed: 1 });
    expect(await purgeTombstones(sellerKeys.counter(sellerId), Date.now() + 1000)).toEqual({ purged: mark, removed: 0 });
    expect(mark).toBeGreaterThan(deletedAt);
  });
});
