import { sellerV15, sellerV26, sellerV33 } from '#schemas/seller.ts';
import type { SellerV33Body } from '#schemas/types.ts';
import { fieldsOf } from '#schemas/views.ts';
import { insufficientRights, isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { put } from '#shared/db/transact.ts';
import { pageOf } from '#shared/db/paging.ts';
import {
  planVersioned,
  readCounter,
  readItem,
  readItems,
  readPartition,
  type Step,
  type Stored,
  writeVersioned,
} from '#shared/db/versioned.ts';
import { inconsistentData, notFound, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { listParams } from '#shared/http/query.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, merge, present, type VersionView } from '#shared/versions.ts';

/** The canonical seller: every field of every version (v33 has them all). */
export type Seller = SellerV33Body;

export const sellerView: VersionView<Seller> = {
  15: fieldsOf(sellerV15),
  26: fieldsOf(sellerV26),
  33: fieldsOf(sellerV33),
};

/** What the directory of sellers keeps per seller: enough to search, order and page the list. */
interface DirectoryEntry {
  sellerId: string;
  country: string;
  corporateId: string;
  name: string | null;
}

export const sellerIdOf = (seller: Pick<Seller, 'country' | 'corporateId'>) => `${seller.country}${seller.corporateId}`;

const missing = (sellerId: string) => notFound(`Seller ${sellerId} does not exist`);
const showSeller = (seller: Stored<Seller>, version: ApiVersion) => present(seller, sellerView[version]);

/** GET /sellers/{sellerId} */
export async function getSeller(request: ApiRequest): Promise<Reply> {
  const sellerId = request.params.sellerId ?? '';
  const seller = await readItem<Seller>(keys.sellerProfile(sellerId));
  if (!seller || seller.deleted) throw missing(sellerId);
  if (unchangedSince(request.headers, seller.version)) return notModified(seller.version);
  return ok(showSeller(seller, request.version), seller.version);
}

/** GET /{sellerId}/version: the seller's data version; v26 and v33 add the API version of the last change. */
export async function getVersion(request: ApiRequest): Promise<Reply> {
  const sellerId = request.params.sellerId ?? '';
  const counter = await readCounter(keys.sellerCounter(sellerId));
  if (!counter?.live) throw missing(sellerId);
  return ok(
    request.version === 15
      ? { version: counter.ver }
      : { version: counter.ver, modificationApiVersion: counter.apiVersion ?? request.version },
  );
}

/** POST /sellers (v15): creates; an existing seller is a VersionConflict (spec 4.4). */
export function createSeller(request: ApiRequest<Seller>): Promise<Reply> {
  return writeSeller(request, sellerIdOf(request.body), 'create');
}

/** PUT /sellers/{sellerId}: updates, or creates when the seller does not exist (docs/conventions.md §4). */
export function putSeller(request: ApiRequest<Seller>): Promise<Reply> {
  const sellerId = request.params.sellerId ?? '';
  if (sellerIdOf(request.body) !== sellerId) {
    throw inconsistentData('URL_AND_BODY_IDENTIFIERS_MISMATCH', 'Country and corporate id of the body differ from the URL');
  }
  return writeSeller(request, sellerId, 'put');
}

/** DELETE /sellers/{sellerId}: hides the seller and refuses further writes; its records are kept (bookkeeping law). */
export function deleteSeller(request: ApiRequest): Promise<Reply> {
  return writeSeller(request as ApiRequest<Seller | undefined>, request.params.sellerId ?? '', 'delete');
}

/**
 * The seller an activation names, with the writes that create it from the company name when it is
 * not registered yet (spec 4.2): not public, no opening hours. The caller commits those writes in
 * its own transaction, so a refused activation leaves no seller behind.
 */
export async function sellerFor(
  identity: Pick<Seller, 'country' | 'corporateId'>,
  companyName: string | null | undefined,
  apiVersion: ApiVersion,
  missing: () => Error,
): Promise<{ seller: Seller; steps: Step[] }> {
  const sellerId = sellerIdOf(identity);
  const stored = await readItem<Seller>(keys.sellerProfile(sellerId));
  if (stored && !stored.deleted) return { seller: stored, steps: [] };
  if (!companyName) throw missing();
  const seller: Seller = { ...identity, name: companyName, publicAccess: false, workHoursWeek: {} };
  const { steps } = await planVersioned<Seller, undefined>({
    counter: keys.sellerCounter(sellerId),
    entity: keys.sellerProfile(sellerId),
    kind: 'SELLER',
    apiVersion,
    decide: () => ({
      entity: { ...seller, deleted: false },
      result: undefined,
      live: true,
      alongside: [put({ ...keys.sellerDirectory(sellerId), ...directoryEntry(sellerId, seller) })],
    }),
  });
  // A seller created meanwhile by someone else fails the counter's condition: the caller tries again.
  const refused = () => versionConflict(`Seller ${sellerId} changed concurrently; try again`);
  return { seller, steps: steps.map((step) => ({ ...step, refused })) };
}

const directoryEntry = (sellerId: string, seller: Seller): DirectoryEntry => ({
  sellerId,
  country: seller.country,
  corporateId: seller.corporateId,
  name: seller.name ?? null,
});

function writeSeller(
  request: ApiRequest<Seller | undefined>,
  sellerId: string,
  mode: 'create' | 'put' | 'delete',
): Promise<Reply> {
  const conditions = preconditions(request.headers);
  const directory = keys.sellerDirectory(sellerId);
  return writeVersioned<Seller, Reply>({
    counter: keys.sellerCounter(sellerId),
    entity: keys.sellerProfile(sellerId),
    kind: 'SELLER',
    apiVersion: request.version,
    decide: ({ entity: stored }) => {
      const current = stored && !stored.deleted ? stored : undefined;
      if (mode === 'delete') {
        if (!current) throw missing(sellerId);
        checkPreconditions(conditions, current.version);
        return {
          entity: { country: current.country, corporateId: current.corporateId, deleted: true } as Seller & { deleted: boolean },
          result: noContent(),
          live: false,
          alongside: [{ write: { Delete: { TableName: table(), Key: directory } } }],
        };
      }
      if (mode === 'create' && current) throw versionConflict(`Seller ${sellerId} exists already`);
      if (!current && !isHyperAdmin(request.principal)) throw insufficientRights();
      checkPreconditions(conditions, current?.version);
      const seller = merge<Seller>(current, request.body ?? ({} as Seller), sellerView[request.version]);
      return {
        entity: { ...seller, deleted: false },
        result: current ? noContent() : created(),
        live: true,
        alongside: [put({ ...directory, ...directoryEntry(sellerId, seller) })],
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
  const sellers = await readItems<Seller>(page.map((entry) => keys.sellerProfile(entry.sellerId)));
  return ok(sellers.filter((seller) => !seller.deleted).map((seller) => showSeller(seller, request.version)));
}

/** The hyper admin sees the directory; a vendor user the sellers linked to its vendor; others their own. */
async function visibleEntries(principal: Principal | undefined): Promise<DirectoryEntry[]> {
  if (isHyperAdmin(principal)) return readPartition<DirectoryEntry>(keys.sellerDirectory('').pk);
  const vendor = vendorOf(principal);
  const own =
    vendor !== undefined
      ? (await readPartition<{ sk: string }>(keys.vendorSeller(vendor, '').pk)).map((link) => link.sk)
      : principal?.kind === 'activation'
        ? [principal.sellerId]
        : principal?.kind === 'user'
          ? principal.sellers
          : [];
  return readItems<DirectoryEntry>(own.map((sellerId) => keys.sellerDirectory(sellerId)));
}
