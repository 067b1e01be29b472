import { type ApiError, inconsistentData, outdatedVersion } from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { table } from './client.ts';
import { queryItems } from './documents.ts';
import {
  changeKey,
  changeRange,
  entityPrefix,
  type Key,
  markerKey,
  type Partition,
  tombstoneSortKey,
  versionSortKey,
} from './keys.ts';
import { type KeyPage, queryAll, type QueryShape, queryEach, readItem, readPage, readPair } from './reads.ts';
import { commit, type Step, type TransactItem } from './transact.ts';

/**
 * A version stream: a counter and the entities it stamps, in one partition, so a diff is one
 * strongly consistent Query of the partition's change items (its version index, `indexItemsOf`). A seller's
 * catalog is one stream (`shared/domain/seller.ts`); a register's sales and days are another.
 */
export interface Stream {
  partition: Partition;
  counter: Key<Counter>;
  /** Raised when the stream's owner does not exist or was deleted: its data answers 404. */
  missing(): ApiError;
}

/** The counter item of a version stream. */
export interface Counter {
  /** The stream's current version: every entity stamped with a version <= it is committed. */
  ver: number;
  /** False once the owner (the seller) is deleted; writes to the stream are then refused. */
  live: boolean;
  /** The API version of the last write (`modificationApiVersion`). */
  apiVersion?: ApiVersion;
  /** Tombstones of versions up to this one may have been purged (`tombstones.ts`); 0 or absent: none. */
  purged?: number;
}

/** Attributes every versioned item carries besides its own data. */
export interface Stamp {
  version: number;
  deleted: boolean;
  /** When the version was written (ms since the epoch). */
  modified: number;
  /** How many live entities reference this one (a product's tax, ...); kept by `writeVersioned`. */
  refs?: number;
  /** Its version-index key, `<KIND>#<pad(version)>` (`versionSortKey`); absent: not indexed (the open day). */
  vsk?: string;
  /** A tombstone's deletion time, `pad(modified)` (`tombstoneSortKey`): its marker's key, for the purge. */
  tsk?: string;
}

export type Stored<T> = T & Stamp & Key;

/** An entity of the stream whose partition is `pk` (a seller's catalog, a register's sales), by kind and identifier. */
export const streamEntityKey = <T>(pk: string, kind: string, identifier: string): Key<Stored<T>> => ({
  pk,
  sk: `${entityPrefix(kind)}${identifier}`,
});

/** An entity of a stream by kind and identifier. */
export const streamEntity = <T>(stream: Stream, kind: string, identifier: string): Key<Stored<T>> =>
  streamEntityKey<T>(stream.partition.pk, kind, identifier);

/** Which entity of a kind holds a value that must be unique in its stream's partition (a precept's order). */
export const uniqueValueKey = (streamPk: string, kind: string, field: string, value: string): Key<{ holder: string }> => ({
  pk: streamPk,
  sk: `UNIQUE#${kind}#${field}#${value}`,
});

/** What a write decides, given the current state it was shown. */
export interface Decision<T, R> {
  /** The entity's new data, or a tombstone keeping what identifies it; stamped with the new version. */
  entity: (T & { deleted: false }) | ({ deleted: true } & Readonly<Record<string, unknown>>);
  /** What the caller gets back. */
  result: R;
  /** Further writes that must commit with this one (directory entries, references, ...). */
  alongside?: readonly Step[];
  /** Sets the stream's liveness (a seller created or deleted). */
  live?: boolean;
}

export interface VersionedWrite<T, R> {
  stream: Stream;
  entity: Key<Stored<T>>;
  /** Entity kind: the prefix of its version-index sort key. */
  kind: string;
  apiVersion: ApiVersion;
  /**
   * Decides the write from the current counter (undefined: stream never existed) and entity
   * (undefined: never written; a tombstone has deleted: true). Throws the domain's error to refuse.
   */
  decide(current: { counter: Counter | undefined; entity: Stored<T> | undefined; next: number }): Decision<T, R>;
}

/**
 * The one test of a stream's liveness, on its counter as read: a stream that never existed or whose owner was deleted
 * is `missing()`. `liveCounterCheck` is the same test made by the transaction that writes.
 */
export function liveCounter(stream: Stream, counter: Counter | undefined): Counter {
  if (!counter?.live) throw stream.missing();
  return counter;
}

/**
 * `liveCounter` at commit: holds a write outside the stream (a seller's restaurant record) to the stream being live
 * when the transaction commits, else `missing()`. A write in the stream needs none: its counter update commits only
 * over the version it read, which `liveCounter` found live (`counterWrite`).
 */
