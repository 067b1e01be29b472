import { randomUUID } from 'node:crypto';
import { access } from '#shared/auth/access.ts';
import { type Stream, streamEntity } from '#shared/db/streams.ts';
import { sellerStream } from '#shared/domain/seller.ts';
import { inconsistentData, versionConflict } from '#shared/errors.ts';
import { created, noContent, ok } from '#shared/http/response.ts';
import { DIFF_REFUSALS, type Refusal, refusalOf, type Route, route } from '#shared/http/router.ts';
import { listQuery, PAGE_QUERY } from '#shared/http/query.ts';
import type { ApiRequest } from '#shared/http/types.ts';
import { present } from '#shared/versions.ts';
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

/** The query parameters of the entity's list: LIST, or PAGE where it orders by nothing (`listEntities`). */
export const entityQuery = <T extends EntityFields>(entity: VersionedEntity<T>) =>
  entity.orderFields.length > 0 ? listQuery(entity.orderFields) : PAGE_QUERY;

/** `GET /{sellerId}/<plural>-diff/{versionFrom}/{versionTo}` (docs/conventions.md §7). */
export function diffRoute<T extends EntityFields>(entity: VersionedEntity<T>): Route {
  return route({
    versions: entity.versions,
    access: access.seller,
    method: 'GET',
    path: `/{sellerId}/${entity.plural}-diff/{versionFrom}/{versionTo}` as const,
    // Offline sync of the catalog is what the SYNCHRONIZATION feature sells.
    feature: 'SYNCHRONIZATION',
    responses: { 200: { view: entity.body, list: true } },
    errors: DIFF_REFUSALS,
    // The pipeline read the seller's counter to check it is live: it bounds the diff too.
    handle: (request) => readEntityDiff(entity, catalogOf(request), request, request.sellerCounter),
  });
}

/** POST: the entity under a new identifier (201 with it); one that exists is 409 VersionConflict. */
export const entityCreation =
  <T extends EntityFields>(entity: VersionedEntity<T>, request: ApiRequest<T>, identifier: string): Change<T> =>
  (current) => {
    if (current) throw versionConflict(`${identifier} exists already`);
    return { data: written(entity, request, undefined), result: created(identifier) };
  };

/** PUT: the version's fields written over the entity (204), or a new one (201 with its identifier). */
export const entityReplacement =
  <T extends EntityFields>(entity: VersionedEntity<T>, request: ApiRequest<T>, identifier: string): Change<T> =>
  (current) => ({ data: written(entity, request, current), result: current ? noContent() : created(identifier) });

/** DELETE: a tombstone (204); an entity that is not live is 404. */
export const entityDeletion =
  <T extends EntityFields>(entity: VersionedEntity<T>, identifier: string): Change<T> =>
  (current) => {
    if (!current) throw entityMissing(entity, identifier);
    return { data: null, result: noContent() };
  };

/** A catalog entity of spec 4.5: its POST, PUT, GET, DELETE, `-diff` and list endpoints in the versions that have it. */
export function catalogRoutes<T extends EntityFields>(entity: VersionedEntity<T>): Route[] {
  const base = `/{sellerId}/${entity.plural}` as const;
  const common = { versions: entity.versions, access: access.seller };
  // The entity a path names is read with the credentials and the seller's counter, in one round trip.
  const named = { readAhead: ({ params }: { params: { sellerId: string; identifier: string } }) => [entityOf(entity, params)] };
  // A missing entity is 404; one that names a missing one is 404 ReferenceNotFound; one others name cannot go (422).
  const references: readonly Refusal[] = entity.references ? [['ReferenceNotFound']] : [];
  const unique: readonly Refusal[] = entity.unique ? [refusalOf(entity.unique.refused())] : [];
  return [
    route({
      ...common,
      method: 'POST',
      path: base,
      body: entity.body,
      responses: { 201: 'identifierResult' },
      errors: [['VersionConflict'], ...references, ...unique],
      handle: (request) => {
        const identifier = request.body.identifier ?? randomUUID();
        return writeEntity(entity, catalogOf(request), request, identifier, entityCreation(entity, request, identifier));
      },
    }),
    route({
      ...common,
      ...named,
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
        return writeEntity(entity, catalogOf(request), request, identifier, entityReplacement(entity, request, identifier));
      },
    }),
    route({
      ...common,
      ...named,
      method: 'DELETE',
      path: `${base}/{identifier}` as const,
      conditional: 'write',
      responses: { 204: null },
      errors: [['NotFound'], ['UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA']],
      handle: (request) => {
        const identifier = request.params.identifier;
        return writeEntity<T>(entity, catalogOf(request), request, identifier, entityDeletion(entity, identifier));
      },
    }),
    route({
      ...common,
      ...named,
      method: 'GET',
      path: `${base}/{identifier}` as const,
      conditional: 'read',
      responses: { 200: { view: entity.body } },
      errors: [['NotFound']],
      handle: (request) => readEntity(entity, catalogOf(request), request, request.params.identifier),
    }),
    diffRoute(entity),
    route({
      ...common,
      method: 'GET',
      path: base,
      query: entityQuery(entity),
      responses: { 200: { view: entity.body, list: true } },
      handle: async (request) => {
        const page = await listEntities(entity, catalogOf(request), request);
        return ok(page.map((item) => present(item, entity.view[request.version])));
      },
    }),
  ];
}
