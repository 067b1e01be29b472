import { randomUUID } from 'node:crypto';
import { type Key } from '#shared/db/keys.ts';
import { pageOf } from '#shared/db/paging.ts';
import { type Item, readItem, readPair } from '#shared/db/reads.ts';
import {
  type Counter,
  type Decision,
  liveCounter,
  readDiff,
  readLive,
  type Stored,
  type Stream,
  writeVersioned,
} from '#shared/db/streams.ts';
import { liveCheck, put, type Step } from '#shared/db/transact.ts';
import { sellerReferenceMissing, sellerStream, imagesPrefix, sellerKeys } from '#shared/domain/seller.ts';
import { ApiError, notFound, referenceNotFound, typeMismatch, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, type Preconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { checkIdentifier } from '#shared/http/params.ts';
import { diffRange, listParams, requiredInt } from '#shared/http/query.ts';
import { noContent, notModified, ok, okBinary } from '#shared/http/response.ts';
import type { ApiRequest, LiveSellerRequest, RawBody, Reply } from '#shared/http/types.ts';
import { imageStore } from '#shared/images/store.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { imageFormat } from './media.ts';

/** Whose images a set of routes serves: the seller's own, or those of one of its categories or products. */
export interface Owner {
  /** The images' kind: the prefix of their sort keys and of their version-index keys. */
  kind: 'SELLER_IMAGE' | 'CATEGORY_IMAGE' | 'PRODUCT_IMAGE';
  /** The catalog entity the images hang on and the path parameter that names it; none for the seller's own. */
  entity?: { kind: 'CATEGORY' | 'PRODUCT'; param: 'categoryIdentifier' | 'productIdentifier'; noun: string };
  /** The images' collection path (after `/v{N}`). */
  path: `/{sellerId}/${string}`;
  /** The diff's path segment: `/{sellerId}/<diff>/{versionFrom}/{versionTo}`. */
  diff: string;
}

export const sellerImages: Owner = { kind: 'SELLER_IMAGE', path: '/{sellerId}/images', diff: 'seller-images-diff' };
export const categoryImages: Owner = {
  kind: 'CATEGORY_IMAGE',
  entity: { kind: 'CATEGORY', param: 'categoryIdentifier', noun: 'Category' },
  path: '/{sellerId}/categories/{categoryIdentifier}/images',
  diff: 'category-images-diff',
};
export const productImages: Owner = {
  kind: 'PRODUCT_IMAGE',
  entity: { kind: 'PRODUCT', param: 'productIdentifier', noun: 'Product' },
  path: '/{sellerId}/products/{productIdentifier}/images',
  diff: 'product-images-diff',
};

/** Where the bytes of one version are, and what they are. */
export interface Bytes {
  /** The image store's key (`<sellerId>/<uuid>`): written once, never overwritten. */
  object: string;
  contentType: string;
  size: number;
}

/** An image item: the current version of one file name (a tombstone has no bytes); `writeVersioned` stamps `modified`. */
export type ImageData = { filename: string; entityIdentifier: string } & Partial<Bytes>;

/** The images of one owner, as a request names them. */
export interface Target {
  sellerId: string;
  owner: Owner;
  /** The category's or product's identifier in keys; empty for the seller's own images. */
  entityId: string;
  /** What records show as `entityIdentifier`: the category's or product's identifier, or the seller id. */
  entityIdentifier: string;
}

/**
 * A path parameter of an owner's template that the route's own type cannot name (the three owners
 * share one set of routes): present whenever the owner's template names it, which `imageRoutes` builds from.
 */
function pathParam(params: Readonly<Partial<Record<string, string>>>, name: string): string {
  const value = params[name];
  if (value === undefined) throw new Error(`The image route has no path parameter {${name}}`);
  return value;
}

function targetOf(owner: Owner, request: ApiRequest<unknown, 'sellerId'>): Target {
  const sellerId = request.params.sellerId;
  const entityId = owner.entity ? pathParam(request.params, owner.entity.param) : '';
  return { sellerId, owner, entityId, entityIdentifier: owner.entity ? entityId : sellerId };
}

const imageKey = (target: Target, filename: string) =>
  sellerKeys.image<ImageData>(target.sellerId, target.owner.kind, target.entityId, filename);

/** The images' stream: the seller's catalog; the seller is their owner, so a missing one is 404 ReferenceNotFound. */
const imageStream = (sellerId: string): Stream => ({
  ...sellerStream(sellerId),
  missing: () => sellerReferenceMissing(sellerId),
});

/** The category or product the images hang on; none for the seller's own (the route's access rule checks the seller). */
const ownerKey = (target: Target): Key<Stored<unknown>> | undefined =>
  target.owner.entity ? sellerKeys.catalog(target.sellerId, target.owner.entity.kind, target.entityId) : undefined;

const imageMissing = (filename: string) => notFound(`No image ${filename}`);
const ownerMissing = (target: Target) =>
  referenceNotFound(`${target.owner.entity?.noun ?? 'Seller'} ${target.entityId} does not exist`);

/** Refuses a request whose category or product is missing or deleted: 404 ReferenceNotFound. */
function assertOwner(target: Target, item: { deleted: boolean } | undefined): void {
  if (target.owner.entity && item?.deleted !== false) throw ownerMissing(target);
}

/** The owner and one item in one strongly consistent round trip; refuses a missing owner. */
async function readWithOwner<T>(target: Target, key: Key<T>): Promise<Item<T> | undefined> {
  const owner = ownerKey(target);
  if (!owner) return readItem(key);
  const [ownerItem, item] = await readPair(owner, key);
  assertOwner(target, ownerItem);
  return item;
}

/** An image record (spec 2.3), as diffs and v26/v33 lists show it. */
const record = (item: Stored<ImageData>) => ({
  deleted: item.deleted,
  filename: item.filename,
  version: item.version,
  entityIdentifier: item.entityIdentifier,
  modified: item.modified,
});

/** The fields an image list may be ordered by. */
export const IMAGE_ORDER = ['filename', 'version', 'modified'] as const;

/** The bytes of one version with its ETag; 304 when If-None-Match names it (docs/conventions.md §5). */
async function sendImage(
  request: ApiRequest<unknown>,
  version: number,
  bytes: Pick<Bytes, 'object' | 'contentType'>,
): Promise<Reply> {
  if (unchangedSince(request.headers, version)) return notModified(version);
  const stored = await imageStore().get(bytes.object);
  // Every record's object is written before the record: a missing one is a fault, not a client's error.
  if (!stored) throw new Error(`Image object ${bytes.object} is missing from the store`);
  return okBinary(stored.bytes, bytes.contentType, version);
}

/** GET .../images/current/{pictureFilename}: the current bytes. */
export async function getCurrent(owner: Owner, request: ApiRequest<unknown, 'pictureFilename' | 'sellerId'>): Promise<Reply> {
  const target = targetOf(owner, request);
  const filename = request.params.pictureFilename;
  const image = await readWithOwner(target, imageKey(target, filename));
  if (!image || image.deleted || image.object === undefined) throw imageMissing(filename);
  return sendImage(request, image.version, { object: image.object, contentType: image.contentType ?? '' });
}

/**
 * GET .../images/{pictureVersion}/{pictureFilename}. v26/v33: the bytes of that version, kept after
 * later changes and deletes. v15 (imageVersionType): `version` answers the current image record, so a
 * register can see whether its copy is current without fetching the bytes.
 */
export async function getByVersion(
  owner: Owner,
  request: ApiRequest<unknown, 'pictureFilename' | 'pictureVersion' | 'sellerId'>,
): Promise<Reply> {
  const target = targetOf(owner, request);
  const filename = request.params.pictureFilename;
  const raw = request.params.pictureVersion;
  if (request.version === 15) {
    if (raw !== 'version') throw typeMismatch('pictureVersion', 'current or version', raw);
    const image = await readWithOwner(target, imageKey(target, filename));
    if (!image || image.deleted) throw imageMissing(filename);
    if (unchangedSince(request.headers, image.version)) return notModified(image.version);
    return ok(record(image), image.version);
  }
  const version = requiredInt('pictureVersion', raw);
  const key = sellerKeys.imageVersion<Bytes>(target.sellerId, owner.kind, target.entityId, filename, version);
  const found = await readWithOwner(target, key);
  if (!found) throw notFound(`Image ${filename} has no version ${version}`);
  return sendImage(request, version, found);
}

/**
 * GET .../images (LIST parameters, ordered by file name unless told): v26/v33 the image records,
 * v15 the paths of the current images (`/v15/...`, what a register GETs).
 */
export async function listImages(owner: Owner, request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const target = targetOf(owner, request);
  const query = listParams(request.query, IMAGE_ORDER);
  const entityKey = ownerKey(target);
  const [ownerItem, items] = await Promise.all([
    entityKey ? readItem(entityKey) : undefined,
    readLive<ImageData>(imageStream(target.sellerId), imagesPrefix(owner.kind, target.entityId)),
  ]);
  assertOwner(target, ownerItem);
  const page = pageOf(items, query, {
    searched: (item) => [item.filename],
    field: (item, field) => item[field],
    tiebreak: (item) => item.filename,
  });
  if (request.version !== 15) return ok(page.map(record));
  const collection = owner.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParam(request.params, name)));
  return ok(page.map((item) => `/v15${collection}/current/${encodeURIComponent(item.filename)}`));
}

