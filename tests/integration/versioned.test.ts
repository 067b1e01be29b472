import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { putItem } from '#shared/db/documents.ts';
import { table } from '#shared/db/client.ts';
import { markerKey, tombstoneSortKey } from '#shared/db/keys.ts';
import { readItem, readPartition } from '#shared/db/reads.ts';
import { readCounter, readDiff, readLive, writeVersioned } from '#shared/db/streams.ts';
import { purgeTombstones } from '#shared/db/tombstones.ts';
import { create, transact } from '#shared/db/transact.ts';
import { sellerFor, sellerStream, sellerKeys } from '#shared/domain/seller.ts';
import { ApiError } from '#shared/errors.ts';

type Note = { text: string };

/** Writes `text` to entity `id` of a fresh stream (null: deletes it); what the catalog does, without HTTP. */
function put(stream: string, id: string, text: string | null) {
  return writeVersioned<Note, number>({
    stream: sellerStream(stream),
    entity: sellerKeys.catalog(stream, 'NOTE', id),
    kind: 'NOTE',
    apiVersion: 33,
    decide: ({ next }) => ({ entity: text === null ? { deleted: true } : { text, deleted: false }, result: next }),
  });
}

describe('versioned writes against DynamoDB Local', () => {
  it('stamps the entity with the version its write gave the counter', async () => {
    const stream = `T${randomUUID()}`;
    const first = await put(stream, 'a', 'one');
    const second = await put(stream, 'b', 'two');
    const third = await put(stream, 'a', 'three');

    expect([first, second, third]).toEqual([1, 2, 3]);
    expect((await readCounter(sellerStream(stream)))?.ver).toBe(3);
    expect(await readItem(sellerKeys.catalog<Note>(stream, 'NOTE', 'a'))).toMatchObject({
      text: 'three',
      version: 3,
      deleted: false,
    });
  });

  it('concurrent writers get every version exactly once, with no gaps', async () => {
    const stream = `T${randomUUID()}`;
    const versions = await Promise.all(Array.from({ length: 24 }, (_, i) => put(stream, `e${i}`, `v${i}`)));

    expect([...versions].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const diff = await readDiff<Note>(sellerStream(stream), 'NOTE', { from: 0, to: 24 });
    expect(diff.map((item) => item.version)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });

  it('readers following the counter while writers run miss no change', async () => {
    const stream = `T${randomUUID()}`;
    const writes = 60;
    let writing = true;
    const writers = Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; i < writes / 4; i++) await put(stream, `w${writer}-${i % 5}`, `${writer}:${i}`);
      }),
    ).finally(() => {
      writing = false;
    });
    // A register's sync loop: read the version, then the diff from its last version to it.
    const reader = async () => {
      const seen = new Map<string, number>();
      let synced = 0;
      while (writing || synced < writes) {
        const current = (await readCounter(sellerStream(stream)))?.ver ?? 0;
        // Before the first write commits the stream does not exist yet: nothing to read.
        if (current === synced) continue;
        for (const item of await readDiff<Note>(sellerStream(stream), 'NOTE', { from: synced, to: current })) {
          seen.set(item.sk, Math.max(seen.get(item.sk) ?? 0, item.version));
        }
        synced = current;
      }
      return seen;
    };
    const [, ...views] = await Promise.all([writers, reader(), reader()]);

    const finalState = new Map(
      (await readDiff<Note>(sellerStream(stream), 'NOTE', { from: 0, to: writes })).map(
        (item) => [item.sk, item.version] as const,
      ),
    );
    expect(finalState.size).toBe(20);
    for (const view of views) expect(view).toEqual(finalState);
  });

  it('the partition holds each entity once in its version index, at its version: moved, deleted and re-created', async () => {
    const stream = `T${randomUUID()}`;
    for (const [id, text] of [
      ['a', '1'],
      ['b', '2'],
      ['a', '3'],
      ['b', null],
      ['c', '5'],
      ['c', null],
      ['c', '7'],
    ] as const) {
      await put(stream, id, text);
    }

    const diff = await readDiff<Note>(sellerStream(stream), 'NOTE', { from: 0, to: 7 });
    expect(diff.map(({ sk, version, deleted }) => [sk, version, deleted])).toEqual([
      ['NOTE#a', 3, false],
      ['NOTE#b', 4, true],
      ['NOTE#c', 7, false],
    ]);
    expect(diff[0]).toEqual(await readItem(sellerKeys.catalog(stream, 'NOTE', 'a')));
    expect((await readLive<Note>(sellerStream(stream), 'NOTE#')).map((note) => note.sk)).toEqual(['NOTE#a', 'NOTE#c']);
    // The counter, three entities, their change items and b's marker: nothing else is left behind.
    const sks = (await readPartition({ pk: sellerStream(stream).partition.pk })).map((item) => item.sk);
    expect(sks.filter((sk) => sk.startsWith('#V#'))).toEqual([
      '#V#NOTE#000000000000003',
      '#V#NOTE#000000000000004',
      '#V#NOTE#000000000000007',
    ]);
    expect(sks.filter((sk) => sk.startsWith('#T#'))).toEqual([expect.stringMatching(/^#T#\d{15}#NOTE#b$/)]);
    expect(sks).toHaveLength(8);
  });

  it('the purge removes a tombstone with its change item and marker, and only a marker left behind of a re-created one', async () => {
    const stream = `T${randomUUID()}`;
    await put(stream, 'a', 'kept');
    await put(stream, 'b', 'gone');
    await put(stream, 'b', null);
    // A marker a migration or an interrupted write left behind for an entity written again since.
    const leftBehind = {
      ...markerKey(sellerStream(stream).partition.pk, tombstoneSortKey(1), 'NOTE#a'),
      version: 1,
      esk: 'NOTE#a',
    };
    await putItem({ TableName: table(), Item: leftBehind });

    const purge = await purgeTombstones(sellerKeys.counter(stream), Date.now() + 1000);

    expect(purge).toEqual({ purged: 3, removed: 1 });
    const sks = (await readPartition({ pk: sellerStream(stream).partition.pk })).map((item) => item.sk);
    expect(sks).toEqual(['#V#NOTE#000000000000001', '#VERSION', 'NOTE#a']);
    expect(await readDiff<Note>(sellerStream(stream), 'NOTE', { from: 0, to: 3 })).toMatchObject([
      { sk: 'NOTE#a', text: 'kept' },
    ]);
  });

  it('a diff to a version ahead of the counter is LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY', async () => {
    const stream = `T${randomUUID()}`;
    await put(stream, 'a', 'x');
    const failure = await readDiff(sellerStream(stream), 'NOTE', { from: 0, to: 2 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 409, code: 'LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY' });
  });

  it('a refused decision writes nothing', async () => {
    const stream = `T${randomUUID()}`;
    await put(stream, 'a', 'x');
    const refused = writeVersioned<Note, number>({
      stream: sellerStream(stream),
      entity: sellerKeys.catalog(stream, 'NOTE', 'b'),
      kind: 'NOTE',
      apiVersion: 33,
      decide: () => {
        throw new ApiError('VersionConflict', null, 'no');
      },
    });
    await expect(refused).rejects.toMatchObject({ status: 409 });
    expect((await readCounter(sellerStream(stream)))?.ver).toBe(1);
    expect(await readItem(sellerKeys.catalog(stream, 'NOTE', 'b'))).toBeUndefined();
  });
});

describe("an activation's seller against DynamoDB Local", () => {
  const missing = () => new ApiError('UnprocessableEntity', null, 'no company name');
  /** What an activation commits beside its seller's steps, reduced to one item of its own. */
  const activationKey = () => ({ pk: `T${randomUUID()}`, sk: '#ACTIVATION' });

  it('an existing seller is held live until the activation commits: deleted meanwhile, nothing is written', async () => {
    const seller = { country: 'SE', corporateId: randomUUID().replace(/\D/g, '').padEnd(10, '7').slice(0, 10) };
    const sellerId = `${seller.country}${seller.corporateId}`;
    await transact((await sellerFor(seller, 'Kaffebaren AB', 33, missing)).steps);
    const first = activationKey();
    await transact([...(await sellerFor(seller, null, 33, missing)).steps, create(first)]);
    const read = await sellerFor(seller, null, 33, missing);
    await writeVersioned({
      stream: sellerStream(sellerId),
      entity: sellerKeys.profile(sellerId),
      kind: 'SELLER',
      apiVersion: 33,
      decide: () => ({ entity: { ...seller, deleted: true }, result: undefined, live: false }),
    });
    const second = activationKey();

    await expect(transact([...read.steps, create(second)])).rejects.toMatchObject({ status: 409, exception: 'VersionConflict' });
    expect(read.seller).toMatchObject({ name: 'Kaffebaren AB' });
    expect(await readItem(first)).toBeDefined();
    expect(await readItem(second)).toBeUndefined();
  });
});
