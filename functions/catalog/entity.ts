import { randomUUID } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { access } from '#shared/auth/access.ts';
import { table } from '#shared/db/client.ts';
import { keys, sellerPk } from '#shared/db/keys.ts';
import { pageOf } from '#shared/db/paging.ts';
import { create, LIVE } from '#shared/db/transact.ts';
import {
  type Counter,
  readCollection,
  readCollectionPage,
  readCounter,
  readItem,
  readStreamDiff,
  type Step,
  type Stored,
  writeVersioned,
} from '#shared/db/versioned.ts';
import { type ApiError, inconsistentData, notFound, referenceNotFound, unprocessable, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { diffRange, type ListQuery, listParams, pageParams } from '#shared/http/query.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import { type Route, route } from '#shared/http/router.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, merge, present, type VersionView } from '#shared/versions.ts';

/** Fields every catalog entity has, whatever its kind. */
export interface CatalogFields {
  identifier?: string | null;
  deleted?: boolean | null;
}

/** A field naming another entity of the same seller (a product's tax). */
export interface Reference<T> {
  field: keyof T & string;
  /** The kind of the entity it names. */
  kind: string;
}

/**
 * A versioned catalog entity of spec 4.5 (taxes, categories, products, ...): one definition
 * yields its POST, PUT, GET, DELETE, `-diff` and list endpoints in the versions that have it.
 */
export interface CatalogEntity<T extends CatalogFields> {
  /** Path segment: `/{sellerId}/<plural>`. */
  plural: string;
  /** Sort-key prefix of its items. */
  kind: string;
  versions: readonly ApiVersion[];
  /** Request body validator per version. */
  body: Partial<Record<ApiVersion, ValidateFunction>>;
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

const sellerMissing = (sellerId: string) => notFound(`Seller ${sellerId} does not exist`);
const live = (counter: Counter | undefined, sellerId: string): Counter => {
  if (!counter?.live) throw sellerMissing(sellerId);
  return counter;
};
const entityMissing = <T extends CatalogFields>(entity: CatalogEntity<T>, identifier: string) =>
  notFound(`No ${entity.plural} entity ${identifier}`);

/** What a change makes of the entity's live state (undefined: none): its next data, or null to delete it. */
export type Change<T> = (current: Stored<T> | undefined) => { data: T | null; result: Reply };

/**
 * Writes one entity of the seller's catalog in its version stream: the shared body of POST, PUT,
 * DELETE and of the dedicated endpoints (joining a treasurer). References and unique values
 * commit in the same transaction, each conditioned on what it needs, so no concurrent write can
 * leave a reference to a deleted entity or two holders of one value.
 */
export function writeEntity<T extends CatalogFields>(
  entity: CatalogEntity<T>,
  request: ApiRequest<unknown>,
  identifier: string,
  change: Change<T>,
): Promise<Reply> {
  const sellerId = request.params.sellerId ?? '';
  const conditions = preconditions(request.headers);
  return writeVersioned<T, Reply>({
    counter: keys.sellerCounter(sellerId),
    entity: keys.catalog(sellerId, entity.kind, identifier),
    kind: entity.kind,
    apiVersion: request.version,
    decide: ({ counter, entity: stored }) => {
      live(counter, sellerId);
      const current = stored && !stored.deleted ? stored : undefined;
      const { data, result } = change(current);
      checkPreconditions(conditions, current?.version);
      if (data === null && (current?.refs ?? 0) > 0) {
        throw unprocessable('ENTITY_HAS_REFERENCED_DATA', `Other entities reference ${entity.plural} entity ${identifier}`);
      }
      const next = data ?? undefined;
      return {
        entity: (next ? { ...next, identifier, deleted: false } : { identifier, deleted: true }) as T & { deleted: boolean },
        result,
        alongside: [
          ...referenceSteps(entity, sellerId, current, next),
          ...uniqueSteps(entity, sellerId, identifier, current, next),
        ],
      };
    },
  });
}

/** The entity's new data after a POST or PUT through one version: that version's writable fields, the rest kept. */
function written<T extends CatalogFields>(entity: CatalogEntity<T>, request: ApiRequest<T>, current: T | undefined): T {
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
function referenceSteps<T extends CatalogFields>(
  entity: CatalogEntity<T>,
  sellerId: string,
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
    .map(({ kind, identifier, field, delta }) => ({
      write: {
        Update: {
          TableName: table(),
          Key: keys.catalog(sellerId, kind, identifier),
          UpdateExpression: 'ADD refs :delta',
          ConditionExpression: delta > 0 ? LIVE : 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':delta': delta, ...(delta > 0 ? { ':false': false } : {}) },
        },
      },
      ...(delta > 0 ? { refused: () => referenceNotFound(`${field} ${identifier} does not exist`) } : {}),
    }));
}

/** Moves the holder of the entity's unique value: the new value must be free at commit. */
function uniqueSteps<T extends CatalogFields>(
  entity: CatalogEntity<T>,
  sellerId: string,
  identifier: string,
  before: T | undefined,
  after: T | undefined,
): Step[] {
  if (!entity.unique) return [];
  const { field, refused } = entity.unique;
  const [old, now] = [before?.[field], after?.[field]];
  if (old === now) return [];
  const holder = (value: string) => keys.uniqueValue(sellerId, entity.kind, field, value);
  return [
    ...(typeof now === 'string' ? [create({ ...holder(now), holder: identifier }, refused)] : []),
    ...(typeof old === 'string' ? [{ write: { Delete: { TableName: table(), Key: holder(old) } } }] : []),
  ];
}

/** GET of one live entity (404 otherwise), with its ETag and 304 on a matching If-None-Match. */
export async function readEntity<T extends CatalogFields>(
  entity: CatalogEntity<T>,
  request: ApiRequest<unknown>,
  identifier: string,
  show: (stored: Stored<T>) => unknown = (stored) => present(stored, entity.view[request.version]),
): Promise<Reply> {
  const stored = await readItem<T>(keys.catalog(request.params.sellerId ?? '', entity.kind, identifier));
  if (!stored || stored.deleted) throw entityMissing(entity, identifier);
  if (unchangedSince(request.headers, stored.version)) return notModified(stored.version);
  return ok(await show(stored), stored.version);
}

/** `GET /{sellerId}/<plural>-diff/{versionFrom}/{versionTo}` (docs/conventions.md §7). */
export function diffRoute<T extends CatalogFields>(entity: CatalogEntity<T>): Route {
  return route({
    versions: entity.versions,
    access: access.seller,
    method: 'GET',
    path: `/{sellerId}/${entity.plural}-diff/{versionFrom}/{versionTo}`,
    // Offline sync of the catalog is what the SYNCHRONIZATION feature sells.
    feature: 'SYNCHRONIZATION',
    handle: async (request) => {
      const { sellerId = '' } = request.params;
      const changed = await readStreamDiff<T>(keys.sellerCounter(sellerId), entity.kind, diffRange(request.params), () =>
        sellerMissing(sellerId),
      );
      return ok(changed.map((item) => present(item, entity.view[request.version])));
    },
  });
}

/** One page of the seller's live entities of a kind, with the list parameters the entity takes. */
export async function listEntities<T extends CatalogFields>(
  entity: CatalogEntity<T>,
  request: ApiRequest<unknown>,
): Promise<Stored<T>[]> {
  const { sellerId = '' } = request.params;
  const query: ListQuery<keyof T & string> =
    entity.orderFields.length > 0
      ? listParams(request.query, entity.orderFields)
      : { ...pageParams(request.query), orderBy: undefined, orderDesc: false };
  const prefix = `${entity.kind}#`;
  // In identifier order without a search the page comes straight from the key order: its cost follows
  // the page, not the catalog. Anything else sorts or filters the whole collection.
  const inKeyOrder = query.like === undefined && (query.orderBy === undefined || query.orderBy === 'identifier');
  const [counter, items] = await Promise.all([
    readCounter(keys.sellerCounter(sellerId)),
    inKeyOrder
      ? readCollectionPage<T>(sellerPk(sellerId), prefix, {
          skip: query.firstResult,
          take: query.maxResults,
          descending: query.orderDesc,
        })
      : readCollection<T>(sellerPk(sellerId), prefix),
  ]);
  if (!counter) throw sellerMissing(sellerId);
  if (inKeyOrder) return items;
  return pageOf(items, query, {
    searched: (item) => entity.searched.map((field) => textOf(item[field])),
    field: (item, field) => item[field],
    tiebreak: (item) => item.identifier ?? '',
  });
}

export function catalogRoutes<T extends CatalogFields>(entity: CatalogEntity<T>): Route[] {
  const base = `/{sellerId}/${entity.plural}`;
  const common = { versions: entity.versions, access: access.seller };
  return [
    route<T>({
      ...common,
      method: 'POST',
      path: base,
      body: entity.body,
      handle: (request) => {
        const identifier = request.body.identifier ?? randomUUID();
        return writeEntity(entity, request, identifier, (current) => {
          if (current) throw versionConflict(`${identifier} exists already`);
          return { data: written(entity, request, undefined), result: created(identifier) };
        });
      },
    }),
    route<T>({
      ...common,
      method: 'PUT',
      path: `${base}/{identifier}`,
      body: entity.body,
      handle: (request) => {
        const identifier = request.params.identifier ?? '';
        const given = request.body.identifier;
        if (given !== undefined && given !== null && given !== identifier) {
          throw inconsistentData('URL_AND_BODY_IDENTIFIERS_MISMATCH', 'The identifiers of the URL and the body differ');
        }
        return writeEntity(entity, request, identifier, (current) => ({
          data: written(entity, request, current),
          result: current ? noContent() : created(),
        }));
      },
    }),
    route({
      ...common,
      method: 'DELETE',
      path: `${base}/{identifier}`,
      handle: (request) => {
        const identifier = request.params.identifier ?? '';
        return writeEntity<T>(entity, request, identifier, (current) => {
          if (!current) throw entityMissing(entity, identifier);
          return { data: null, result: noContent() };
        });
      },
    }),
    route({
      ...common,
      method: 'GET',
      path: `${base}/{identifier}`,
      handle: (request) => readEntity(entity, request, request.params.identifier ?? ''),
    }),
    diffRoute(entity),
    route({
      ...common,
      method: 'GET',
      path: base,
      handle: async (request) => {
        const page = await listEntities(entity, request);
        return ok(page.map((item) => present(item, entity.view[request.version])));
      },
    }),
  ];
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);
