import { canAccessSeller } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { type Key } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import {
  createRevised,
  deleteRevised,
  type Revised,
  type RevisedDecision,
  type RevisedRecord,
  updateRevised,
  writeRevised,
} from '#shared/db/revisions.ts';
import type { Stored } from '#shared/db/streams.ts';
import type { Step } from '#shared/db/transact.ts';
import { isSellerProfile, type Seller, sellerIdOf, sellerLive, sellerMissing, sellerKeys } from '#shared/domain/seller.ts';
import { forbidden, inconsistentData, notFound, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, type Preconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, merge, present, type VersionView } from '#shared/versions.ts';

/** The seller a record belongs to, as its body names it; the URL's country stands in for a missing one. */
export interface SellerIdentity {
  country?: string | null;
  corporateId: string;
}

/**
 * A record a seller has at most one of (its restaurant, its hairdresser), kept in the seller's
 * partition. It belongs to no version stream (registers do not sync it): its revision
 * (`shared/db/revisions.ts`) is its ETag, and every write is conditioned on the revision it was decided on.
 */
export interface SellerRecord<T extends SellerIdentity> {
  /** How messages name it: `Restaurant`. */
  noun: string;
  key: (sellerId: string) => Key<T & Revised>;
  /** Canonical fields each version shows and writes; v33's are all of them. */
  view: VersionView<T>;
  /** Writes that commit with the record, given the record after the write (undefined once deleted). */
  alongside?: (sellerId: string, record: T | undefined) => Step[];
}

const sellerIdIn = (request: ApiRequest<unknown, 'sellerId'>) => request.params.sellerId;

/**
 * The seller's profile and its record, strongly consistent, for a route open to any authenticated caller (a public
 * restaurant): the pipeline asked no counter, and the profile read for its public flag answers 404 where it is
 * missing or its tombstone (`isSellerProfile`).
 */
export async function readWithSeller<T extends SellerIdentity>(
  record: SellerRecord<T>,
  sellerId: string,
): Promise<{ seller: Stored<Seller>; current: RevisedRecord<T> | undefined }> {
  const [seller, current] = await Promise.all([readItem(sellerKeys.profile(sellerId)), readItem(record.key(sellerId))]);
  if (!isSellerProfile(seller)) throw sellerMissing(sellerId);
  return { seller, current };
}

/** The record, or 404 NotFound when the seller has none. */
export function found<T extends SellerIdentity>(
  record: SellerRecord<T>,
  current: RevisedRecord<T> | undefined,
  sellerId: string,
): RevisedRecord<T> {
  if (!current) throw notFound(`${record.noun} of seller ${sellerId} does not exist`);
  return current;
}

/**
 * Public data of a seller (spec 5.4): any authenticated caller may read it while the seller is
 * public; otherwise only who may access the seller, anyone else gets 403 SELLER_IS_NOT_PUBLIC.
 */
export async function checkPublic(seller: Seller, sellerId: string, principal: Principal | undefined): Promise<void> {
  if (seller.publicAccess || (await canAccessSeller(principal, sellerId))) return;
  throw forbidden('SELLER_IS_NOT_PUBLIC', `Seller ${sellerId} is not public`);
}

/** A GET's answer: the record in the request's version with its revision as ETag, or 304 when If-None-Match names it. */
export function show<T extends SellerIdentity>(record: SellerRecord<T>, current: RevisedRecord<T>, request: ApiRequest): Reply {
  if (unchangedSince(request.headers, current.revision)) return notModified(current.revision);
  return ok(present(current, record.view[request.version]), current.revision);
}

/**
 * PUT: creates the record (201) or replaces the request version's fields of it (204), keeping the
 * fields only other versions have. The body's country and corporate id must name the URL's seller.
 */
export function putRecord<T extends SellerIdentity>(record: SellerRecord<T>, request: ApiRequest<T, 'sellerId'>): Promise<Reply> {
  const sellerId = sellerIdIn(request);
  const country = request.body.country ?? sellerId.slice(0, 2);
  if (sellerIdOf({ country, corporateId: request.body.corporateId }) !== sellerId) {
    throw inconsistentData('URL_AND_BODY_IDENTIFIERS_MISMATCH', 'Country and corporate id of the body differ from the URL');
  }
  const write: RecordWrite<T> = {
    sellerId,
    body: { ...request.body, country },
    version: request.version,
    conditions: preconditions(request.headers),
  };
  return writeRevised(record.key(sellerId), (current) => decideRecordPut(record, write, current));
}

/** What a PUT of a seller's record asks, known before it is read: the body with its country filled in. */
export interface RecordWrite<T extends SellerIdentity> {
  sellerId: string;
  body: T;
  version: ApiVersion;
  conditions: Preconditions;
}

/**
 * A PUT decided on the record as read: created or updated at the revision read, every canonical field
 * written (absent ones as null, so an update leaves nothing of the previous write behind), held to the
 * seller being live, with the record's own writes alongside. Unmet preconditions are 409.
 */
export function decideRecordPut<T extends SellerIdentity>(
  record: SellerRecord<T>,
  write: RecordWrite<T>,
  current: RevisedRecord<T> | undefined,
): RevisedDecision<Reply> {
  const { sellerId } = write;
  const key = record.key(sellerId);
  checkPreconditions(write.conditions, current?.revision);
  const next = merge<T>(current, write.body, record.view[write.version]);
  const fields = present(next, record.view[33]);
  return {
    steps: [
      sellerLive(sellerId),
      current
        ? updateRevised(key, fields, current.revision)
        : createRevised({ ...key, ...fields }, () => versionConflict(`${record.noun} of seller ${sellerId} was just created`)),
      ...(record.alongside?.(sellerId, next) ?? []),
    ],
    result: current ? noContent() : created(sellerId),
  };
}

/** DELETE: removes the record (204); a record the seller does not have is 404. */
export function deleteRecord<T extends SellerIdentity>(
  record: SellerRecord<T>,
  request: ApiRequest<unknown, 'sellerId'>,
): Promise<Reply> {
  const sellerId = sellerIdIn(request);
  const conditions = preconditions(request.headers);
  return writeRevised(record.key(sellerId), (current) => decideRecordDelete(record, sellerId, conditions, current));
}

/** A DELETE decided on the record as read: removed at the revision read, held to the seller being live; 404 when there is none. */
export function decideRecordDelete<T extends SellerIdentity>(
  record: SellerRecord<T>,
  sellerId: string,
  conditions: Preconditions,
  current: RevisedRecord<T> | undefined,
): RevisedDecision<Reply> {
  const existing = found(record, current, sellerId);
  checkPreconditions(conditions, existing.revision);
  return {
    steps: [
      sellerLive(sellerId),
      deleteRevised(record.key(sellerId), existing.revision),
      ...(record.alongside?.(sellerId, undefined) ?? []),
    ],
    result: noContent(),
  };
}
