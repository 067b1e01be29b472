/**
 * The copy of a first-generation table (two LSIs, `cash-register-<stage>`) into the second generation's table (no LSI,
 * scripts/stage.ts): docs/operations.md, "Migrations", says when and how it runs. Every item is copied as it is, moved
 * where the layout moved it, with the items the new layout keeps beside it:
 * - a versioned item gets its change item and a tombstone its marker (the version and tombstone indexes, in the table);
 * - a Kd log record of a directory every register writes to moves to its shard;
 * - a register's journal gets its hour markers, the first sequence of every hour that has entries.
 * The source is only read. Rerunning the copy writes the same items again, so an interrupted copy is run again whole.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { batchGetItems, putInBulk, scanItems, updateItem } from '#shared/db/documents.ts';
import type { Key } from '#shared/db/keys.ts';
import { indexItemsOf, type StoredItem } from '#shared/db/streams.ts';
import { hourMarkers, JOURNAL_PREFIX, registerKeys } from '#shared/fiscal/ledger.ts';
import { migrateKdLogKey } from '#shared/kd/records.ts';

/** A journal hour marker to write, by its key. */
type HourMarkerItem = Key & { sequence: number };

/** What a copy did, for its operator. */
export interface CopySummary {
  /** Items read from the source. */
  read: number;
  /** Items written to the target: the source's, re-keyed where they moved, and the index items beside them. */
  written: number;
  /** Journal hour markers written (one per register and hour with entries). */
  hourMarkers: number;
}

/** The items of the second generation that one item of the first becomes. */
export function secondGenerationItems(item: StoredItem): StoredItem[] {
  const moved = typeof item.id === 'string' ? { ...item, ...migrateKdLogKey({ pk: item.pk, sk: item.sk, id: item.id }) } : item;
  return indexItemsOf(moved);
}

/** The seller and register a register partition's key names (`R#<sellerId>#<cash>`: a seller id holds no `#`). */
function registerOf(pk: string): { sellerId: string; cash: string } {
  const [, sellerId = '', ...cash] = pk.split('#');
  return { sellerId, cash: cash.join('#') };
}

/** A page's journal entries, by register partition: the hour markers each register's entries need. */
function hourMarkersOf(items: readonly StoredItem[]): HourMarkerItem[] {
  const byRegister = new Map<string, { sequence: number; created: number }[]>();
  for (const item of items) {
    if (!item.sk.startsWith(JOURNAL_PREFIX) || typeof item.sequence !== 'number' || typeof item.created !== 'number') continue;
    const entries = byRegister.get(item.pk) ?? [];
    entries.push({ sequence: item.sequence, created: item.created });
    byRegister.set(item.pk, entries);
  }
  return [...byRegister].flatMap(([pk, entries]) => {
    const { sellerId, cash } = registerOf(pk);
    return hourMarkers(entries).map(({ hour, sequence }) => ({ ...registerKeys.journalHour(sellerId, cash, hour), sequence }));
  });
}

/**
 * Writes a marker unless the target holds one with an earlier sequence: a register's entries of one hour may come
 * in two Scan pages, and the marker must name the first.
 */
async function keepEarliest(tableName: string, marker: HourMarkerItem): Promise<void> {
  try {
    await updateItem({
      TableName: tableName,
      Key: { pk: marker.pk, sk: marker.sk },
      UpdateExpression: 'SET #sequence = :sequence',
      ConditionExpression: 'attribute_not_exists(#sequence) OR #sequence > :sequence',
      ExpressionAttributeNames: { '#sequence': 'sequence' },
      ExpressionAttributeValues: { ':sequence': marker.sequence },
    });
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** Each page of a consistent Scan of `tableName`, in turn. */
async function* scanPages(tableName: string): AsyncGenerator<StoredItem[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await scanItems({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: startKey });
    yield (page.Items ?? []) as StoredItem[];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Copies every item of `from` into `to` in the second generation's layout. */
export async function copyToSecondGeneration(from: string, to: string): Promise<CopySummary> {
  const summary: CopySummary = { read: 0, written: 0, hourMarkers: 0 };
  for await (const items of scanPages(from)) {
    const written = items.flatMap(secondGenerationItems);
    await putInBulk(to, written);
    const markers = hourMarkersOf(items);
    for (const marker of markers) await keepEarliest(to, marker);
    summary.read += items.length;
    summary.written += written.length;
    summary.hourMarkers += markers.length;
  }
  return summary;
}

/** BatchGetItem reads at most 100 keys. */
const GET_BATCH = 100;

/**
 * Reads the source again and answers the keys of the items it should have become that the target lacks (none when
 * the copy is complete): the check before the switch, and before the old table may go.
 */
export async function missingInSecondGeneration(from: string, to: string): Promise<{ pk: string; sk: string }[]> {
  const missing: { pk: string; sk: string }[] = [];
  for await (const items of scanPages(from)) {
    const keys = items.flatMap(secondGenerationItems).map(({ pk, sk }) => ({ pk, sk }));
    for (let start = 0; start < keys.length; start += GET_BATCH) {
      const wanted = keys.slice(start, start + GET_BATCH);
      let pending: Record<string, unknown>[] = wanted;
      const found = new Set<string>();
      while (pending.length > 0) {
        const answer = await batchGetItems({
          RequestItems: { [to]: { Keys: pending, ConsistentRead: true, ProjectionExpression: 'pk, sk' } },
        });
        for (const item of answer.Responses?.[to] ?? []) found.add(`${String(item.pk)}\u0000${String(item.sk)}`);
        pending = answer.UnprocessedKeys?.[to]?.Keys ?? [];
      }
      missing.push(...wanted.filter(({ pk, sk }) => !found.has(`${pk}\u0000${sk}`)));
    }
  }
  return missing;
}