/** GET /{sellerId}/<kind>-images-diff/{versionFrom}/{versionTo}: image records, tombstones included (docs/conventions.md §7). */
export async function imageDiff(owner: Owner, request: LiveSellerRequest<unknown, 'sellerId'>): Promise<Reply> {
  const stream = imageStream(request.params.sellerId);
  const changed = await readDiff<ImageData>(stream, owner.kind, diffRange(request.params), request.sellerCounter);
  return ok(changed.map(record));
}

/** PUT .../images/current/{pictureFilename}: creates (201) or replaces (204) the image; If-Match / If-None-Match (docs/conventions.md §5). */
export function putImage(owner: Owner, request: ApiRequest<RawBody, 'pictureFilename' | 'sellerId'>): Promise<Reply> {
  const format = imageFormat(request.body);
  return writeImage(owner, request, request.params.pictureFilename, 'put', { ...request.body, ...format });
}

/**
 * POST .../images: a new image under the `filename` query parameter (identifierType; taken: 409
 * VersionConflict) or, without one, a generated `<uuid>.<extension>`; answers 201 `{identifier: <filename>}`.
 */
export function postImage(owner: Owner, request: ApiRequest<RawBody, 'sellerId'>): Promise<Reply> {
  const format = imageFormat(request.body);
  const given = request.query.get('filename');
  if (given !== null) checkIdentifier('filename', given);
  const filename = given ?? `${randomUUID()}.${format.extension}`;
  return writeImage(owner, request, filename, 'create', { ...request.body, ...format });
}

