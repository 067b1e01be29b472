import { randomUUID } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { access } from '#shared/auth/access.ts';
import { keys, sellerPk } from '#shared/db/keys.ts';
import { pageOf } from '#shared/db/paging.ts';
import { type Counter, readCollection, readCounter, readDiff, readItem, writeVersioned } from '#shared/db/versioned.ts';
import { inconsistentData, notFound, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { listParams, requiredInt } from '#shared/http/query.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import { type Route, route } from '#shared/http/router.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, merge, present, type VersionView } from '#shared/versions.ts';

/** Fields every catalog entity has, whatever its kind. */
export interface CatalogFields {
  identifier?: string | null;
  deleted?: boolean | null;
}

/**
 * A versioned catalog entity of spec 4.5 (taxes, categories, products, ...): one definition
 * yields its POST, PUT, GET, DELETE, `-diff` and LIST endpoints in the versions that have it.
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
  /** Fields LIST may order by. */
  orderFields: readonly (keyof T & string)[];
  /** Fields `like` searches. */
  searched: readonly (keyof T & string)[];
}

const sellerMissing = (sellerId: string) => notFound(`Seller ${sellerId} does not exist`);
const live = (counter: Counter | undefined, sellerId: string): Counter => {
  if (!counter?.live) throw sellerMissing(sellerId);
  return counter;
};

/** Creates, replaces or tombstones one entity: the shared body of POST, PUT and DELETE. */
function writeEntity<T extends CatalogFields>(
  entity: CatalogEntity<T>,
  request: ApiRequest<T | undefined>,
  identifier: string,
  mode: 'create' | 'put' | 'delete',
): Promise<Reply> {
  const sellerId = request.params.sellerId ?? '';
  const conditions = preconditions(request.headers);
  const fields = entity.view[request.version];
  return writeVersioned<T, Reply>({
    counter: keys.sellerCounter(sellerId),
    entity: keys.catalog(sellerId, entity.kind, identifier),
    kind: entity.kind,
    apiVersion: request.version,
    decide: ({ counter, entity: stored }) => {
      live(counter, sellerId);
      const current = stored && !stored.deleted ? stored : undefined;
      if (mode === 'delete') {
        if (!current) throw notFound(`No ${entity.plural} entity ${identifier}`);
        checkPreconditions(conditions, current.version);
        return { entity: { identifier, deleted: true } as T & { deleted: boolean }, result: noContent() };
      }
      if (mode === 'create' && current) throw versionConflict(`${identifier} exists already`);
      checkPreconditions(conditions, current?.version);
      const data = merge<T>(current, request.body ?? {}, fields);
      return {
        entity: { ...data, identifier, deleted: false },
        result: current ? noContent() : created(mode === 'create' ? identifier : undefined),
      };
    },
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
      handle: (request) => writeEntity(entity, request, request.body.identifier ?? randomUUID(), 'create'),
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
        return writeEntity(entity, request, identifier, 'put');
      },
    }),
    route({
      ...common,
      method: 'DELETE',
      path: `${base}/{identifier}`,
      handle: (request) => writeEntity<T>(entity, request, request.params.identifier ?? '', 'delete'),
    }),
    route({
      ...common,
      method: 'GET',
      path: `${base}/{identifier}`,
      handle: async (request) => {
        const { sellerId = '', identifier = '' } = request.params;
        const stored = await readItem<T>(keys.catalog(sellerId, entity.kind, identifier));
        if (!stored || stored.deleted) throw notFound(`No ${entity.plural} entity ${identifier}`);
        if (unchangedSince(request.headers, stored.version)) return notModified(stored.version);
        return ok(present(stored, entity.view[request.version]), stored.version);
      },
    }),
    route({
      ...common,
      method: 'GET',
      path: `/{sellerId}/${entity.plural}-diff/{versionFrom}/{versionTo}`,
      // Offline sync of the catalog is what the SYNCHRONIZATION feature sells.
      feature: 'SYNCHRONIZATION',
      handle: async (request) => {
        const { sellerId = '' } = request.params;
        const from = requiredInt('versionFrom', request.params.versionFrom);
        const to = requiredInt('versionTo', request.params.versionTo);
        const counter = await readCounter(keys.sellerCounter(sellerId));
        if (!counter) throw sellerMissing(sellerId);
        const changed = await readDiff<T>(sellerPk(sellerId), entity.kind, from, to, counter.ver);
        return ok(changed.map((item) => present(item, entity.view[request.version])));
      },
    }),
    route({
      ...common,
      method: 'GET',
      path: base,
      handle: async (request) => {
        const { sellerId = '' } = request.params;
        const query = listParams(request.query, entity.orderFields);
        const [counter, items] = await Promise.all([
          readCounter(keys.sellerCounter(sellerId)),
          readCollection<T>(sellerPk(sellerId), `${entity.kind}#`),
        ]);
        if (!counter) throw sellerMissing(sellerId);
        const page = pageOf(items, query, {
          searched: (item) => entity.searched.map((field) => textOf(item[field])),
          field: (item, field) => item[field],
          tiebreak: (item) => item.identifier ?? '',
        });
        return ok(page.map((item) => present(item, entity.view[request.version])));
      },
    }),
  ];
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);
