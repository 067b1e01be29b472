import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { BatchGetCommandOutput, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type ApiError, inconsistentData, outdatedVersion, serviceBusy } from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { db, table } from './client.ts';
import { type Key, tombstoneSortKey, VERSION_INDEX, versionRange, versionSortKey } from './keys.ts';

/** The counter item of a version stream (a seller's catalog, later a register's sales). */
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
}

export type Stored<T> = T & Stamp & Key;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction and the domain error to raise when its condition fails. */
export interface Step {
  write: TransactItem;
  /** Raised when the step's condition fails; without it a failed condition means "changed: decide again". */
  refused?: () => ApiError;
}

/** What a write decides, given the current state it was shown. */
export interface Decision<T, R> {
  /** The entity's new data (deleted: true for a tombstone); stamped with the new version. */
  entity: T & { deleted: boolean };
  /** What the caller gets back. */
  result: R;
  /** Further writes that must commit with this one (directory entries, references, ...). */
  alongside?: readonly Step[];
  /** Sets the stream's liveness (a seller created or deleted). */
  live?: boolean;
}

export interface VersionedWrite<T, R> {
  counter: Key;
  entity: Key;
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
 * Writers of one stream serialize on its counter; each round one of them wins. Twenty rounds with
 * jittered backoff (at most ~2.5 s of waiting) let a dozen concurrent writers all finish.
 */
export const MAX_WRITE_ATTEMPTS = 20;

/**
 * Writes an entity and bumps its stream's counter in one transaction, the entity stamped with
 * the counter's new value, so a version number is never visible before its entity is. Both are
 * read first (one strongly consistent BatchGet); the transaction is conditioned on exactly what
 * was read, and on contention the read-decide-write is retried with a bound.
 */
export async function writeVersioned<T, R>(write: VersionedWrite<T, R>): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const { steps, result } = await planVersioned(write);
    try {
      await db().send(new TransactWriteCommand({ TransactItems: steps.map((step) => step.write) }));
      return result;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const refusal = refusalOf(steps, error);
      if (refusal) throw refusal;
      if (attempt >= MAX_WRITE_ATTEMPTS) throw serviceBusy('Too many concurrent changes; try again');
      await backoff(attempt);
    }
  }
}

/** The domain error of the first step whose condition failed and that names one. */
export function refusalOf(steps: readonly Step[], error: TransactionCanceledException): ApiError | undefined {
  for (const [index, reason] of (error.CancellationReasons ?? []).entries()) {
    const refused = steps[index]?.refused;
    if (reason.Code === 'ConditionalCheckFailed' && refused) return refused();
  }
  return undefined;
}

/**
 * The transaction items of a versioned write, decided on a fresh read, without sending them: for a
 * caller that commits them together with writes of its own (a failed condition then refuses it all).
 */
export async function planVersioned<T, R>(write: VersionedWrite<T, R>): Promise<{ steps: Step[]; result: R }> {
  const { counter, entity } = await readBoth<T>(write.counter, write.entity);
  const next = (counter?.ver ?? 0) + 1;
  const decision = write.decide({ counter, entity, next });
  return {
    steps: [
      { write: counterWrite(write.counter, counter, next, write.apiVersion, decision.live) },
      { write: entityWrite(write, entity, decision.entity, next) },
      ...(decision.alongside ?? []),
    ],
    result: decision.result,
  };
}

async function readBoth<T>(counterKey: Key, entityKey: Key) {
  const name = table();
  const reply = await db().send(
    new BatchGetCommand({ RequestItems: { [name]: { Keys: [counterKey, entityKey], ConsistentRead: true } } }),
  );
  const items = reply.Responses?.[name] ?? [];
  const find = (key: Key) => items.find((item) => item.pk === key.pk && item.sk === key.sk);
  return {
    counter: find(counterKey) as Counter | undefined,
    entity: find(entityKey) as Stored<T> | undefined,
  };
}

