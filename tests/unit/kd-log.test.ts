/**
 * The Kd log's sharded directories (docs/decisions.md, "Kd log directories sharded"): which partition a record goes
 * to, which partitions a list reads, where a record of the unsharded layout belongs now, and the merge of sorted
 * partitions that a page of a sharded directory is.
 */
import { describe, expect, it } from 'vitest';
import { mergeInKeyOrder } from '#shared/db/reads.ts';
import { KD_LOG_SHARDS, kdKeys, kdLogShardOf, migrateKdLogKey } from '#shared/kd/records.ts';

const ID = 'c0ffee00-1111-4222-8333-444455556666';
const KD_DATE = Date.UTC(2026, 6, 1, 10, 5, 30);
/** The date zero-padded to 15 digits (it has 13), then the id. */
const SK = `KD#00${KD_DATE}#${ID}`;

describe('the Kd log directories', () => {
  it("puts a record into its id's shard of all records and of its vendor's, and whole into its seller's and unit's", () => {
    // Act
    const keys = [undefined, { vendor: 42 }, { sellerId: 'SE5560360793' }, { serial: 'CU1' }].map((scope) =>
      kdKeys.log(scope, KD_DATE, ID),
    );

    // Assess
    expect(keys).toEqual([
      { pk: 'KDLOG#Ac', sk: SK },
      { pk: 'KDLOG#V42#c', sk: SK },
      { pk: 'KDLOG#SSE5560360793', sk: SK },
      { pk: 'KDLOG#UCU1', sk: SK },
    ]);
  });

  it("names the shard by the id's first hex digit, in lower case, and refuses an id that begins with none", () => {
    expect(['0abc', '9abc', 'Fabc', 'fabc'].map(kdLogShardOf)).toEqual(['0', '9', 'f', 'f']);
    expect(() => kdLogShardOf('older')).toThrow('does not begin with a hex digit');
  });

  it("reads all 16 shards of all records and of a vendor's, and the one partition of a seller's or a unit's", () => {
    // Act
    const all = kdKeys.logDirectory(undefined).map(({ pk }) => pk);
    const vendor = kdKeys.logDirectory({ vendor: 7 }).map(({ pk }) => pk);

    // Assess
    expect(KD_LOG_SHARDS).toBe(16);
    expect(all).toEqual([...'0123456789abcdef'].map((digit) => `KDLOG#A${digit}`));
    expect(vendor).toEqual([...'0123456789abcdef'].map((digit) => `KDLOG#V7#${digit}`));
    expect(kdKeys.logDirectory({ sellerId: 'SE5560360793' })).toEqual([{ pk: 'KDLOG#SSE5560360793' }]);
    expect(kdKeys.logDirectory({ serial: 'CU1' })).toEqual([{ pk: 'KDLOG#UCU1' }]);
  });

  it("moves an old record of all records or of a vendor's into its shard, and leaves every other where it is", () => {
    // Prepare
    const at = (pk: string) => ({ pk, sk: SK, id: ID });

    // Act
    const moved = ['KDLOG', 'KDLOG#V42', 'KDLOG#SSE5560360793', 'KDLOG#UCU1', 'KDLOG#Ac', 'KDLOG#V42#c'].map((pk) =>
      migrateKdLogKey(at(pk)),
    );

    // Assess
    expect(moved.map(({ pk }) => pk)).toEqual([
      'KDLOG#Ac',
      'KDLOG#V42#c',
      'KDLOG#SSE5560360793',
      'KDLOG#UCU1',
      'KDLOG#Ac',
      'KDLOG#V42#c',
    ]);
    expect(moved.every(({ sk }) => sk === SK)).toBe(true);
    // The new key is the one new records get.
    expect(migrateKdLogKey(at('KDLOG#V42'))).toEqual(kdKeys.log({ vendor: 42 }, KD_DATE, ID));
  });
});

describe('merging sorted partitions', () => {
  const item = (pk: string, sk: string) => ({ pk, sk });

  it('interleaves runs in key order, or in its reverse, keeping every item once', () => {
    // Prepare
    const runs = [
      [item('A0', 'KD#1#0a'), item('A0', 'KD#4#0b')],
      [],
      [item('A1', 'KD#2#1a'), item('A1', 'KD#3#1b'), item('A1', 'KD#5#1c')],
    ];

    // Act
    const ascending = mergeInKeyOrder(runs, false).map(({ sk }) => sk);
    const descending = mergeInKeyOrder(
      runs.map((run) => [...run].reverse()),
      true,
    ).map(({ sk }) => sk);

    // Assess
    expect(ascending).toEqual(['KD#1#0a', 'KD#2#1a', 'KD#3#1b', 'KD#4#0b', 'KD#5#1c']);
    expect(descending).toEqual(['KD#5#1c', 'KD#4#0b', 'KD#3#1b', 'KD#2#1a', 'KD#1#0a']);
  });

  it("orders by the keys' UTF-8 bytes, as DynamoDB does, not by JavaScript's UTF-16 code units", () => {
    // Prepare: U+FF5E is one UTF-16 unit above a surrogate pair's first, but its UTF-8 bytes come before U+1F600's.
    const runs = [[item('A0', 'K#\u{1F600}')], [item('A1', 'K#\uFF5E')]];

    // Act
    const merged = mergeInKeyOrder(runs, false).map(({ sk }) => sk);

    // Assess
    expect(merged).toEqual(['K#\uFF5E', 'K#\u{1F600}']);
  });
});
