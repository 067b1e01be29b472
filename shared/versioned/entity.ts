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
import { checkPreconditions, type Preconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { diffRange, listParams, pageParams } from '#shared/http/query.ts';
import { notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, merge, present, type VersionView } from '#shared/versions.ts';

/**
 * The versioned-entity engine: write (with references and unique values), tombstone, read with
 * ETag, list and diff of the entities of one version stream. The stream is a parameter: a seller's
 * catalog (`functions/catalog`) or a register's sales and days.
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

/** What a change makes of the entity's live state (undefined: none): its next data, or null to delete it. */
export type Change<T> = (current: Stored<T> | undefined) => { data: T | null; result: Reply };

/**
 * Writes one entity in its version stream: the shared body of POST, PUT, DELETE and of dedicated
 * endpoints (joining a treasurer). References and unique values commit in the same transaction,
 * each conditioned on what it needs, so no concurrent write can leave a reference to a deleted
 * entity or two holders of one value. A stream whose owner is gone is `stream.missing()`.
 */
export function writeEntity<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  request: ApiRequest<unknown>,
  identifier: string,
  change: Change<T>,
): Promise<Reply> {
  const write: EntityWrite<T> = { entity, stream, identifier, conditions: preconditions(request.headers), change };
  return writeVersioned<T, Reply>({
    stream,
    entity: streamEntity<T>(stream, entity.kind, identifier),
    kind: entity.kind,
    apiVersion: request.version,
    decide: (read) => decideEntityWrite(write, read),
  });
}

/** What an entity write asks, known before anything is read. */
export interface EntityWrite<T extends EntityFields> {
  entity: VersionedEntity<T>;
  stream: Stream;
  identifier: string;
  conditions: Preconditions;
  change: Change<T>;
}

/**
 * The decision of an entity write on the stream's counter and the entity as read: refused when the
 * stream is not live, by the change itself, by the request's preconditions, or (a delete) while other
 * entities reference it (`422 ENTITY_HAS_REFERENCED_DATA`); otherwise the new data (a tombstone keeps
 * only its identifier) with the reference counts and unique-value holders the write moves.
 */
export function decideEntityWrite<T extends EntityFields>(
  write: EntityWrite<T>,
  read: { counter: Counter | undefined; entity: Stored<T> | undefined },
): Decision<T, Reply> {
  const { entity, stream, identifier } = write;
  liveCounter(stream, read.counter);
  const current = read.entity && !read.entity.deleted ? read.entity : undefined;
  const { data, result } = write.change(current);
  checkPreconditions(write.conditions, current?.version);
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

/** The entity's new data after a POST or PUT through one version: that version's writable fields, the rest kept. */
export function written<T extends EntityFields>(entity: VersionedEntity<T>, request: ApiRequest<T>, current: T | undefined): T {
  const kept = new Set<string>(entity.kept ?? []);
  const fields = entity.view[request.version].filter((field) => !kept.has(field));
  const body = entity.normalize ? entity.normalize(request.body) : request.body;
  return merge<T>(current, body, fields);
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

/** GET of one live entity (404 otherwise), with its ETag and 304 on a matching If-None-Match. */
export async function readEntity<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  request: ApiRequest<unknown>,
  identifier: string,
  show: (stored: Stored<T>) => unknown = (stored) => present(stored, entity.view[request.version]),
): Promise<Reply> {
  const stored = await readItem(streamEntity<T>(stream, entity.kind, identifier));
  if (!stored || stored.deleted) throw entityMissing(entity, identifier);
  if (unchangedSince(request.headers, stored.version)) return notModified(stored.version);
  return ok(await show(stored), stored.version);
}

/**
 * `GET .../<plural>-diff/{versionFrom}/{versionTo}` (docs/conventions.md §7): the entities a register must
 * sync. `counter` is the stream's counter when the caller has read it already (`readDiff`).
 */
export async function readEntityDiff<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  request: ApiRequest<unknown>,
  counter?: Counter,
): Promise<Reply> {
  const changed = await readDiff<T>(stream, entity.kind, diffRange(request.params), counter);
  return ok(changed.map((item) => present(item, entity.view[request.version])));
}

/** One page of the stream's live entities of a kind, with the list parameters the entity takes. */
export async function listEntities<T extends EntityFields>(
  entity: VersionedEntity<T>,
  stream: Stream,
  request: ApiRequest<unknown>,
): Promise<Stored<T>[]> {
  const query: ListQuery<keyof T & string> =
    entity.orderFields.length > 0
      ? listParams(request.query, entity.orderFields)
      : { ...pageParams(request.query), orderBy: undefined, orderDesc: false };
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
