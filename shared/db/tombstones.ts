import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { table } from './client.ts';
import { deleteItem, queryItems, updateItem } from './documents.ts';
import { type Key, TOMBSTONE_INDEX, tombstoneSortKey } from './keys.ts';
import { readItem } from './reads.ts';
import type { Counter } from './streams.ts';
import { writeIf } from './transact.ts';

/** What one purge of a stream did. */
export interface Purge {
  /** The stream's purge mark afterwards (0: nothing purged yet). */
  purged: number;
  /** Tombstones removed by this run. */
  removed: number;
}

/** Tombstones removed per round: one Query page, deleted in parallel. */
const PAGE = 100;

/**
 * Removes the tombstones of a version stream (a seller's catalog) deleted before `before` (ms since
 * the epoch). First the counter's purge mark rises to the highest version removed, then the
 * tombstones go: a diff from below the mark is refused (410 OutdatedVersion) before any deletion it
 * covers can be missing, and every tombstone above the mark is kept. A tombstone re-created as a
 * live entity meanwhile is left alone (each delete is conditioned on the version it read).
 */
export async function purgeTombstones(counter: Key<Counter>, before: number): Promise<Purge> {
  let removed = 0;
  let purged = 0;
  for (;;) {
    const page = await queryItems({
      TableName: table(),
      IndexName: TOMBSTONE_INDEX,
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND tsk < :before',
      ExpressionAttributeValues: { ':pk': counter.pk, ':before': tombstoneSortKey(before) },
      Limit: PAGE,
    });
    const tombstones = (page.Items ?? []) as (Key & { version: number })[];
    if (tombstones.length === 0) return { purged: purged || (await markOf(counter)), removed };
    purged = await raiseMark(counter, Math.max(...tombstones.map((item) => item.version)));
    const results = await Promise.all(tombstones.map((item) => removeTombstone(item)));
    removed += results.filter(Boolean).length;
  }
}

/** Raises the counter's purge mark to `version` (never lowers it); answers the mark. */
async function raiseMark(counter: Key<Counter>, version: number): Promise<number> {
  try {
    const reply = await updateItem({
      TableName: table(),
      Key: { pk: counter.pk, sk: counter.sk },
      UpdateExpression: 'SET purged = :mark',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(purged) OR purged < :mark)',
      ExpressionAttributeValues: { ':mark': version },
      ReturnValues: 'UPDATED_NEW',
    });
    return Number(reply.Attributes?.purged);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return markOf(counter);
    throw error;
  }
}

const markOf = async (counter: Key<Counter>) => (await readItem(counter))?.purged ?? 0;

/** Deletes one tombstone if it still is the tombstone that was read. */
const removeTombstone = (item: Key & { version: number }): Promise<boolean> =>
  writeIf(() =>
    deleteItem({
      TableName: table(),
      Key: { pk: item.pk, sk: item.sk },
      ConditionExpression: 'deleted = :true AND version = :version',
      ExpressionAttributeValues: { ':true': true, ':version': item.version },
    }),
  );
