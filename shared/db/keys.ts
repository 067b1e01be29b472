/**
 * The table engine's keys: the shapes every item's key has, the padding that makes key order numeric order, and the
 * keys of the version index and the tombstone markers, which live in the base table beside the entities. Which items the table holds, and under which keys, each entity's module says
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

/**
 * The version index, in the base table: every indexed entity carries `vsk` = `<KIND>#<pad(version)>`, and the
 * transaction that writes it also puts its change item, a copy of it at sort key `#V#` + vsk. No other sort key
 * starts with `#V#` or `#T#` (docs/architecture.md), so no entity's prefix (`KIND#`) or a range of them ever reaches
 * a change item or a tombstone marker.
 */
const CHANGE_PREFIX = '#V#';
const MARKER_PREFIX = '#T#';

/** `vsk` of an entity kind at a version: its change item's sort key without the prefix. */
export const versionSortKey = (kind: string, version: number) => `${kind}#${pad(version)}`;

/** The change item of an indexed entity in partition `pk`, by the entity's `vsk`. */
export const changeKey = (pk: string, vsk: string): Key => ({ pk, sk: `${CHANGE_PREFIX}${vsk}` });

/** The sort-key range of the change items of a kind's versions v with from < v <= to (a Query's BETWEEN bounds). */
export const changeRange = (kind: string, from: number, to: number) =>
  [`${CHANGE_PREFIX}${versionSortKey(kind, from + 1)}`, `${CHANGE_PREFIX}${versionSortKey(kind, to)}`] as const;

/** `tsk` of a tombstone: when the entity was deleted, so the oldest markers come first. */
export const tombstoneSortKey = (modified: number) => pad(modified);

/** A tombstone's marker in partition `pk`: by its deletion time (`tsk`), then the entity's sort key (unique). */
export const markerKey = (pk: string, tsk: string, entitySk: string): Key => ({
  pk,
  sk: `${MARKER_PREFIX}${tsk}#${entitySk}`,
});

/**
 * The sort-key range of the markers of tombstones deleted before `before` (ms since the epoch): from the prefix
 * itself, which sorts before every marker, so that no key below `#T#` is read, up to `#T#<pad(before)>`, which
 * sorts after every marker of an earlier time (same width) and before every marker at `before` itself.
 */
export const markersBefore = (before: number) => [MARKER_PREFIX, `${MARKER_PREFIX}${tombstoneSortKey(before)}`] as const;
