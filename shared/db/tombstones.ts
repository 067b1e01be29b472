import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { table } from './client.ts';
import { deleteItem, queryItems, updateItem } from './documents.ts';
import { changeKey, type Key, markersBefore } from './keys.ts';
import { readItem } from './reads.ts';
import type { Counter } from './streams.ts';
import { remove, transact, writeIf } from './transact.ts';

/** What one purge of a stream did. */
export interface Purge {
  /** The stream's purge mark afterwards (0: nothing purged yet). */
  purged: number;
  /** Tombstones removed by this run. */
  removed: number;
}

/** A tombstone's marker (`indexItemsOf`): the version it was deleted at, its sort key and its change item's key. */
interface Marker extends Key {
  version: number;
  esk: string;
  vsk?: string;
}

/** Tombstones removed per round: one Query page, deleted in parallel. */
const PAGE = 100;

/**
 * Removes the tombstones of a version stream (a seller's catalog) deleted before `before` (ms since
 * the epoch), found by their markers (oldest first). First the counter's purge mark rises to the highest
 * version removed, then the tombstones go: a diff from below the mark is refused (410 OutdatedVersion)
 * before any deletion it covers can be missing, and every tombstone above the mark is kept. Each goes in
 * one transaction with its change item and its marker. A tombstone re-created as a live entity meanwhile
 * is left alone (each delete is conditioned on the version its marker names).
 */
export async function purgeTombstones(counter: Key<Counter>, before: number): Promise<Purge> {
  const [low, high] = markersBefore(before);
  let removed = 0;
  let purged = 0;
  for (;;) {
    const page = await queryItems({
      TableName: table(),
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':pk': counter.pk, ':low': low, ':high': high },
      Limit: PAGE,
    });
    const markers = (page.Items ?? []) as Marker[];
    if (markers.length === 0) return { purged: purged || (await markOf(counter)), removed };
    purged = await raiseMark(counter, Math.max(...markers.map((marker) => marker.version)));
    const results = await Promise.all(markers.map((marker) => removeTombstone(marker)));
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

/**
 * Deletes the tombstone a marker names, if it still is that tombstone, with its change item and the marker, in one
 * transaction; true when it did. A tombstone written over since (re-created) was not removed: the write over it
 * deleted its change item and its marker, and only a marker it left behind (conditioned on its version) is deleted.
 */
async function removeTombstone(marker: Marker): Promise<boolean> {
  try {
    await transact([
      {
        write: {
          Delete: {
            TableName: table(),
            Key: { pk: marker.pk, sk: marker.esk },
            ConditionExpression: 'deleted = :true AND version = :version',
            ExpressionAttributeValues: { ':true': true, ':version': marker.version },
          },
        },
      },
      ...(marker.vsk === undefined ? [] : [remove(changeKey(marker.pk, marker.vsk))]),
      remove(marker),
    ]);
    return true;
  } catch (error) {
    const changed =
      error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed';
    if (!changed) throw error;
    await writeIf(() =>
      deleteItem({
        TableName: table(),
        Key: { pk: marker.pk, sk: marker.sk },
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': marker.version },
      }),
    );
    return false;
  }
}
