import { AsyncLocalStorage } from 'node:async_hooks';
import type { Key } from './keys.ts';

/**
 * Items a request read ahead, together, before it knew it would need them all: the HTTP pipeline reads a register's
 * API key, its seller's counter and what the route names (`Route.readAhead`) in one strongly consistent BatchGetItem,
 * and the reads by key that follow are answered from here instead of each making a round trip of its own.
 *
 * What was read ahead answers only until the request writes: after any write (`documents.ts`) every read goes to the
 * table again, so a request never sees its own write's past, and a retried transaction decides on fresh reads.
 */
type Ahead = Map<string, unknown>;

const storage = new AsyncLocalStorage<{ items: Ahead | undefined }>();

const keyOf = (key: { pk: string; sk: string }) => `${key.pk}\n${key.sk}`;

/** Runs `work` with a place for the items its request reads ahead (`keepAhead`). */
export function withReadAhead<T>(work: () => Promise<T>): Promise<T> {
  return storage.run({ items: undefined }, work);
}

/** Keeps what a read ahead found for each key wanted (`undefined`: no such item), for the reads that follow. */
export function keepAhead(wanted: readonly Key[], found: readonly { pk: string; sk: string }[]): void {
  const scope = storage.getStore();
  if (!scope) return;
  const items: Ahead = new Map(wanted.map((key) => [keyOf(key), undefined]));
  for (const item of found) items.set(keyOf(item), item);
  scope.items = items;
}

/** What was read ahead for `key`: `{ item }` (item undefined: none exists), or undefined when it was not read ahead. */
export function aheadOf<T>(key: Key<T>): { item: T | undefined } | undefined {
  const items = storage.getStore()?.items;
  const id = keyOf(key);
  return items?.has(id) ? { item: items.get(id) as T | undefined } : undefined;
}

/** A write: from now on the request reads from the table. */
export function forgetAhead(): void {
  const scope = storage.getStore();
  if (scope) scope.items = undefined;
}
