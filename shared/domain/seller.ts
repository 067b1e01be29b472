import type { SellerV15Body, SellerV26Body, SellerV33Body } from '#schemas/types.ts';
import { type Key, pad, type Partition, partitionOf } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import type { Revised } from '#shared/db/revisions.ts';
import {
  type Counter,
  liveCounterCheck,
  planVersioned,
  readLiveCounter,
  type Stored,
  type Stream,
  streamEntityKey,
} from '#shared/db/streams.ts';
import { put, type Step } from '#shared/db/transact.ts';
import { type ApiError, notFound, referenceNotFound, versionConflict } from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';
import type { GatewayPayment, Hairdresser, Restaurant, RestaurantDirectoryEntry } from './records.ts';

/**
 * The seller: its canonical form, its id, its version stream and the one answer to "is this seller
 * live?": its counter's `live` (`requireLiveSeller` on a read, `sellerLive` in a transaction). A seller
 * is live from its creation until DELETE /sellers/{sellerId}; every route under a seller asks here (the
 * HTTP pipeline for `access.seller` routes, a transaction step for writes). The profile's tombstone
 * (`isSellerProfile`) answers another question: whether the profile read is one to show or write over.
 */

/** The canonical seller: every field of every version (v33 has them all). */
export type Seller = SellerV33Body;

/** A seller as one version's body gives it: that version's fields of the canonical seller. */
export type SellerBody = SellerV15Body | SellerV26Body | SellerV33Body;

/** What the directory of sellers keeps per seller: enough to search, order and page the list. */
export interface SellerDirectoryEntry {
  sellerId: string;
  country: string;
  corporateId: string;
  name: string | null;
}

/** A seller id is the country code followed directly by the corporate id (docs/conventions.md §9). */
export const sellerIdOf = (seller: Pick<Seller, 'country' | 'corporateId'>): string => `${seller.country}${seller.corporateId}`;

/** The inverse of `sellerIdOf`; `shared/http/params.ts` checks each part against its scalar rule. */
export const splitSellerId = (sellerId: string): Pick<Seller, 'country' | 'corporateId'> => ({
  country: sellerId.slice(0, 2),
  corporateId: sellerId.slice(2),
});

/** The seller's partition: its counter, profile, catalog, images and the records kept beside them. */
export const sellerPk = (sellerId: string) => `S#${sellerId}`;

/** The sort-key prefix of one entity's images of a kind (`PRODUCT_IMAGE`, ...): one Query reads them. */
export const imagesPrefix = (kind: string, entityIdentifier: string) => `${kind}#${entityIdentifier}/`;

/** The items of a seller's partition, and the directories of sellers and restaurants. */
export const sellerKeys = {
  counter: (sellerId: string): Key<Counter> => ({ pk: sellerPk(sellerId), sk: '#VERSION' }),
  profile: (sellerId: string): Key<Stored<Seller>> => ({ pk: sellerPk(sellerId), sk: '#PROFILE' }),
  /** A catalog entity (tax, category, product, ...) of the seller's stream: `T` is the entity's data. */
  catalog: <T = unknown>(sellerId: string, kind: string, identifier: string): Key<Stored<T>> =>
    streamEntityKey<T>(sellerPk(sellerId), kind, identifier),
  /** An image; `/` cannot occur in identifiers, so `<entityId>/` is a safe prefix for one entity's images. */
  image: <T>(sellerId: string, kind: string, entityIdentifier: string, filename: string): Key<Stored<T>> => ({
    pk: sellerPk(sellerId),
    sk: `${imagesPrefix(kind, entityIdentifier)}${filename}`,
  }),
  /** One version of an image (where its bytes are): no vsk, so diffs never see it; its prefix is not the image's. */
  imageVersion: <T>(sellerId: string, kind: string, entityIdentifier: string, filename: string, version: number): Key<T> => ({
    pk: sellerPk(sellerId),
    sk: `${kind}_VERSION#${entityIdentifier}/${filename}#${pad(version)}`,
  }),
  /** A sequence of the seller's own (order ids), in its partition: sellers never share a hot item. */
  sequence: (sellerId: string, name: string): Key<{ n: number }> => ({ pk: sellerPk(sellerId), sk: `#SEQ#${name}` }),
  restaurant: (sellerId: string): Key<Restaurant & Revised> => ({ pk: sellerPk(sellerId), sk: '#RESTAURANT' }),
  hairdresser: (sellerId: string): Key<Hairdresser & Revised> => ({ pk: sellerPk(sellerId), sk: '#HAIRDRESSER' }),
  /** The one result of a v26 gateway payment of an order (docs/conventions.md §22), in the seller's partition. */
  gatewayPayment: (sellerId: string, orderId: string): Key<GatewayPayment> => ({
    pk: sellerPk(sellerId),
    sk: `#PAYMENT#${orderId}`,
  }),
  directoryEntry: (sellerId: string): Key<SellerDirectoryEntry> => ({ pk: 'SELLERS', sk: sellerId }),
  directory: partitionOf<SellerDirectoryEntry>('SELLERS'),
  restaurantDirectoryEntry: (sellerId: string): Key<RestaurantDirectoryEntry> => ({ pk: 'RESTAURANTS', sk: sellerId }),
  restaurantDirectory: partitionOf<RestaurantDirectoryEntry>('RESTAURANTS'),
} as const;

