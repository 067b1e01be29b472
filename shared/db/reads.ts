import type { BatchGetCommandOutput, QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { serviceBusy } from '#shared/errors.ts';
import { table } from './client.ts';
import { batchGetItems, getItem, queryItems } from './documents.ts';
import type { Key, Partition } from './keys.ts';
import { aheadOf, keepAhead } from './read-ahead.ts';
import { backoff, MAX_ATTEMPTS } from './retry.ts';

/** An item as read: its data and its key. */
export type Item<T> = T & Key<T>;

/** One item by key, strongly consistent; undefined when there is none. Answered from what the request read ahead, if it did. */
export async function readItem<T>(key: Key<T>): Promise<Item<T> | undefined> {
  const ahead = aheadOf(key);
  if (ahead) return ahead.item as Item<T> | undefined;
  const reply = await getItem({ TableName: table(), Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true });
  return reply.Item as Item<T> | undefined;
}

/**
 * Items by key (strongly consistent BatchGets of up to 100 keys), in the order of `wanted`; missing ones are left out.
 * Keys the request read ahead are answered from there.
 */
export async function readItems<T>(wanted: readonly Key<T>[]): Promise<Item<T>[]> {
  const found = new Map<string, Item<T>>();
  const unread: Key<T>[] = [];
  for (const key of wanted) {
    const ahead = aheadOf(key);
    if (!ahead) unread.push(key);
    else if (ahead.item) found.set(`${key.pk}\n${key.sk}`, ahead.item as Item<T>);
  }
  await batchRead(unread, found);
  return wanted.flatMap((key) => found.get(`${key.pk}\n${key.sk}`) ?? []);
}

/**
 * Reads `wanted` in one round trip (up to 100 keys) and keeps what it finds, and what it does not, for the reads by key
 * that follow in the same request (`read-ahead.ts`).
 */
export async function readAhead(wanted: readonly Key[]): Promise<void> {
  if (wanted.length === 0) return;
  const found = new Map<string, Item<unknown>>();
  await batchRead(wanted, found);
  keepAhead(wanted, [...found.values()]);
}

/** Strongly consistent BatchGets of `wanted`, 100 keys at a time, unprocessed keys retried with a bound; into `found`. */
async function batchRead<T>(wanted: readonly Key<T>[], found: Map<string, Item<T>>): Promise<void> {
  const name = table();
  // BatchGetItem refuses a list that names one key twice.
  const distinct = [...new Map(wanted.map(({ pk, sk }) => [`${pk}\n${sk}`, { pk, sk }])).values()];
  for (let start = 0; start < distinct.length; start += 100) {
    let pending: Record<string, unknown>[] | undefined = distinct.slice(start, start + 100);
    for (let attempt = 1; pending && pending.length > 0; attempt++) {
      if (attempt > MAX_ATTEMPTS) throw serviceBusy('The table is busy; try again');
      if (attempt > 1) await backoff(attempt);
      const reply: BatchGetCommandOutput = await batchGetItems({
        RequestItems: { [name]: { Keys: pending, ConsistentRead: true } },
      });
      for (const item of (reply.Responses?.[name] ?? []) as Item<T>[]) found.set(`${item.pk}\n${item.sk}`, item);
      pending = reply.UnprocessedKeys?.[name]?.Keys;
    }
  }
}

/** Two items of different types in one strongly consistent round trip (a stream's counter and an entity). */
export async function readPair<A, B>(first: Key<A>, second: Key<B>): Promise<[Item<A> | undefined, Item<B> | undefined]> {
  const items = await readItems<unknown>([first, second]);
  const find = (key: Key) => items.find((item) => item.pk === key.pk && item.sk === key.sk);
  return [find(first) as Item<A> | undefined, find(second) as Item<B> | undefined];
}

/** Every item of a partition (a directory: users, vendors, applications, devices, links). */
export function readPartition<T>(partition: Partition<T>): Promise<Item<T>[]> {
  return queryAll<T>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition.pk } });
}

export type QueryShape = Pick<
  QueryCommandInput,
  'IndexName' | 'KeyConditionExpression' | 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;

/** The items of partition `pk` whose sort keys begin with `prefix` (an entity's items of one kind), in key order. */
export const withPrefix = (pk: string, prefix: string): QueryShape => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
});

/**
 * Every item a strongly consistent Query finds, one page read at a time as the caller goes on: a caller that stops
 * early reads no further page, and only one page is held at once. With `firstPage`, the first page holds at most that
 * many items and each next one twice as many as the last (DynamoDB's 1 MB a page caps them all): a caller that stops
 * after n items has read fewer than 2n + `firstPage`, where a page of 1 MB could read far past what it wanted.
 */