function counterWrite(
  key: Key,
  counter: Counter | undefined,
  next: number,
  apiVersion: ApiVersion,
  live?: boolean,
): TransactItem {
  if (counter === undefined) {
    return {
      Put: {
        TableName: table(),
        Item: { ...key, ver: next, live: live ?? true, apiVersion },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  return {
    Update: {
      TableName: table(),
      Key: key,
      UpdateExpression: 'SET ver = :next, apiVersion = :api, live = :live',
      ConditionExpression: 'ver = :current',
      ExpressionAttributeValues: { ':next': next, ':current': counter.ver, ':api': apiVersion, ':live': live ?? counter.live },
    },
  };
}

/**
 * The entity's put, stamped with the new version and time. Commits only over the state the decision
 * was made on: the version read and the reference count read (others' writes change the count
 * without a version, and a tombstone must not hide an entity that became referenced meanwhile).
 * A live entity keeps its count; a tombstone carries its deletion time for the purge (`tombstones.ts`).
 */
function entityWrite<T, R>(
  write: VersionedWrite<T, R>,
  current: Stored<T> | undefined,
  data: { deleted: boolean },
  next: number,
): TransactItem {
  const modified = Date.now();
  const refs = current?.refs ?? 0;
  const item = {
    ...data,
    ...write.entity,
    version: next,
    modified,
    vsk: versionSortKey(write.kind, next),
    ...(data.deleted ? { tsk: tombstoneSortKey(modified) } : refs > 0 ? { refs } : {}),
  };
  return {
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
  };
}

/** Full jitter: a random wait up to 10 ms * 2^attempt, capped at 250 ms. */
export const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(250, 10 * 2 ** attempt)));

/** The stream's counter, read strongly consistently; undefined when it never existed. */
export async function readCounter(key: Key): Promise<Counter | undefined> {
  const reply = await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
  return reply.Item as Counter | undefined;
}

/** One item by key, strongly consistent. */
export async function readItem<T>(key: Key): Promise<Stored<T> | undefined> {
  const reply = await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
  return reply.Item as Stored<T> | undefined;
}

/**
 * The entities of a kind whose version v satisfies from < v <= to, tombstones included (docs/conventions.md §7).
 * `to` must not pass the counter: versions up to it are committed, so a strongly consistent
 * query of the version index sees every one of them. A `from` below the purge mark may miss
 * deletions (410 OutdatedVersion: resync fully); `from` 0 holds nothing, so it misses none.
 */
export async function readDiff<T>(pk: string, kind: string, from: number, to: number, counter: Counter): Promise<Stored<T>[]> {
  checkRange(from, to, counter);
  if (from >= to) return [];
  const [low, high] = versionRange(kind, from, to);
  return queryAll<T>({
    IndexName: VERSION_INDEX,
    KeyConditionExpression: 'pk = :pk AND vsk BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': pk, ':low': low, ':high': high },
  });
}

/**
 * How many entities of a kind a diff (from, to] holds, and how many of them are tombstones: the
 * same strongly consistent range as `readDiff`, counted by DynamoDB without returning the items.
 * The caller has checked the range (`checkRange`).
 */
export async function countDiff(
  pk: string,
  kind: string,
  from: number,
  to: number,
): Promise<{ changed: number; deleted: number }> {
  const total = { changed: 0, deleted: 0 };
  if (from >= to) return total;
  const [low, high] = versionRange(kind, from, to);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: VERSION_INDEX,
        ConsistentRead: true,
        Select: 'COUNT',
        KeyConditionExpression: 'pk = :pk AND vsk BETWEEN :low AND :high',
        FilterExpression: 'deleted = :true',
        ExpressionAttributeValues: { ':pk': pk, ':low': low, ':high': high, ':true': true },
        ExclusiveStartKey: startKey,
      }),
    );
    total.changed += page.ScannedCount ?? 0;
    total.deleted += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return total;
}