export const sellerMissing = (sellerId: string) => notFound(`Seller ${sellerId} does not exist`);

/** The seller's catalog stream: its counter says whether the seller is live. */
export const sellerStream = (sellerId: string): Stream => ({
  partition: { pk: sellerPk(sellerId) } satisfies Partition,
  counter: sellerKeys.counter(sellerId),
  missing: () => sellerMissing(sellerId),
});

/**
 * The live seller's stream counter. A seller that never existed or was deleted is `missing` (404
 * NotFound; routes where the seller is a reference, such as an image's owner, answer ReferenceNotFound).
 */
export function requireLiveSeller(sellerId: string, missing: (sellerId: string) => ApiError = sellerMissing): Promise<Counter> {
  return readLiveCounter({ ...sellerStream(sellerId), missing: () => missing(sellerId) });
}

/** 404 ReferenceNotFound: the seller a request refers to (an image's owner, a filter) does not exist or was deleted. */
export const sellerReferenceMissing = (sellerId: string) => referenceNotFound(`Seller ${sellerId} does not exist`);

/**
 * `requireLiveSeller` at commit (`liveCounterCheck`): holds a write outside the seller's stream (a restaurant
 * record, an activation) to the seller being live when it commits, so nothing is written for a seller deleted
 * meanwhile (404).
 */
export const sellerLive = (sellerId: string): Step => liveCounterCheck(sellerStream(sellerId));

/**
 * Whether a profile as read is the seller's, not missing and not the tombstone its delete left. Not a liveness
 * check: where the profile itself is read, to show it or write over it, that item must be checked (a tombstone has
 * nothing to show, and its version is no ETag to match); the counter, another item, cannot vouch for it. The delete
 * writes the tombstone in the transaction that takes the counter down, so the two agree.
 */
export const isSellerProfile = <T extends Stored<Seller>>(profile: T | undefined): profile is T =>
  profile !== undefined && !profile.deleted;

/** The seller's directory entry, written with every change of the seller. */
export const sellerDirectoryEntry = (sellerId: string, seller: Seller): SellerDirectoryEntry => ({
  sellerId,
  country: seller.country,
  corporateId: seller.corporateId,
  name: seller.name ?? null,
});

/**
 * The seller an activation names, with the writes that hold it live or create it from the company name
 * when it is not registered (or was deleted: it is created again, spec 4.2): not public, no opening
 * hours. The caller commits those writes in its own transaction, so a refused activation leaves no
 * seller behind, and none is written for a seller deleted meanwhile.
 */
export async function sellerFor(
  identity: Pick<Seller, 'country' | 'corporateId'>,
  companyName: string | null | undefined,
  apiVersion: ApiVersion,
  missing: () => Error,
): Promise<{ seller: Seller; steps: Step[] }> {
  const sellerId = sellerIdOf(identity);
  // A seller deleted or created meanwhile by someone else fails a condition: the caller tries again.
  const refused = () => versionConflict(`Seller ${sellerId} changed concurrently; try again`);
  const stored = await readItem(sellerKeys.profile(sellerId));
  if (isSellerProfile(stored)) return { seller: stored, steps: [{ ...sellerLive(sellerId), refused }] };
  if (!companyName) throw missing();
  const seller: Seller = { ...identity, name: companyName, publicAccess: false, workHoursWeek: {} };
  const { steps } = await planVersioned<Seller, undefined>({
    stream: sellerStream(sellerId),
    entity: sellerKeys.profile(sellerId),
    kind: 'SELLER',
    apiVersion,
    decide: () => ({
      entity: { ...seller, deleted: false },
      result: undefined,
      live: true,
      alongside: [put({ ...sellerKeys.directoryEntry(sellerId), ...sellerDirectoryEntry(sellerId, seller) })],
    }),
  });
  return { seller, steps: steps.map((step) => ({ ...step, refused })) };
}
