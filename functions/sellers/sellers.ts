import { sellerV15, sellerV26, sellerV33 } from '#schemas/generated/fields.js';
import { insufficientRights, isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { pageOf } from '#shared/db/paging.ts';
import { readItem, readItems, readPartition } from '#shared/db/reads.ts';
import { type Decision, type Stored, writeVersioned } from '#shared/db/streams.ts';
import { put, remove } from '#shared/db/transact.ts';
import {
  isSellerProfile,
  type Seller,
  type SellerBody,
  type SellerDirectoryEntry,
  sellerDirectoryEntry,
  sellerIdOf,
  sellerMissing,
  sellerStream,
  sellerKeys,
} from '#shared/domain/seller.ts';
import { inconsistentData, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, type Preconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { listParams } from '#shared/http/query.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, LiveSellerRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, merge, present, type VersionView } from '#shared/versions.ts';
import { vendorKeys } from '#shared/domain/records.ts';

/** What each version shows and writes of the seller (only this group shows sellers). */
export const sellerView: VersionView<Seller> = {
  15: sellerV15,
  26: sellerV26,
  33: sellerV33,
};

const showSeller = (seller: Stored<Seller>, version: ApiVersion) => present(seller, sellerView[version]);

/** GET /sellers/{sellerId}: the profile, or 404 where there is none or its tombstone (`access.sellerRecord` asks no counter). */
export async function getSeller(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const sellerId = request.params.sellerId;
  const seller = await readItem(sellerKeys.profile(sellerId));
  if (!isSellerProfile(seller)) throw sellerMissing(sellerId);
  if (unchangedSince(request.headers, seller.version)) return notModified(seller.version);
  return ok(showSeller(seller, request.version), seller.version);
}

/** GET /{sellerId}/version: the seller's data version; v26 and v33 add the API version of the last change. */
export async function getVersion(request: LiveSellerRequest<unknown, 'sellerId'>): Promise<Reply> {
  const counter = request.sellerCounter;
  return ok(
    request.version === 15
      ? { version: counter.ver }
      : { version: counter.ver, modificationApiVersion: counter.apiVersion ?? request.version },
  );
}

/** POST /sellers (v15): creates; an existing seller is a VersionConflict (spec 4.4). */
export function createSeller(request: ApiRequest<SellerBody>): Promise<Reply> {
  return writeSeller(request, sellerIdOf(request.body), { mode: 'create', body: request.body });
}

/** PUT /sellers/{sellerId}: updates, or creates when the seller does not exist (docs/conventions.md §4). */
export function putSeller(request: ApiRequest<SellerBody, 'sellerId'>): Promise<Reply> {
  const sellerId = request.params.sellerId;
  if (sellerIdOf(request.body) !== sellerId) {
    throw inconsistentData('URL_AND_BODY_IDENTIFIERS_MISMATCH', 'Country and corporate id of the body differ from the URL');
  }
  return writeSeller(request, sellerId, { mode: 'put', body: request.body });
}

/** DELETE /sellers/{sellerId}: hides the seller and refuses further writes; its records are kept (bookkeeping law). */
export function deleteSeller(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  return writeSeller(request, request.params.sellerId, { mode: 'delete' });
}

/** What a seller write asks, known before the seller is read. */
export interface SellerWrite {
  sellerId: string;
  change: { mode: 'create' | 'put'; body: SellerBody } | { mode: 'delete' };
  version: ApiVersion;
  principal: Principal | undefined;
  conditions: Preconditions;
}

function writeSeller(request: ApiRequest<unknown>, sellerId: string, change: SellerWrite['change']): Promise<Reply> {
  const write: SellerWrite = {
    sellerId,
    change,
    version: request.version,
    principal: request.principal,
    conditions: preconditions(request.headers),
  };
  return writeVersioned<Seller, Reply>({
    stream: sellerStream(sellerId),
    entity: sellerKeys.profile(sellerId),
    kind: 'SELLER',
    apiVersion: request.version,
    decide: ({ entity }) => decideSellerWrite(write, entity),
  });
}

/**
 * A seller write decided on the seller's profile as read. A delete of a live seller leaves a tombstone
 * with its identity, takes its stream down and its directory entry away; a create or update writes the
 * version's fields over the stored seller (the others kept), brings the stream live and rewrites the
 * directory entry. Refused: a delete of a missing seller (404), a create of an existing one (409), a
 * new seller by anyone but the hyper admin (403), unmet preconditions (409).
 */
export function decideSellerWrite(write: SellerWrite, stored: Stored<Seller> | undefined): Decision<Seller, Reply> {
  const { sellerId, change } = write;
  const directory = sellerKeys.directoryEntry(sellerId);
  const current = isSellerProfile(stored) ? stored : undefined;
  if (change.mode === 'delete') {
    if (!current) throw sellerMissing(sellerId);
    checkPreconditions(write.conditions, current.version);
    return {
      entity: { country: current.country, corporateId: current.corporateId, deleted: true },
      result: noContent(),
      live: false,
      alongside: [remove(directory)],
    };
  }
  if (change.mode === 'create' && current) throw versionConflict(`Seller ${sellerId} exists already`);
  if (!current && !isHyperAdmin(write.principal)) throw insufficientRights();
  checkPreconditions(write.conditions, current?.version);
  const seller = merge<Seller>(current, change.body, sellerView[write.version]);
  return {
    entity: { ...seller, deleted: false },
    result: current ? noContent() : created(sellerId),
    live: true,
    alongside: [put({ ...directory, ...sellerDirectoryEntry(sellerId, seller) })],
  };
}

export const ORDER_FIELDS = ['COUNTRY', 'NAME'] as const;
const ORDER_ATTRIBUTE = { COUNTRY: 'country', NAME: 'name' } as const;

/** GET /sellers: the sellers the caller may see, with LIST parameters (spec 4.4, orderBy sellerFieldsType). */
export async function listSellers(request: ApiRequest): Promise<Reply> {
  const query = listParams(request.query, ORDER_FIELDS);
  const entries = await visibleEntries(request.principal);
  const page = pageOf(entries, query, {
    searched: (entry) => [entry.name, entry.corporateId, entry.sellerId],
    field: (entry, field) => entry[ORDER_ATTRIBUTE[field]],
    tiebreak: (entry) => entry.sellerId,
  });
  const sellers = await readItems(page.map((entry) => sellerKeys.profile(entry.sellerId)));
  return ok(sellers.filter(isSellerProfile).map((seller) => showSeller(seller, request.version)));
}

/** The hyper admin sees the directory; a vendor user the sellers linked to its vendor; others their own. */
async function visibleEntries(principal: Principal | undefined): Promise<SellerDirectoryEntry[]> {
  if (isHyperAdmin(principal)) return readPartition(sellerKeys.directory);
  const vendor = vendorOf(principal);
  const own =
    vendor !== undefined
      ? (await readPartition(vendorKeys.sellers(vendor))).map((link) => link.sk)
      : principal?.kind === 'activation'
        ? [principal.sellerId]
        : principal?.kind === 'user'
          ? principal.sellers
          : [];
  return readItems(own.map((sellerId) => sellerKeys.directoryEntry(sellerId)));
}