/**
 * The next page's `Limit` after one of `limit`: twice as many, until a page of that many items would pass 1 MB for any
 * item of 64 bytes or more; from there none, and DynamoDB's 1 MB is the page's bound. Never past 2^31 - 1, which
 * DynamoDB refuses (`Limit` is a 32-bit integer: a year's journal, read a doubling page after another, got there).
 */
export const nextPageLimit = (limit: number | undefined): number | undefined =>
  limit === undefined || limit * 2 > MOST_ITEMS_A_PAGE ? undefined : limit * 2;
const MOST_ITEMS_A_PAGE = 16_384;

export async function* queryEach<T>(shape: QueryShape, firstPage?: number): AsyncGenerator<Item<T>> {
  let startKey: Record<string, unknown> | undefined;
  let limit = firstPage;
  do {
    const page = await queryItems({
      TableName: table(),
      ConsistentRead: true,
      ExclusiveStartKey: startKey,
      ...shape,
      ...(limit === undefined ? {} : { Limit: limit }),
    });
    yield* (page.Items ?? []) as Item<T>[];
    startKey = page.LastEvaluatedKey;
    limit = nextPageLimit(limit);
  } while (startKey);
}

/** Every item a strongly consistent Query finds, page after page. */
export async function queryAll<T>(shape: QueryShape): Promise<Item<T>[]> {
  const items: Item<T>[] = [];
  for await (const item of queryEach<T>(shape)) items.push(item);
  return items;
}

/** A page of a key range: `skip` items, then at most `take`, in key order or its reverse. */
export interface KeyPage {
  skip: number;
  take: number;
  descending: boolean;
}

/** A Query's filter: it drops items after they are read (and paid for), so a page may read past what it shows. */
export interface QueryFilter {
  FilterExpression: string;
  ExpressionAttributeValues: Record<string, unknown>;
  ExpressionAttributeNames?: Record<string, string>;
}

/**
 * One page of the items of a partition whose sort key starts with `prefix` (and that pass `filter`), in
 * key order: reads only up to the page's end, not the whole collection.
 */
export async function readPage<T>(
  pk: string,
  prefix: string,
  page: KeyPage,
  filter: QueryFilter | undefined = undefined,
): Promise<Item<T>[]> {
  const wanted = page.skip + page.take;
  const items: Item<T>[] = [];
  let startKey: Record<string, unknown> | undefined;
  while (page.take > 0 && items.length < wanted) {
    const reply = await queryItems({
      TableName: table(),
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ...(filter ? { FilterExpression: filter.FilterExpression } : {}),
      ...(filter?.ExpressionAttributeNames ? { ExpressionAttributeNames: filter.ExpressionAttributeNames } : {}),
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ...filter?.ExpressionAttributeValues },
      ScanIndexForward: !page.descending,
      Limit: wanted - items.length,
      ExclusiveStartKey: startKey,
    });
    items.push(...((reply.Items ?? []) as Item<T>[]));
    startKey = reply.LastEvaluatedKey;
    if (!startKey) break;
  }
  return items.slice(page.skip, wanted);
}

/**
 * One page of the items of several partitions whose sort keys start with `prefix` (and that pass `filter`), as if
 * they were one partition: the shards of a collection split for its writes, read as one. The partitions are read in
 * parallel, each only up to the page's end (`skip + take` items, since any one may hold the whole page), and merged
 * in key order (`mergeInKeyOrder`); a sort key must name an item in one partition only. Without a filter that drops
 * items, that is one round trip of one Query per partition.
 */
export async function readMergedPage<T>(
  partitions: readonly Partition<T>[],
  prefix: string,
  page: KeyPage,
  filter: QueryFilter | undefined = undefined,
): Promise<Item<T>[]> {
  if (page.take <= 0) return [];
  const upToTheEnd: KeyPage = { skip: 0, take: page.skip + page.take, descending: page.descending };
  const runs = await Promise.all(partitions.map(({ pk }) => readPage<T>(pk, prefix, upToTheEnd, filter)));
  return mergeInKeyOrder(runs, page.descending).slice(page.skip, page.skip + page.take);
}

/**
 * Items of several partitions in one order of their sort keys, DynamoDB's (the keys' UTF-8 bytes, which is not
 * JavaScript's UTF-16 order past the BMP), or its reverse; ties keep their runs' order.
 */
export function mergeInKeyOrder<T extends { sk: string }>(runs: readonly (readonly T[])[], descending: boolean): T[] {
  const direction = descending ? -1 : 1;
  return runs
    .flat()
    .map((item) => ({ item, bytes: Buffer.from(item.sk, 'utf8') }))
    .sort((a, b) => direction * Buffer.compare(a.bytes, b.bytes))
    .map(({ item }) => item);
}
