import * as fields from '#schemas/generated/fields.js';
import * as validators from '#schemas/generated/validators.js';
import type { OrderBody } from '#schemas/types.ts';
import { access } from '#shared/auth/access.ts';
import { readItems } from '#shared/db/reads.ts';
import type { Stored } from '#shared/db/streams.ts';
import { nextNumber } from '#shared/db/transact.ts';
import { referenceNotFound, versionConflict } from '#shared/errors.ts';
import { requiredInt } from '#shared/http/query.ts';
import { ok } from '#shared/http/response.ts';
import { type Route, route } from '#shared/http/router.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { present } from '#shared/versions.ts';
import { productDetails } from './advanced.ts';
import type { VersionedEntity } from '#shared/versioned/entity.ts';
import { diffRoute, entityQuery, listCatalogEntities, readCatalogEntity, writeCatalogEntity } from './entity.ts';
import { sellerKeys } from '#shared/domain/seller.ts';

/** An order as stored: the body, the id the server gave it, and the catalog entity fields. */
type Order = OrderBody & { id?: number; identifier?: string | null; deleted?: boolean | null };

const V15 = [15] as const;

/**
 * Orders (v15): the server numbers them per seller (`id`), so the catalog entity's identifier is the
 * id as text. No PUT or DELETE exists; the diff follows docs/conventions.md §7 like every entity.
 */
export const orders: VersionedEntity<Order> = {
  plural: 'orders',
  kind: 'ORDER',
  versions: V15,
  body: { 15: validators.order },
  view: { 15: ['id', ...fields.order, 'deleted'], 26: [], 33: [] },
  orderFields: [],
  searched: ['treasurerName'],
};

/**
 * POST /{sellerId}/orders: every line's product must exist when the order is taken (404
 * ReferenceNotFound otherwise). Lines are a record of what was ordered: a product deleted later
 * does not change them, and the advanced view then shows that line's `productInfo` as null.
 */
async function createOrder(request: ApiRequest<OrderBody, 'sellerId'>): Promise<Reply> {
  const { sellerId } = request.params;
  const wanted = [...new Set(request.body.orderItems.map((item) => item.productIdentifier))];
  // The seller is live (the route's access rule); the order's writeEntity checks it again at commit.
  const found = await readItems(wanted.map((id) => sellerKeys.catalog<{ identifier: string }>(sellerId, 'PRODUCT', id)));
  const live = new Set(found.filter((item) => !item.deleted).map((item) => item.identifier));
  const missing = wanted.find((id) => !live.has(id));
  if (missing !== undefined) throw referenceNotFound(`productIdentifier ${missing} does not exist`);
  const id = await nextNumber(sellerKeys.sequence(sellerId, orders.kind));
  return writeCatalogEntity(orders, request, String(id), (current) => {
    if (current) throw versionConflict(`Order ${id} exists already`);
    return { data: { ...request.body, id }, result: { status: 201, body: { id } } };
  });
}

/** An order with each line's `productInfo` {product, tax} (null for a product deleted since). */
async function advancedOrders(request: ApiRequest<unknown, 'sellerId'>, page: readonly Stored<Order>[]): Promise<unknown[]> {
  const details = await productDetails(
    request.params.sellerId,
    page.flatMap((item) => item.orderItems.map((line) => line.productIdentifier)),
    request.version,
    false,
  );
  return page.map((item) => ({
    ...present(item, orders.view[request.version]),
    orderItems: item.orderItems.map((line) => {
      const info = details.get(line.productIdentifier);
      return {
        ...present(line, ['productIdentifier', 'productCustomization', 'delta', 'deltaUnit']),
        productInfo: info ? { product: info.product, tax: info.tax } : null,
      };
    }),
  }));
}

const common = { versions: V15, access: access.seller } as const;

export const orderRoutes: Route[] = [
  route({
    summary: 'Takes an order',
    description:
      "Records an order (v15): the treasurer and its lines, each a product of the catalog, a customization and a quantity (or an amount where the line is not counted in units). The service numbers the seller's orders and answers the order's number; a line naming a product that does not exist is 404 ReferenceNotFound. The order moves the seller's version.",
    ...common,
    method: 'POST',
    path: '/{sellerId}/orders',
    body: orders.body,
    responses: { 201: 'idResult' },
    errors: [['ReferenceNotFound'], ['VersionConflict']],
    handle: createOrder,
  }),
  diffRoute(orders, {
    one: 'order',
    many: 'orders',
    what: 'An order (v15) is what a treasurer took for a table: its lines, each a product and a quantity or amount.',
  }),
  route({
    summary: 'Lists the orders with their products',
    description:
      "The seller's orders, a page at a time, each line with its product and that product's tax (null for a product deleted since the order was taken).",
    ...common,
    method: 'GET',
    path: '/{sellerId}/orders/advanced',
    query: entityQuery(orders),
    responses: { 200: { list: 'orderAdvanced' } },
    handle: async (request) => ok(await advancedOrders(request, await listCatalogEntities(orders, request))),
  }),
  route({
    summary: 'Reads an order with its products',
    description:
      "One order by its number, each line with its product and that product's tax (null for a product deleted since), with its version as ETag.",
    ...common,
    method: 'GET',
    path: '/{sellerId}/orders/{orderId}/advanced',
    conditional: 'read',
    responses: { 200: 'orderAdvanced' },
    errors: [['NotFound']],
    handle: (request) =>
      readCatalogEntity(orders, request, String(requiredInt('orderId', request.params.orderId)), async (stored) => {
        const [shown] = await advancedOrders(request, [stored]);
        return shown;
      }),
  }),
];
