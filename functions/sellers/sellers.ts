import { insufficientRights, isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { keys, partitions } from '#shared/db/keys.ts';
import { pageOf } from '#shared/db/paging.ts';
import { readItem, readItems, readPartition } from '#shared/db/reads.ts';
import { type Stored, writeVersioned } from '#shared/db/streams.ts';
import { put, remove } from '#shared/db/transact.ts';
import {
  requireLiveSeller,
  type Seller,
  type SellerBody,
  type SellerDirectoryEntry,
  sellerDirectoryEntry,
  sellerIdOf,
  sellerMissing,
  sellerStream,
  sellerView,
} from '#shared/domain/seller.ts';
import { inconsistentData, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { listParams } from '#shared/http/query.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, merge, present } from '#shared/versions.ts';

const showSeller = (seller: Stored<Seller>, version: ApiVersion) => present(seller, sellerView[version]);

/** GET /sellers/{sellerId} */
export async function getSeller(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const sellerId = request.params.sellerId;
  const seller = await readItem(keys.sellerProfile(sellerId));
  if (!seller || seller.deleted) throw sellerMissing(sellerId);
  if (unchangedSince(request.headers, seller.version)) return notModified(seller.version);
  return ok(showSeller(seller, request.version), seller.version);
}

/** GET /{sellerId}/version: the seller's data version; v26 and v33 add the API version of the last change. */
export async function getVersion(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const sellerId = request.params.sellerId;
  const counter = await requireLiveSeller(sellerId);
  return ok(
    request.version === 15
      ? { version: counter.ver }
      : { version: counter.ver, modificationApiVersion: counter.apiVersion ?? request.version },
  );
}

/** POST /sellers (v15): creates; an existing seller is a VersionConflict (spec 4.4). */
export function createSeller(request: ApiRequest<SellerBody>): Promise<Reply> {
  return writeSeller(request, sellerIdOf(request.body), 'create', request.body);
}

/** PUT /sellers/{sellerId}: updates, or creates when the seller does not exist (docs/conventions.md §4). */
export function putSeller(request: ApiRequest<SellerBody, 'sellerId'>): Promise<Reply> {
  const sellerId = request.params.sellerId;
  if (sellerIdOf(request.body) !== sellerId) {
    throw inconsistentData('URL_AND_BODY_IDENTIFIERS_MISMATCH', 'Country and corporate id of the body differ from the URL');
  }
  return writeSeller(request, sellerId, 'put', request.body);
}

/** DELETE /sellers/{sellerId}: hides the seller and refuses further writes; its records are kept (bookkeeping law). */
export function deleteSeller(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  return writeSeller(request, request.params.sellerId, 'delete', undefined);
}

function writeSeller(
  request: ApiRequest<unknown>,
  sellerId: string,
  mode: 'create' | 'put' | 'delete',
  body: SellerBody | undefined,
): Promise<Reply> {
  const conditions = preconditions(request.headers);
  const directory = keys.sellerDirectory(sellerId);
  return writeVersioned<Seller, Reply>({
    stream: sellerStream(sellerId),
    entity: keys.sellerProfile(sellerId),
    kind: 'SELLER',
    apiVersion: request.version,
    decide: ({ entity: stored }) => {
      const current = stored && !stored.deleted ? stored : undefined;
      if (mode === 'delete' || !body) {
        if (!current) throw sellerMissing(sellerId);
        checkPreconditions(conditions, current.version);
        return {
          entity: { country: current.country, corporateId: current.corporateId, deleted: true } as Seller & { deleted: boolean },
          result: noContent(),
          live: false,
          alongside: [remove(directory)],
        };
      }
      if (mode === 'create' && current) throw versionConflict(`Seller ${sellerId} exists already`);
      if (!current && !isHyperAdmin(request.principal)) throw insufficientRights();
      checkPreconditions(conditions, current?.version);
      const seller = merge<Seller>(current, body, sellerView[request.version]);
      return {
        entity: { ...seller, deleted: false },
        result: current ? noContent() : created(),
        live: true,
        alongside: [put({ ...directory, ...sellerDirectoryEntry(sellerId, seller) })],
      };
    },
  });
}

const ORDER_FIELDS = ['COUNTRY', 'NAME'] as const;
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
  const sellers = await readItems(page.map((entry) => keys.sellerProfile(entry.sellerId)));
  return ok(sellers.filter((seller) => !seller.deleted).map((seller) => showSeller(seller, request.version)));
}

/** The hyper admin sees the directory; a vendor user the sellers linked to its vendor; others their own. */
async function visibleEntries(principal: Principal | undefined): Promise<SellerDirectoryEntry[]> {
  if (isHyperAdmin(principal)) return readPartition(partitions.sellers);
  const vendor = vendorOf(principal);
  const own =
    vendor !== undefined
      ? (await readPartition(partitions.vendorSellers(vendor))).map((link) => link.sk)
      : principal?.kind === 'activation'
        ? [principal.sellerId]
        : principal?.kind === 'user'
          ? principal.sellers
          : [];
  return readItems(own.map((sellerId) => keys.sellerDirectory(sellerId)));
}