export function liveCounterCheck(stream: Stream): Step {
  return {
    write: {
      ConditionCheck: {
        TableName: table(),
        Key: { pk: stream.counter.pk, sk: stream.counter.sk },
        ConditionExpression: 'live = :true',
        ExpressionAttributeValues: { ':true': true },
      },
    },
    refused: () => stream.missing(),
  };
}

/**
 * Writes an entity and bumps its stream's counter in one transaction, the entity stamped with
 * the counter's new value, so a version number is never visible before its entity is. Both are
 * read first (one strongly consistent BatchGet); the transaction is conditioned on exactly what
 * was read, and on contention the read-decide-write is retried with a bound.
 */
export function writeVersioned<T, R>(write: VersionedWrite<T, R>): Promise<R> {
  return commit(() => planVersioned(write), 'retry-all');
}

/**
 * The transaction items of a versioned write, decided on a fresh read, without sending them: for a
 * caller that commits them together with writes of its own (a failed condition then refuses it all).
 */
export async function planVersioned<T, R>(write: VersionedWrite<T, R>): Promise<{ steps: Step[]; result: R }> {
  const [counter, entity] = await readPair(write.stream.counter, write.entity);
  const next = (counter?.ver ?? 0) + 1;
  const decision = write.decide({ counter, entity, next });
  return { steps: versionedSteps(write, { counter, entity }, decision, Date.now()), result: decision.result };
}

/**
 * The transaction of a decided versioned write, on the counter and entity it was decided on: the
 * counter moved to the next version, the entity stamped with it at `now`, and the decision's own steps.
 */
export function versionedSteps<T, R>(
  write: Pick<VersionedWrite<T, R>, 'stream' | 'entity' | 'kind' | 'apiVersion'>,
  read: { counter: Counter | undefined; entity: Stored<T> | undefined },
  decision: Decision<T, R>,
  now: number,
): Step[] {
  const next = (read.counter?.ver ?? 0) + 1;
  return [
    { write: counterWrite(write.stream.counter, read.counter, next, write.apiVersion, decision.live) },
    ...entityWrite(write, read.entity, decision.entity, next, now).map((item) => ({ write: item })),
    ...(decision.alongside ?? []),
  ];
}

/**
 * The counter moved from the version read to `next`, only if no one moved it meanwhile. `state` is
 * what the stream keeps beside its version (a register's ledger), set in the same write.
 */
