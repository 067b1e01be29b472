import { readLive } from '#shared/db/streams.ts';
import type { CategoryBody, CommodityBody } from '#schemas/types.ts';
import { sellerStream } from './seller.ts';

/** The kinds under which a seller's categories and commodities (product-in-category links) are stored. */
export const CATEGORY = 'CATEGORY';
export const COMMODITY = 'COMMODITY';

/**
 * The names of the categories each product is in, through the seller's live commodities (a product in
 * two categories is in both). Empty when the seller uses no categories. Reads the catalog's two kinds,
 * never the sales.
 */
export async function productCategories(sellerId: string): Promise<Map<string, string[]>> {
  const stream = sellerStream(sellerId);
  const [commodities, categories] = await Promise.all([
    readLive<CommodityBody>(stream, `${COMMODITY}#`),
    readLive<CategoryBody>(stream, `${CATEGORY}#`),
  ]);
  const names = new Map(categories.map((category) => [category.identifier ?? '', category.name]));
  const inCategories = new Map<string, string[]>();
  for (const { product, category } of commodities) {
    const name = names.get(category);
    if (name === undefined) continue;
    inCategories.set(product, [...(inCategories.get(product) ?? []), name]);
  }
  return inCategories;
}