/** DELETE .../images/current/{pictureFilename}: a tombstone (204); the versions' bytes stay for GET by version. */
export function deleteImage(owner: Owner, request: ApiRequest<unknown, 'pictureFilename' | 'sellerId'>): Promise<Reply> {
  return writeImage(owner, request, request.params.pictureFilename, 'delete', undefined);
}

export type Mode = 'create' | 'put' | 'delete';

/**
 * Stores the bytes under a new key, then commits the record. A refused write (an ApiError) committed
 * nothing, so its object is removed again; after any other failure the write may have committed, so
 * the object stays (an orphan at worst, never a record without bytes).
 */
async function writeImage(
  owner: Owner,
  request: ApiRequest<unknown, 'sellerId'>,
  filename: string,
  mode: Mode,
  upload: { bytes: Buffer; mediaType: string } | undefined,
): Promise<Reply> {
  const target = targetOf(owner, request);
  // Malformed tags and a missing category or product are refused before any byte is stored.
  const conditions = preconditions(request.headers);
  const entityKey = ownerKey(target);
  if (entityKey) assertOwner(target, await readItem(entityKey));
  if (!upload) return commit(target, request.version, filename, mode, conditions, undefined);
  const bytes: Bytes = { object: `${target.sellerId}/${randomUUID()}`, contentType: upload.mediaType, size: upload.bytes.length };
  await imageStore().put(bytes.object, upload.bytes, bytes.contentType);
  try {
    return await commit(target, request.version, filename, mode, conditions, bytes);
  } catch (error) {
    if (error instanceof ApiError) await discard(bytes.object);
    throw error;
  }
}

