/**
 * The table engine's keys: the shapes every item's key has, the padding that makes key order numeric order, and the
 * sort keys of the two indexes. Which items the table holds, and under which keys, each entity's module says
 * (docs/architecture.md, "The table's items"): the engine knows no entity.
 */
declare const itemType: unique symbol;

/**
 * A key of the table. `T` is the item stored under it: a read by key is typed by the key alone,
 * so no call site casts what it read. The marker exists only for the compiler.
 */
export interface Key<T = unknown> {
  pk: string;
  sk: string;
  readonly [itemType]?: T;
}

/** A whole partition (a directory of small entries): one Query reads it. */
export interface Partition<T = unknown> {
  pk: string;
  readonly [itemType]?: T;
}

/** A partition read whole (a directory of small entries): `T` is what its items are. */
export const partitionOf = <T>(pk: string): Partition<T> => ({ pk });

/** Versions (and a register's numbers) are zero-padded so that string order is numeric order. */
export const pad = (version: number) => String(version).padStart(15, '0');

/** The sort-key prefix of every entity of one kind in a version stream's partition (`streamEntityKey`). */
export const entityPrefix = (kind: string) => `${kind}#`;

/** A global id sequence (`nextNumber`): one item per name in one partition. */
export const sequenceKey = (name: string): Key<{ n: number }> => ({ pk: 'SEQ', sk: name });

/** Sort key of the version index for an entity kind at a version. */
export const versionSortKey = (kind: string, version: number) => `${kind}#${pad(version)}`;

/** Sort key of the tombstone index: when the entity was deleted, so the oldest come first. */
export const tombstoneSortKey = (modified: number) => pad(modified);

/** The version-index range holding a kind's versions v with from < v <= to. */
export const versionRange = (kind: string, from: number, to: number) =>
  [versionSortKey(kind, from + 1), versionSortKey(kind, to)] as const;

export const VERSION_INDEX = 'byVersion';
/** Sparse: only tombstones carry `tsk`, so the purge reads exactly the deletions it may remove. */
export const TOMBSTONE_INDEX = 'byTombstone';