/** A diff of a live stream: one whose counter never existed or whose owner was deleted is `missing()`. */
export async function readStreamDiff<T>(
  counterKey: Key,
  kind: string,
  range: { from: number; to: number },
  missing: () => ApiError,
): Promise<Stored<T>[]> {
  const counter = await readCounter(counterKey);
  if (!counter?.live) throw missing();
  return readDiff<T>(counterKey.pk, kind, range.from, range.to, counter);
}

/** Refuses a diff range the stream cannot answer completely (docs/conventions.md §7, spec 9.2). */
export function checkRange(from: number, to: number, counter: Counter): void {
  if (to > counter.ver) {
    throw inconsistentData('LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY', `Version ${to} is ahead of the server's ${counter.ver}`);
  }
  if (from > 0 && from < (counter.purged ?? 0)) {
    throw outdatedVersion(`Deletions up to version ${counter.purged ?? 0} are no longer kept; resynchronize from version 0`);
  }
}

/** The live (not deleted) entities whose sort key starts with `prefix`. */
export function readCollection<T>(pk: string, prefix: string): Promise<Stored<T>[]> {
  return queryAll<T>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'deleted = :false',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ':false': false },
  });
}

/**
 * One page of the live entities whose sort key starts with `prefix`, in key order: reads only up to
 * the page's end (and the tombstones between), not the whole collection.
 */
export async function readCollectionPage<T>(
  pk: string,
  prefix: string,
  page: { skip: number; take: number; descending: boolean },
): Promise<Stored<T>[]> {
  const wanted = page.skip + page.take;
  const items: Stored<T>[] = [];
  let startKey: Record<string, unknown> | undefined;
  while (page.take > 0 && items.length < wanted) {
    const reply = await db().send(
      new QueryCommand({
        TableName: table(),
        ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'deleted = :false',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ':false': false },
        ScanIndexForward: !page.descending,
        Limit: wanted - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((reply.Items ?? []) as Stored<T>[]));
    startKey = reply.LastEvaluatedKey;
    if (!startKey) break;
  }
  return items.slice(page.skip, wanted);
}

/** Every item of a partition (a directory: users, vendors, applications, devices, links). */
export function readPartition<T>(pk: string): Promise<Stored<T>[]> {
  return queryAll<T>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });
}

type QueryShape = Pick<
  ConstructorParameters<typeof QueryCommand>[0],
  'IndexName' | 'KeyConditionExpression' | 'FilterExpression' | 'ExpressionAttributeValues'
>;

async function queryAll<T>(shape: QueryShape): Promise<Stored<T>[]> {
  const items: Stored<T>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ TableName: table(), ConsistentRead: true, ExclusiveStartKey: startKey, ...shape }),
    );
    items.push(...((page.Items ?? []) as Stored<T>[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Items by key (strongly consistent BatchGets of up to 100 keys), in the order of `wanted`; missing ones are left out. */
export async function readItems<T>(wanted: readonly Key[]): Promise<Stored<T>[]> {
  const name = table();
  const found = new Map<string, Stored<T>>();
  for (let start = 0; start < wanted.length; start += 100) {
    let pending: Record<string, unknown>[] | undefined = wanted.slice(start, start + 100).map(({ pk, sk }) => ({ pk, sk }));
    for (let attempt = 1; pending && pending.length > 0; attempt++) {
      if (attempt > MAX_WRITE_ATTEMPTS) throw serviceBusy('The table is busy; try again');
      if (attempt > 1) await backoff(attempt);
      const reply: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({ RequestItems: { [name]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of (reply.Responses?.[name] ?? []) as Stored<T>[]) found.set(`${item.pk}\n${item.sk}`, item);
      pending = reply.UnprocessedKeys?.[name]?.Keys;
    }
  }
  return wanted.flatMap((key) => found.get(`${key.pk}\n${key.sk}`) ?? []);
}