/** Best effort: a failed removal leaves an unreferenced object, which no read can reach. */
const discard = (object: string) =>
  imageStore()
    .delete(object)
    .catch(() => undefined);

/** The versioned write of an image record in the seller's stream (`decideImageWrite`). */
function commit(
  target: Target,
  apiVersion: ApiVersion,
  filename: string,
  mode: Mode,
  conditions: Preconditions,
  bytes: Bytes | undefined,
): Promise<Reply> {
  const write: ImageWrite = { target, filename, mode, conditions, bytes };
  return writeVersioned<ImageData, Reply>({
    stream: imageStream(target.sellerId),
    entity: imageKey(target, filename),
    kind: target.owner.kind,
    apiVersion,
    decide: (read) => decideImageWrite(write, read, Date.now()),
  });
}

/** What an image write asks, known before the record is read; `bytes` are stored already (none for a delete). */
export interface ImageWrite {
  target: Target;
  filename: string;
  mode: Mode;
  conditions: Preconditions;
  bytes: Bytes | undefined;
}

/**
 * An image write decided on the stream's counter and the record as read: the record (a tombstone
 * without bytes for a delete) with the version item that says where that version's bytes are. A
 * category's or product's existence is part of the transaction (a ConditionCheck that it is not
 * deleted), so a concurrent delete cannot slip in between. Refused: a seller not live (404
 * ReferenceNotFound), a delete of a missing image (404), a POST of a taken name (409), unmet preconditions (409).
 */
export function decideImageWrite(
  write: ImageWrite,
  read: { counter: Counter | undefined; entity: Stored<ImageData> | undefined; next: number },
  now: number,
): Decision<ImageData, Reply> {
  const { target, filename, mode, conditions, bytes } = write;
  const owner = ownerKey(target);
  const ownerCheck: Step[] = owner ? [liveCheck(owner, () => ownerMissing(target))] : [];
  liveCounter(imageStream(target.sellerId), read.counter);
  const current = read.entity && !read.entity.deleted ? read.entity : undefined;
  const identity = { filename, entityIdentifier: target.entityIdentifier };
  if (mode === 'delete' || !bytes) {
    if (!current) throw imageMissing(filename);
    checkPreconditions(conditions, current.version);
    return { entity: { ...identity, deleted: true }, result: noContent(), alongside: ownerCheck };
  }
  if (mode === 'create' && current) throw versionConflict(`Image ${filename} exists already`);
  checkPreconditions(conditions, current?.version);
  const { next } = read;
  const version = sellerKeys.imageVersion(target.sellerId, target.owner.kind, target.entityId, filename, next);
  return {
    entity: { ...identity, ...bytes, deleted: false },
    result: {
      status: current ? 204 : 201,
      headers: { ETag: `"${next}"` },
      ...(current ? {} : { body: { identifier: filename } }),
    },
    alongside: [...ownerCheck, put({ ...version, ...bytes, version: next, modified: now })],
  };
}
