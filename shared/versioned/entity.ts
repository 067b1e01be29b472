import type { LazyValidator } from '#schemas/generated/validators.js';
import { table } from '#shared/db/client.ts';
import { type ListQuery, pageOf } from '#shared/db/paging.ts';
import { readItem } from '#shared/db/reads.ts';
import {
  type Counter,
  type Decision,
  liveCounter,
  readDiff,
  readLive,
  readLivePage,
  type Stored,
  type Stream,
  streamEntity,
  writeVersioned,
  uniqueValueKey,
} from '#shared/db/streams.ts';
import { create, LIVE, remove, type Step } from '#shared/db/transact.ts';
import { type ApiError, notFound, referenceNotFound, unprocessable } from '#shared/errors.ts';
import { type ApiVersion, merge, type VersionView } from '#shared/versions.ts';

/**
 * The versioned-entity engine: write (with references and unique values), tombstone, read (the
 * version is the ETag), list and diff of the entities of one version stream. The stream is a
 * parameter: a seller's catalog (`functions/catalog`) or a register's sales and days. It answers
 * with entities and outcomes; its routes make the replies.
 */

/** Fields every versioned entity has, whatever its kind. */
export interface EntityFields {
  identifier?: string | null;
  deleted?: boolean | null;
}

/** A field naming another entity of the same stream (a product's tax). */
export interface Reference<T> {
  field: keyof T & string;
  /** The kind of the entity it names. */
  kind: string;
}

/** A kind of versioned entity: one definition yields its writes, reads, lists and diffs in the versions that have it. */
export interface VersionedEntity<T extends EntityFields> {
  /** Path segment and name in messages: `taxes`. */
  plural: string;
  /** Sort-key prefix of its items and of its version-index keys. */
  kind: string;
  versions: readonly ApiVersion[];
  /** Request body validator per version. */
  body: Partial<Record<ApiVersion, LazyValidator<T>>>;
  /** Canonical fields each version shows and writes. */
  view: VersionView<T>;
  /** The list takes LIST parameters (orderBy over these fields), or PAGE parameters when empty. */
  orderFields: readonly (keyof T & string)[];
  /** Fields `like` searches. */
  searched: readonly (keyof T & string)[];
  /**
   * Entities this one names. Each live entity counts as one reference to each entity it names, in
   * the transaction that writes it: a missing or deleted one is `404 ReferenceNotFound`, and an
   * entity others reference cannot be deleted (`422 ENTITY_HAS_REFERENCED_DATA`).
   */
  references?: readonly Reference<T>[];
  /** A field whose value at most one live entity of the kind may hold, and the error for a second. */
  unique?: { field: keyof T & string; refused: () => ApiError };
  /** Fields shown but never written through the entity's own PUT and POST (dedicated endpoints set them). */
  kept?: readonly (keyof T & string)[];
  /** The canonical form of a validated body (text booleans as booleans, ...). */
  normalize?: (body: T) => T;
}

/** The same schema and view in every version that has the entity. */
export const everywhere = <T>(validate: LazyValidator<T>, fields: readonly (keyof T & string)[]) => ({
  body: { 15: validate, 26: validate, 33: validate },
  view: { 15: fields, 26: fields, 33: fields } satisfies VersionView<T>,
});

export const entityMissing = <T extends EntityFields>(entity: VersionedEntity<T>, identifier: string) =>
  notFound(`No ${entity.plural} entity ${identifier}`);

/**
 * What a change makes of the entity's live state (undefined: none): its next data, or null to delete
 * it, and what the write answers (`R`: the caller's outcome). It throws to refuse.
 */
export type Change<T, R> = (current: Stored<T> | undefined) => { data: T | null; result: R };

/**
 * Writes one entity in its version stream: the shared body of POST, PUT, DELETE and of dedicated
 * endpoints (joining a treasurer). References and unique values commit in the same transaction,
 * each conditioned on what it needs, so no concurrent write can leave a reference to a deleted
 * entity or two holders of one value. A stream whose owner is gone is `stream.missing()`.
 */
export function writeEntity<T extends EntityFields, R>(write: EntityWrite<T, R>, apiVersion: ApiVersion): Promise<R> {
  return writeVersioned<T, R>({
    stream: write.stream,
    entity: streamEntity<T>(write.stream, write.entity.kind, write.identifier),
    kind: write.entity.kind,
    apiVersion,
    decide: (read) => decideEntityWrite(write, read),
  });
}

/** What an entity write asks, known before anything is read. */
export interface EntityWrite<T extends EntityFields, R> {
  entity: VersionedEntity<T>;
  stream: Stream;
  identifier: string;
  change: Change<T, R>;
}

/**
 * The decision of an entity write on the stream's counter and the entity as read: refused when the
 * stream is not live, by the change itself (and the preconditions its caller checks there), or (a
 * delete) while other entities reference it (`422 ENTITY_HAS_REFERENCED_DATA`); otherwise the new
 * data (a tombstone keeps only its identifier) with the reference counts and unique-value holders the
 * write moves.
 */