export function counterWrite(
  key: Key,
  counter: Counter | undefined,
  next: number,
  apiVersion: ApiVersion,
  live?: boolean,
  state: Readonly<Record<string, unknown>> = {},
): TransactItem {
  if (counter === undefined) {
    return {
      Put: {
        TableName: table(),
        Item: { ...state, pk: key.pk, sk: key.sk, ver: next, live: live ?? true, apiVersion },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  const fields = Object.keys(state);
  return {
    Update: {
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      UpdateExpression: ['SET ver = :next, apiVersion = :api, live = :live', ...fields.map((_, i) => `#s${i} = :s${i}`)].join(
        ', ',
      ),
      ConditionExpression: 'ver = :current',
      ...(fields.length > 0 ? { ExpressionAttributeNames: Object.fromEntries(fields.map((field, i) => [`#s${i}`, field])) } : {}),
      ExpressionAttributeValues: {
        ':next': next,
        ':current': counter.ver,
        ':api': apiVersion,
        ':live': live ?? counter.live,
        ...Object.fromEntries(fields.map((field, i) => [`:s${i}`, state[field]])),
      },
    },
  };
}

/**
 * The entity's put, stamped with the new version and time, with its index items (`indexItemsOf`). Commits only over
 * the state the decision was made on: the version read and the reference count read (others' writes change the count
 * without a version, and a tombstone must not hide an entity that became referenced meanwhile). A live entity keeps
 * its count; a tombstone carries its deletion time for the purge (`tombstones.ts`). The index items of the entity as
 * read go in the same transaction: its change item (its version moved on) and its tombstone's marker (re-created), so
 * the version index holds each entity once, at its version, exactly when the entity is committed.
 * `indexed: false` leaves it out of the version index (no vsk, no change item): for an entity its stream's diffs
 * read by key instead. The first item is the entity's put, the others carry no condition.
 */
export function entityWrite<T>(
  write: Pick<VersionedWrite<T, unknown>, 'entity' | 'kind'> & { indexed?: boolean },
  current: Stored<T> | undefined,
  data: { deleted: boolean },
  next: number,
  modified: number,
): TransactItem[] {
  const { pk, sk } = write.entity;
  const refs = current?.refs ?? 0;
  const item: StoredItem = {
    ...data,
    pk,
    sk,
    version: next,
    modified,
    vsk: versionSortKey(write.kind, next),
    ...(data.deleted ? { tsk: tombstoneSortKey(modified) } : refs > 0 ? { refs } : {}),
  };
  // Also when `data` is the entity as read, which may carry the vsk of an entry it had.
  if (write.indexed === false) delete item.vsk;
  const [, ...index] = indexItemsOf(item);
  const replaced = [
    ...(current?.vsk === undefined ? [] : [changeKey(pk, current.vsk)]),
    ...(current?.tsk === undefined ? [] : [markerKey(pk, current.tsk, sk)]),
  ].filter((key) => !index.some((put) => put.sk === key.sk));
  return [
    {
      Put: {
        TableName: table(),
        Item: item,
        ...(current === undefined
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: 'version = :seen AND (attribute_not_exists(refs) OR refs = :refs)',
              ExpressionAttributeValues: { ':seen': current.version, ':refs': refs },
            }),
      },
    },
    ...index.map((put) => ({ Put: { TableName: table(), Item: put } })),
    ...replaced.map((key) => ({ Delete: { TableName: table(), Key: { pk: key.pk, sk: key.sk } } })),
  ];
}

/** An item of the table as stored: its key and its attributes. */
export type StoredItem = Key & Record<string, unknown>;

/**
 * The items that stand for one versioned item in the table (pure; docs/architecture.md, "The table's items"): the
 * item itself, unchanged, first; its change item when it carries a `vsk` (a full copy of it at `changeKey(pk, vsk)`,
 * with `esk` = its own sort key), which the version index's Queries read; its tombstone's marker when it carries a
 * `tsk` (at `markerKey(pk, tsk, sk)`, holding `version`, `esk` and its `vsk`), which the purge reads. An item with
 * neither stands for itself alone. `entityWrite` puts these for the item it writes; the migration from the table whose
 * version and tombstone indexes were LSIs (on `vsk` and `tsk`) puts them for each item it finds there.
 */
export function indexItemsOf(item: StoredItem): StoredItem[] {
  const { pk, sk, vsk, tsk } = item;
  const change = typeof vsk === 'string' ? [{ ...item, ...changeKey(pk, vsk), esk: sk }] : [];
  const marker =
    typeof tsk === 'string'
      ? [{ ...markerKey(pk, tsk, sk), version: item.version, esk: sk, ...(typeof vsk === 'string' ? { vsk } : {}) }]
      : [];
  return [item, ...change, ...marker];
}

/** A change item as read: the entity it copies, at the change's sort key, with the entity's own in `esk`. */
type ChangeItem<T> = Stored<T> & { esk: string };

/** The entity a change item copies, as the entity's own item reads: its sort key the entity's, no `esk`. */
const entityOf = <T>({ esk, ...copy }: ChangeItem<T>): Stored<T> => ({ ...copy, sk: esk }) as Stored<T>;

/** The Query of a stream's change items of a kind whose version v satisfies from < v <= to, in version order. */
function changesQuery(pk: string, kind: string, from: number, to: number): QueryShape & { ExpressionAttributeValues: object } {
  const [low, high] = changeRange(kind, from, to);
  return {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': pk, ':low': low, ':high': high },
  };
}

/**
 * The entities of a kind in partition `pk` whose version v satisfies from < v <= to, oldest first, read a page at a
 * time as the caller goes on: a strongly consistent Query of their change items, each given as the entity's own item.
 * `filter` keeps those the caller wants (a Query filter: the range is read whole). The caller has checked the range.
 */
export async function* eachVersion<T>(
  pk: string,
  kind: string,
  range: { from: number; to: number },
  filter?: Pick<QueryShape, 'FilterExpression' | 'ExpressionAttributeNames'> & { ExpressionAttributeValues: object },
): AsyncGenerator<Stored<T>> {
  if (range.from >= range.to) return;
  const query = changesQuery(pk, kind, range.from, range.to);
  const shape: QueryShape = filter
    ? {
        ...query,
        ...filter,
        ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ...filter.ExpressionAttributeValues },
      }
    : query;
  for await (const change of queryEach<ChangeItem<T>>(shape)) yield entityOf(change);
}

/** The stream's counter, read strongly consistently; undefined when it never existed. */
export const readCounter = (stream: Stream): Promise<Counter | undefined> => readItem(stream.counter);

/** The counter of a live stream (`missing()` otherwise). */
export const readLiveCounter = async (stream: Stream): Promise<Counter> => liveCounter(stream, await readCounter(stream));

/**
 * The entities of a kind whose version v satisfies from < v <= to, tombstones included
 * (docs/conventions.md §7). `to` must not pass the counter: versions up to it are committed, and each
 * entity's change item with it, so a strongly consistent Query of the change items sees every one of them.
 * A `from` below the purge mark may miss deletions (410 OutdatedVersion: resync fully); `from` 0 holds nothing,
 * so it misses none. A stream that is not live is `missing()`. `read` is the stream's counter when the caller
 * has just read it (strongly consistently, before this Query), so it is not read twice.
 */
export async function readDiff<T>(
  stream: Stream,
  kind: string,
  range: { from: number; to: number },
  read?: Counter,
): Promise<Stored<T>[]> {
  checkRange(range.from, range.to, read ? liveCounter(stream, read) : await readLiveCounter(stream));
  const entities: Stored<T>[] = [];
  for await (const entity of eachVersion<T>(stream.partition.pk, kind, range)) entities.push(entity);
  return entities;
}

/**
 * At most `limit` entities of a kind whose version v satisfies from < v <= to, oldest first: a strongly
 * consistent Query of their change items that reads only as far as it needs. The caller has checked the range.
 */
export async function readVersions<T>(
  stream: Stream,
  kind: string,
  range: { from: number; to: number },
  limit: number,
): Promise<Stored<T>[]> {
  const items: Stored<T>[] = [];
  if (range.from >= range.to) return items;
  let startKey: Record<string, unknown> | undefined;
  while (items.length < limit) {
    const page = await queryItems({
      TableName: table(),
      ConsistentRead: true,
      ...changesQuery(stream.partition.pk, kind, range.from, range.to),
      Limit: limit - items.length,
      ExclusiveStartKey: startKey,
    });
    items.push(...((page.Items ?? []) as ChangeItem<T>[]).map(entityOf));
    startKey = page.LastEvaluatedKey;
    if (!startKey) break;
  }
  return items;
}

/**
 * How many entities of a kind a diff (from, to] holds, and how many of them are tombstones: the
 * same strongly consistent range as `readDiff`, counted by DynamoDB without returning the items
 * (a change item copies its entity's `deleted`). The caller has checked the range (`checkRange`).
 */
export async function countDiff(
  stream: Stream,
  kind: string,
  from: number,
  to: number,
  /** Stop counting once more than this many have changed (a read that only asks whether a bound is passed). */
  atMost = Number.POSITIVE_INFINITY,
): Promise<{ changed: number; deleted: number }> {
  const total = { changed: 0, deleted: 0 };
  if (from >= to) return total;
  const query = changesQuery(stream.partition.pk, kind, from, to);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryItems({
      TableName: table(),
      ConsistentRead: true,
      Select: 'COUNT',
      KeyConditionExpression: query.KeyConditionExpression,
      FilterExpression: 'deleted = :true',
      ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ':true': true },
      ExclusiveStartKey: startKey,
    });
    total.changed += page.ScannedCount ?? 0;
    total.deleted += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey && total.changed <= atMost);
  return total;
}

