import type { CategoryBody, CommodityBody, ProductBody, TaxBody } from '#schemas/types.ts';
import { access } from '#shared/auth/access.ts';
import { readItems } from '#shared/db/reads.ts';
import { readLive, type Stored } from '#shared/db/streams.ts';
import { sellerStream, imagesPrefix, sellerKeys } from '#shared/domain/seller.ts';
import { ok } from '#shared/http/response.ts';
import { type Route, route } from '#shared/http/router.ts';
import type { ApiRequest } from '#shared/http/types.ts';
import { type ApiVersion, present, SINCE_26 } from '#shared/versions.ts';
import { taxes } from '#shared/domain/taxes.ts';
import { categories, commodities, products } from './entities.ts';
import { entityQuery, listCatalogEntities } from './entity.ts';

/** A product as advanced views show it: the product, its tax and the file names of its images. */
export interface ProductDetails {
  product: Record<string, unknown>;
  tax: Record<string, unknown> | null;
  images: string[];
}

const unique = (values: readonly (string | null | undefined)[]) => [
  ...new Set(values.filter((value): value is string => typeof value === 'string')),
];

/** Live entities of a kind by identifier, in one BatchGet per 100. */
async function liveEntities<T>(sellerId: string, kind: string, identifiers: readonly string[]): Promise<Map<string, Stored<T>>> {
  const found = await readItems(identifiers.map((id) => sellerKeys.catalog<T & { identifier: string }>(sellerId, kind, id)));
  return new Map(found.filter((item) => !item.deleted).map((item) => [item.identifier, item]));
}

/** The file names of each product's current images (`functions/images`), one Query per product, in parallel. */
async function productImages(sellerId: string, productIds: readonly string[]): Promise<Map<string, string[]>> {
  const lists = await Promise.all(
    productIds.map(async (id) => {
      const records = await readLive<{ filename: string }>(sellerStream(sellerId), imagesPrefix('PRODUCT_IMAGE', id));
      return [id, records.map((record) => record.filename)] as const;
    }),
  );
  return new Map(lists);
}

/**
 * The details of the named products in one version's views: a BatchGet of the products, one of
 * their taxes and, when asked, their images. A product deleted since it was named is left out.
 */
export async function productDetails(
  sellerId: string,
  productIds: readonly (string | null | undefined)[],
  version: ApiVersion,
  withImages: boolean,
): Promise<Map<string, ProductDetails>> {
  const ids = unique(productIds);
  const found = await liveEntities<ProductBody>(sellerId, products.kind, ids);
  const [taxesFound, images] = await Promise.all([
    liveEntities<TaxBody>(sellerId, taxes.kind, unique([...found.values()].map((product) => product.tax))),
    withImages ? productImages(sellerId, [...found.keys()]) : new Map<string, string[]>(),
  ]);
  return new Map(
    [...found].map(([id, product]) => {
      const tax = taxesFound.get(product.tax);
      return [
        id,
        {
          product: present(product, products.view[version]),
          tax: tax ? present(tax, taxes.view[version]) : null,
          images: images.get(id) ?? [],
        },
      ];
    }),
  );
}

/**
 * Commodities with their product and category (spec 2.3 advanced view): v15 puts the full product
 * in `product`; v26/v33 give `productAdvancedInfo` {product, tax, images}. One page of commodities,
 * then one BatchGet of its products and categories, one of the taxes, and one Query per product's images.
 */
async function commoditiesAdvanced(request: ApiRequest<unknown, 'sellerId'>): Promise<unknown[]> {
  const { sellerId } = request.params;
  const { version } = request;
  const page = await listCatalogEntities<CommodityBody>(commodities, request);
  const [details, categoriesFound] = await Promise.all([
    productDetails(
      sellerId,
      page.map((item) => item.product),
      version,
      version !== 15,
    ),
    liveEntities<CategoryBody>(sellerId, categories.kind, unique(page.map((item) => item.category))),
  ]);
  return page.map((item) => {
    const product = details.get(item.product);
    const category = categoriesFound.get(item.category);
    return {
      ...present(item, commodities.view[version]),
      ...(version === 15
        ? { product: product?.product ?? null }
        : { productAdvancedInfo: product ? { product: product.product, tax: product.tax, images: product.images } : null }),
      categoryInfo: category ? present(category, categories.view[version]) : null,
    };
  });
}

const advanced = (versions: readonly ApiVersion[], path: `/{sellerId}/${string}`): Route =>
  route({
    summary: 'Lists the commodities with their products and categories',
    description:
      "The seller's commodities by the list parameters, each with its product (and, from v26, the product's tax and " +
      'image file names) and its category, so a register builds its screen in one read.',
    versions,
    access: access.seller,
    method: 'GET',
    path,
    query: entityQuery(commodities),
    responses: {
      200: { 15: { list: 'commodityAdvancedV15' }, 26: { list: 'commodityAdvanced' }, 33: { list: 'commodityAdvanced' } },
    },
    handle: async (request) => ok(await commoditiesAdvanced(request)),
  });

export const commodityAdvancedRoutes: Route[] = [
  advanced([15], '/{sellerId}/commodities/advanced'),
  advanced(SINCE_26, '/{sellerId}/commodities-advanced'),
];