export function decideEntityWrite<T extends EntityFields, R>(
  write: EntityWrite<T, R>,
  read: { counter: Counter | undefined; entity: Stored<T> | undefined },
): Decision<T, R> {
  const { entity, stream, identifier } = write;
  liveCounter(stream, read.counter);
  const current = read.entity && !read.entity.deleted ? read.entity : undefined;
  const { data, result } = write.change(current);
  if (data === null && (current?.refs ?? 0) > 0) {
    throw unprocessable('ENTITY_HAS_REFERENCED_DATA', `Other entities reference ${entity.plural} entity ${identifier}`);
  }
  const next = data ?? undefined;
  return {
    entity: next ? { ...next, identifier, deleted: false } : { identifier, deleted: true },
    result,
    alongside: [...referenceSteps(entity, stream, current, next), ...uniqueSteps(entity, stream, identifier, current, next)],
  };
}

/** The entity's new data after a POST or PUT of `body` through one version: that version's writable fields, the rest kept. */
export function written<T extends EntityFields>(
  entity: VersionedEntity<T>,
  version: ApiVersion,
  body: T,
  current: T | undefined,
): T {
  const kept = new Set<string>(entity.kept ?? []);
  const fields = entity.view[version].filter((field) => !kept.has(field));
  return merge<T>(current, entity.normalize ? entity.normalize(body) : body, fields);
}

/**
 * The reference counts a write moves: -1 for each entity the old state named, +1 for each the new
 * one names, netted per entity (one transaction may touch an item once; a keyboard entry may name
 * one keyboard twice). A new reference needs its entity live at commit.
 */
function referenceSteps<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  before: T | undefined,
  after: T | undefined,
): Step[] {
  const tally = new Map<string, { kind: string; identifier: string; field: string; delta: number }>();
  const count = (data: T | undefined, delta: number) => {
    for (const { field, kind } of entity.references ?? []) {
      const identifier = data?.[field];
      if (typeof identifier !== 'string') continue;
      const id = `${kind}#${identifier}`;
      const entry = tally.get(id) ?? { kind, identifier, field, delta: 0 };
      tally.set(id, { ...entry, delta: entry.delta + delta });
    }
  };
  count(before, -1);
  count(after, 1);
  return [...tally.values()]
    .filter(({ delta }) => delta !== 0)
    .map(({ kind, identifier, field, delta }) => {
      const { pk, sk } = streamEntity(stream, kind, identifier);
      return {
        write: {
          Update: {
            TableName: table(),
            Key: { pk, sk },
            UpdateExpression: 'ADD refs :delta',
            ConditionExpression: delta > 0 ? LIVE : 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':delta': delta, ...(delta > 0 ? { ':false': false } : {}) },
          },
        },
        ...(delta > 0 ? { refused: () => referenceNotFound(`${field} ${identifier} does not exist`) } : {}),
      };
    });
}

/** Moves the holder of the entity's unique value: the new value must be free at commit. */
function uniqueSteps<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  identifier: string,
  before: T | undefined,
  after: T | undefined,
): Step[] {
  if (!entity.unique) return [];
  const { field, refused } = entity.unique;
  const [old, now] = [before?.[field], after?.[field]];
  if (old === now) return [];
  const holder = (value: string) => uniqueValueKey(stream.partition.pk, entity.kind, field, value);
  return [
    ...(typeof now === 'string' ? [create({ ...holder(now), holder: identifier }, refused)] : []),
    ...(typeof old === 'string' ? [remove(holder(old))] : []),
  ];
}

/** One live entity, stamped with its version (its ETag); a missing or deleted one is 404. */
export async function readEntity<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  identifier: string,
): Promise<Stored<T>> {
  const stored = await readItem(streamEntity<T>(stream, entity.kind, identifier));
  if (!stored || stored.deleted) throw entityMissing(entity, identifier);
  return stored;
}

/**
 * The entities of a kind changed in the version range, tombstones included: what a register must sync
 * (docs/conventions.md §7), bounded by the stream's counter the pipeline read (`LiveSellerRequest`).
 */
export function readEntityDiff<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  range: { from: number; to: number },
  counter: Counter,
): Promise<Stored<T>[]> {
  return readDiff<T>(stream, entity.kind, range, counter);
}

/**
 * One page of the stream's live entities of a kind. `query` orders by one of the entity's
 * `orderFields`; an entity with none takes PAGE parameters, in identifier order.
 */
export async function listEntities<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  query: ListQuery<keyof T & string>,
): Promise<Stored<T>[]> {
  const prefix = `${entity.kind}#`;
  // In identifier order without a search the page comes straight from the key order: its cost follows
  // the page, not the collection. Anything else sorts or filters the whole collection.
  if (query.like === undefined && (query.orderBy === undefined || query.orderBy === 'identifier')) {
    return readLivePage<T>(stream, prefix, { skip: query.firstResult, take: query.maxResults, descending: query.orderDesc });
  }
  return pageOf(await readLive<T>(stream, prefix), query, {
    searched: (item) => entity.searched.map((field) => textOf(item[field])),
    field: (item, field) => item[field],
    tiebreak: (item) => item.identifier ?? '',
  });
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);