/** The live (not deleted) entities of a stream whose sort key starts with `prefix` (a kind's `KIND#`). */
export function readLive<T>(stream: Stream, prefix: string): Promise<Stored<T>[]> {
  return queryAll<Stored<T>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'deleted = :false',
    ExpressionAttributeValues: { ':pk': stream.partition.pk, ':prefix': prefix, ':false': false },
  });
}

/**
 * One page of the live entities whose sort key starts with `prefix`, in key order: reads only up to
 * the page's end (and the tombstones between), not the whole collection.
 */
export function readLivePage<T>(stream: Stream, prefix: string, page: KeyPage): Promise<Stored<T>[]> {
  return readPage<Stored<T>>(stream.partition.pk, prefix, page, {
    FilterExpression: 'deleted = :false',
    ExpressionAttributeValues: { ':false': false },
  });
}

/** Refuses a diff range the stream cannot answer completely (docs/conventions.md §7; spec 9.2). */
export function checkRange(from: number, to: number, counter: Counter): void {
  if (to > counter.ver) {
    throw inconsistentData('LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY', `Version ${to} is ahead of the server's ${counter.ver}`);
  }
  if (from > 0 && from < (counter.purged ?? 0)) {
    throw outdatedVersion(`Deletions up to version ${counter.purged ?? 0} are no longer kept; resynchronize from version 0`);
  }
}
