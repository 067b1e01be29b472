import { restaurant, restaurantV15 } from '#schemas/generated/fields.js';
import type { TaxBody } from '#schemas/types.ts';
import { entityPrefix } from '#shared/db/keys.ts';
import { pageOf } from '#shared/db/paging.ts';
import { readItems, readPartition } from '#shared/db/reads.ts';
import { readLive } from '#shared/db/streams.ts';
import { put, remove } from '#shared/db/transact.ts';
import type { Restaurant, RestaurantDirectoryEntry } from '#shared/domain/records.ts';
import { isSellerProfile, sellerStream, sellerKeys, sellerPk } from '#shared/domain/seller.ts';
import { taxes } from '#shared/domain/taxes.ts';
import { listParams } from '#shared/http/query.ts';
import { ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { present } from '#shared/versions.ts';
import { checkPublic, deleteRecord, found, putRecord, readWithSeller, type SellerRecord, show } from './records.ts';

/** What the list shows of a restaurant (spec 2.3), plus `country` so a client can build the seller id (docs/conventions.md §9). */
type ListItem = Omit<RestaurantDirectoryEntry, 'sellerId'>;

const directoryEntry = (sellerId: string, restaurant: Restaurant): RestaurantDirectoryEntry => ({
  sellerId,
  country: restaurant.country ?? sellerId.slice(0, 2),
  corporateId: restaurant.corporateId,
  name: restaurant.name ?? null,
  description: restaurant.description ?? null,
  city: restaurant.city ?? null,
  address: restaurant.address ?? null,
  averageBill: restaurant.averageBill ?? null,
  logo: restaurant.images?.[0] ?? null,
  custom: restaurant.custom ?? null,
});

const LIST_FIELDS = [
  'country',
  'corporateId',
  'name',
  'description',
  'city',
  'address',
  'averageBill',
  'logo',
  'custom',
] as const satisfies readonly (keyof ListItem)[];

export const restaurants: SellerRecord<Restaurant> = {
  noun: 'Restaurant',
  key: sellerKeys.restaurant,
  view: { 15: restaurantV15, 26: restaurant, 33: restaurant },
  alongside: (sellerId, written) => [
    written
      ? put({ ...sellerKeys.restaurantDirectoryEntry(sellerId), ...directoryEntry(sellerId, written) })
      : remove(sellerKeys.restaurantDirectoryEntry(sellerId)),
  ],
};

const sellerIdIn = (request: ApiRequest<unknown, 'sellerId'>) => request.params.sellerId;

/** GET /restaurants/{sellerId}: public data (any caller for a public seller, spec 5.4). */
export async function getRestaurant(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const sellerId = sellerIdIn(request);
  const { seller, current } = await readWithSeller(restaurants, sellerId);
  await checkPublic(seller, sellerId, request.principal);
  return show(restaurants, found(restaurants, current, sellerId), request);
}

/**
 * GET /restaurants-overview/{sellerId} (v26, v33): the restaurant with the seller's live taxes in the
 * version's tax view and the seller's currency. It joins three records, so it has no ETag of its own.
 */
export async function getOverview(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const sellerId = sellerIdIn(request);
  const { seller, current } = await readWithSeller(restaurants, sellerId);
  await checkPublic(seller, sellerId, request.principal);
  const restaurant = found(restaurants, current, sellerId);
  const live = await readLive<TaxBody>(sellerStream(sellerId), entityPrefix(taxes.kind));
  return ok({
    ...present(restaurant, restaurants.view[request.version]),
    taxes: live.map((tax) => present(tax, taxes.view[request.version])),
    currency: seller.currency ?? null,
  });
}

/** PUT /restaurants/{sellerId}: 201 when it creates, 204 when it updates (docs/conventions.md §4). */
export const putRestaurant = (request: ApiRequest<Restaurant, 'sellerId'>): Promise<Reply> => putRecord(restaurants, request);

/** DELETE /restaurants/{sellerId} (v26, v33) */
export const deleteRestaurant = (request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> => deleteRecord(restaurants, request);

export const ORDER_FIELDS = ['corporateId', 'name', 'city', 'address', 'averageBill'] as const;

/**
 * GET /restaurants (v26, v33): the restaurants of public sellers, to every caller, with LIST
 * parameters; by seller id unless `orderBy` says otherwise, `like` on name, city and address.
 */
export async function listRestaurants(request: ApiRequest): Promise<Reply> {
  const query = listParams(request.query, ORDER_FIELDS);
  const entries = await readPartition(sellerKeys.restaurantDirectory);
  const ordered = pageOf(
    entries,
    { ...query, firstResult: 0, maxResults: entries.length },
    {
      searched: (entry) => [entry.name, entry.city, entry.address],
      field: (entry, field) => entry[field],
      tiebreak: (entry) => entry.sellerId,
    },
  );
  const shown = query.maxResults === 0 ? [] : await publicEntries(ordered, query.firstResult + query.maxResults);
  return ok(shown.slice(query.firstResult).map((entry) => present(entry, LIST_FIELDS)));
}

/**
 * The first `count` entries of `ordered` whose seller is public and not deleted now. The profiles
 * are read (BatchGets) in list order only as far as the page needs, so a seller that turned public
 * or private after its restaurant was written is listed as it is now, and pages stay exact.
 */
async function publicEntries(ordered: readonly RestaurantDirectoryEntry[], count: number): Promise<RestaurantDirectoryEntry[]> {
  const shown: RestaurantDirectoryEntry[] = [];
  let next = 0;
  while (shown.length < count && next < ordered.length) {
    const batch = ordered.slice(next, next + count - shown.length);
    next += batch.length;
    const profiles = await readItems(batch.map((entry) => sellerKeys.profile(entry.sellerId)));
    const open = new Set(
      profiles.filter((profile) => isSellerProfile(profile) && profile.publicAccess).map((profile) => profile.pk),
    );
    shown.push(...batch.filter((entry) => open.has(sellerPk(entry.sellerId))));
  }
  return shown;
}
