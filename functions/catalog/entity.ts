import { randomUUID } from 'node:crypto';
import { access } from '#shared/auth/access.ts';
import type { ListQuery } from '#shared/db/paging.ts';
import { type Stored, type Stream, streamEntity } from '#shared/db/streams.ts';
import { sellerStream } from '#shared/domain/seller.ts';
import { inconsistentData, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, type Preconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import { DIFF_REFUSALS, type Refusal, refusalOf, type Route, route } from '#shared/http/router.ts';
import { diffRange, listParams, listQuery, PAGE_QUERY, pageParams } from '#shared/http/query.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, present } from '#shared/versions.ts';
import {
  type Change,
  entityMissing,
  type EntityFields,
  listEntities,
  readEntity,
  readEntityDiff,
  type VersionedEntity,
  writeEntity,
  written,
} from '#shared/versioned/entity.ts';

/** The catalog a request names: the version stream of the seller in its path. */
export const catalogOf = (request: ApiRequest<unknown, 'sellerId'>): Stream => sellerStream(request.params.sellerId);

/** The item of the catalog entity a path names. */
const entityOf = <T extends EntityFields>(entity: VersionedEntity<T>, params: { sellerId: string; identifier: string }) =>
  streamEntity<T>(sellerStream(params.sellerId), entity.kind, params.identifier);

/** An entity as one version shows it. */
const shownIn =
  <T extends EntityFields>(entity: VersionedEntity<T>, version: ApiVersion) =>
  (stored: Stored<T>) =>
    present(stored, entity.view[version]);

/**
 * The change, refused with 409 VersionConflict where the request's If-Match or If-None-Match does not
 * hold on the entity as read. Checked after the change's own refusals: a DELETE of a missing entity is 404, not 409.
 */
export const withPreconditions =
  <T, R>(conditions: Preconditions, change: Change<T, R>): Change<T, R> =>
  (current) => {
    const outcome = change(current);
    checkPreconditions(conditions, current?.version);
    return outcome;
  };

/**
 * Writes the catalog entity `identifier` as the request asks. Its preconditions are parsed before
 * anything is read, so a malformed tag changes nothing.
 */
export function writeCatalogEntity<T extends EntityFields>(
  entity: VersionedEntity<T>,
  request: ApiRequest<unknown, 'sellerId'>,
  identifier: string,
  change: Change<T, Reply>,
): Promise<Reply> {
  const checked = withPreconditions(preconditions(request.headers), change);
  return writeEntity({ entity, stream: catalogOf(request), identifier, change: checked }, request.version);
}

/**
 * GET of one live catalog entity (404 otherwise) with its ETag, or 304 when If-None-Match names its
 * version; `show` (which may read more) only runs for a 200.
 */
export async function readCatalogEntity<T extends EntityFields>(
  entity: VersionedEntity<T>,
  request: ApiRequest<unknown, 'sellerId'>,
  identifier: string,
  show: (stored: Stored<T>) => unknown = shownIn(entity, request.version),
): Promise<Reply> {
  const stored = await readEntity(entity, catalogOf(request), identifier);
  if (unchangedSince(request.headers, stored.version)) return notModified(stored.version);
  return ok(await show(stored), stored.version);
}

/** The query parameters of the entity's list: LIST, or PAGE where it orders by nothing (`listCatalogEntities`). */
export const entityQuery = <T extends EntityFields>(entity: VersionedEntity<T>) =>
  entity.orderFields.length > 0 ? listQuery(entity.orderFields) : PAGE_QUERY;

/** One page of the catalog's live entities of a kind, by the parameters `entityQuery` declares. */
export function listCatalogEntities<T extends EntityFields>(
  entity: VersionedEntity<T>,
  request: ApiRequest<unknown, 'sellerId'>,
): Promise<Stored<T>[]> {
  const query: ListQuery<keyof T & string> =
    entity.orderFields.length > 0
      ? listParams(request.query, entity.orderFields)
      : { ...pageParams(request.query), orderBy: undefined, orderDesc: false };
  return listEntities(entity, catalogOf(request), query);
}

/**
 * How the API reference names a catalog entity in its routes' summaries and descriptions: `{ one: 'tax', many:
 * 'taxes', what: 'A VAT rate ...' }` makes "Reads a tax", "Lists the taxes".
 */
export interface EntityNames {
  one: string;
  many: string;
  /** One sentence: what the entity is to a register. */
  what: string;
}

/** "a tax", "an order". */
const article = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** `GET /{sellerId}/<plural>-diff/{versionFrom}/{versionTo}` (docs/conventions.md §7). */
export function diffRoute<T extends EntityFields>(entity: VersionedEntity<T>, names: EntityNames): Route {
  return route({
    summary: `Reads the ${names.many} changed between two versions`,
    description:
      `The ${names.many} written or deleted after the first version of the seller's data up to the second, each as the ` +
      'version shows it, for a register syncing offline: a deleted one is null but for its identifier. A first version ' +
      'older than the deletions kept is 410 OutdatedVersion: the register reads everything again.',
    versions: entity.versions,
    access: access.seller,
    method: 'GET',
    path: `/{sellerId}/${entity.plural}-diff/{versionFrom}/{versionTo}` as const,
    // Offline sync of the catalog is what the SYNCHRONIZATION feature sells.
    feature: 'SYNCHRONIZATION',
    responses: { 200: { view: entity.body, list: true } },
    errors: DIFF_REFUSALS,
    // The pipeline read the seller's counter to check it is live: it bounds the diff too.
    handle: async (request) => {
      const changed = await readEntityDiff(entity, catalogOf(request), diffRange(request.params), request.sellerCounter);
      return ok(changed.map(shownIn(entity, request.version)));
    },
  });
}

/** POST: the entity under a new identifier (201 with it); one that exists is 409 VersionConflict. */
export const entityCreation =
  <T extends EntityFields>(entity: VersionedEntity<T>, request: ApiRequest<T>, identifier: string): Change<T, Reply> =>
  (current) => {
    if (current) throw versionConflict(`${identifier} exists already`);
    return { data: written(entity, request.version, request.body, undefined), result: created(identifier) };
  };

/** PUT: the version's fields written over the entity (204), or a new one (201 with its identifier). */
export const entityReplacement =
  <T extends EntityFields>(entity: VersionedEntity<T>, request: ApiRequest<T>, identifier: string): Change<T, Reply> =>
  (current) => ({
    data: written(entity, request.version, request.body, current),
    result: current ? noContent() : created(identifier),
  });

/** DELETE: a tombstone (204); an entity that is not live is 404. */
export const entityDeletion =
  <T extends EntityFields>(entity: VersionedEntity<T>, identifier: string): Change<T, Reply> =>
  (current) => {
    if (!current) throw entityMissing(entity, identifier);
    return { data: null, result: noContent() };
  };

/** A catalog entity of spec 4.5: its POST, PUT, GET, DELETE, `-diff` and list endpoints in the versions that have it. */
export function catalogRoutes<T extends EntityFields>(entity: VersionedEntity<T>, names: EntityNames): Route[] {
  const base = `/{sellerId}/${entity.plural}` as const;
  const common = { versions: entity.versions, access: access.seller };
  // The entity a path names is read with the credentials and the seller's counter, in one round trip.
  const named = { readAhead: ({ params }: { params: { sellerId: string; identifier: string } }) => [entityOf(entity, params)] };
  // A missing entity is 404; one that names a missing one is 404 ReferenceNotFound; one others name cannot go (422).
  const references: readonly Refusal[] = entity.references ? [['ReferenceNotFound']] : [];
  const unique: readonly Refusal[] = entity.unique ? [refusalOf(entity.unique.refused())] : [];
  const one = article(names.one);
  // Every write moves the seller's version, which registers sync by.
  const versioned = "The write moves the seller's version, so registers syncing the catalog see it in the next diff.";
  return [
    route({
      ...common,
      summary: `Creates ${one}`,
      description: `${names.what} Creates one under the body's identifier, or a new one when the body has none, and answers its identifier; an identifier in use is 409 VersionConflict. ${versioned}`,
      method: 'POST',
      path: base,
      body: entity.body,
      responses: { 201: 'identifierResult' },
      errors: [['VersionConflict'], ...references, ...unique],
      handle: (request) => {
        const identifier = request.body.identifier ?? randomUUID();
        return writeCatalogEntity(entity, request, identifier, entityCreation(entity, request, identifier));
      },
    }),
    route({
      ...common,
      ...named,
      summary: `Writes ${one}`,
      description: `${names.what} Writes the version's fields over the ${names.one} of that identifier (204), or creates it (201); If-Match and If-None-Match make the write conditional. ${versioned}`,
      method: 'PUT',
      path: `${base}/{identifier}` as const,
      body: entity.body,
      conditional: 'write',
      responses: { 201: 'identifierResult', 204: null },
      errors: [['InconsistentData', 'URL_AND_BODY_IDENTIFIERS_MISMATCH'], ...references, ...unique],
      handle: (request) => {
        const identifier = request.params.identifier;
        const given = request.body.identifier;
        if (given !== undefined && given !== null && given !== identifier) {
          throw inconsistentData('URL_AND_BODY_IDENTIFIERS_MISMATCH', 'The identifiers of the URL and the body differ');
        }
        return writeCatalogEntity(entity, request, identifier, entityReplacement(entity, request, identifier));
      },
    }),
    route({
      ...common,
      ...named,
      summary: `Deletes ${one}`,
      description: `Deletes the ${names.one}, leaving a tombstone that the diffs show; one that other entities name cannot go (422 ENTITY_HAS_REFERENCED_DATA). ${versioned}`,
      method: 'DELETE',
      path: `${base}/{identifier}` as const,
      conditional: 'write',
      responses: { 204: null },
      errors: [['NotFound'], ['UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA']],
      handle: (request) => {
        const identifier = request.params.identifier;
        return writeCatalogEntity(entity, request, identifier, entityDeletion(entity, identifier));
      },
    }),
    route({
      ...common,
      ...named,
      summary: `Reads ${one}`,
      description: `${names.what} Answers it as the version shows it, with its version as ETag (304 to If-None-Match); a deleted one is 404.`,
      method: 'GET',
      path: `${base}/{identifier}` as const,
      conditional: 'read',
      responses: { 200: { view: entity.body } },
      errors: [['NotFound']],
      handle: (request) => readCatalogEntity(entity, request, request.params.identifier),
    }),
    diffRoute(entity, names),
    route({
      ...common,
      summary: `Lists the ${names.many}`,
      description: `The seller's live ${names.many}, a bare array, a page at a time by the list parameters.`,
      method: 'GET',
      path: base,
      query: entityQuery(entity),
      responses: { 200: { view: entity.body, list: true } },
      handle: async (request) => {
        const page = await listCatalogEntities(entity, request);
        return ok(page.map(shownIn(entity, request.version)));
      },
    }),
  ];
}
