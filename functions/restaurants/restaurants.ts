import type { Seller } from '#functions/sellers/sellers.ts';
import { restaurant, restaurantV15 } from '#schemas/restaurant.ts';
import { tax as taxSchema } from '#schemas/tax.ts';
import type { RestaurantBody, TaxBody } from '#schemas/types.ts';
import { fieldsOf } from '#schemas/views.ts';
import { table } from '#shared/db/client.ts';
import { keys, sellerPk } from '#shared/db/keys.ts';
import { pageOf } from '#shared/db/paging.ts';
import { put } from '#shared/db/transact.ts';
import { readCollection, readItems, readPartition } from '#shared/db/versioned.ts';
import { listParams } from '#shared/http/query.ts';
import { ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { present } from '#shared/versions.ts';
import { checkPublic, deleteRecord, found, putRecord, readWithSeller, type SellerRecord, show } from './records.ts';

/**
 * The canonical restaurant: v26 and v33 have every field, v15 all but `workHoursWeek`. v15 does not
 * require `averageBill`, so a restaurant written through it may have none.
 */
export type Restaurant = Omit<RestaurantBody, 'averageBill'> & { averageBill?: number | null };

/** What the list shows of a restaurant (spec 2.3), plus `country` so a client can build the seller id (pin 9). */
interface ListItem {
  country: string;
  corporateId: string;
  name: string | null;
  description: string | null;
  city: string | null;
  address: string | null;
  averageBill: number | null;
  /** The first of the restaurant's images: the picture a list shows. */
  logo: string | null;
  custom: string | null;
}

/** An entry of the RESTAURANTS directory, written in the restaurant's transaction: a list is one Query. */
interface DirectoryEntry extends ListItem {
  sellerId: string;
}

const directoryEntry = (sellerId: string, restaurant: Restaurant): DirectoryEntry => ({
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
  key: keys.restaurant,
  view: { 15: fieldsOf(restaurantV15), 26: fieldsOf(restaurant), 33: fieldsOf(restaurant) },
  alongside: (sellerId, written) => [
    written
      ? put({ ...keys.restaurantDirectory(sellerId), ...directoryEntry(sellerId, written) })
      : { write: { Delete: { TableName: table(), Key: keys.restaurantDirectory(sellerId) } } },
  ],
};

const sellerIdIn = (request: ApiRequest) => request.params.sellerId ?? '';

/** GET /restaurants/{sellerId}: public data (any caller for a public seller, spec 5.4). */
export async function getRestaurant(request: ApiRequest): Promise<Reply> {
  const sellerId = sellerIdIn(request);
  const { seller, current } = await readWithSeller(restaurants, sellerId);
  await checkPublic(seller, sellerId, request.principal);
  return show(restaurants, found(restaurants, current, sellerId), request);
}

/**
 * The seller's taxes as the catalog shows them (`taxes` in functions/catalog/entities.ts: the schema's fields,
 * one shape in every version). Not imported from there: the catalog's definitions would bring every catalog
 * validator (~90 KiB) into this function's Init (scripts/bench/budget.json).
 */
const TAX_KIND = 'TAX';
const taxView = fieldsOf(taxSchema);

/**
 * GET /restaurants-overview/{sellerId} (v26, v33): the restaurant with the seller's live taxes in the
 * version's tax view and the seller's currency. It joins three records, so it has no ETag of its own.
 */
export async function getOverview(request: ApiRequest): Promise<Reply> {
  const sellerId = sellerIdIn(request);
  const { seller, current } = await readWithSeller(restaurants, sellerId);
  await checkPublic(seller, sellerId, request.principal);
  const restaurant = found(restaurants, current, sellerId);
  const live = await readCollection<TaxBody>(sellerPk(sellerId), `${TAX_KIND}#`);
  return ok({
    ...present(restaurant, restaurants.view[request.version]),
    taxes: live.map((tax) => present(tax, taxView)),
    currency: seller.currency ?? null,
  });
}

/** PUT /restaurants/{sellerId}: 201 when it creates, 204 when it updates (pin 4). */
export const putRestaurant = (request: ApiRequest<Restaurant>): Promise<Reply> => putRecord(restaurants, request);

/** DELETE /restaurants/{sellerId} (v26, v33) */
export const deleteRestaurant = (request: ApiRequest): Promise<Reply> => deleteRecord(restaurants, request);

const ORDER_FIELDS = ['corporateId', 'name', 'city', 'address', 'averageBill'] as const;

/**
 * GET /restaurants (v26, v33): the restaurants of public sellers, to every caller, with LIST
 * parameters; by seller id unless `orderBy` says otherwise, `like` on name, city and address.
 */
export async function listRestaurants(request: ApiRequest): Promise<Reply> {
  const query = listParams(request.query, ORDER_FIELDS);
  const entries = await readPartition<DirectoryEntry>(keys.restaurantDirectory('').pk);
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
async function publicEntries(ordered: readonly DirectoryEntry[], count: number): Promise<DirectoryEntry[]> {
  const shown: DirectoryEntry[] = [];
  let next = 0;
  while (shown.length < count && next < ordered.length) {
    const batch = ordered.slice(next, next + count - shown.length);
    next += batch.length;
    const profiles = await readItems<Seller>(batch.map((entry) => keys.sellerProfile(entry.sellerId)));
    const open = new Set(profiles.filter((profile) => !profile.deleted && profile.publicAccess).map((profile) => profile.pk));
    shown.push(...batch.filter((entry) => open.has(sellerPk(entry.sellerId))));
  }
  return shown;
}
