import { access } from '#shared/auth/access.ts';
import { checkRange, countDiff } from '#shared/db/streams.ts';
import { taxes } from '#shared/domain/taxes.ts';
import { intParam, notNegative, queryParam, requiredInt } from '#shared/http/query.ts';
import { ok } from '#shared/http/response.ts';
import { DIFF_REFUSALS, type Route, route } from '#shared/http/router.ts';
import { SINCE_26 } from '#shared/versions.ts';
import { bookings, categories, commodities, precepts, products, treasurers } from './entities.ts';
import { catalogOf } from './entity.ts';

/**
 * What `/modifications` reports on, as v26/v33 name it: each name is the prefix of its diff endpoint
 * (`seller` is the profile, read with GET /sellers/{sellerId}); the images are `functions/images`.
 */
const STREAM_KINDS = [
  { entity: 'seller', kind: 'SELLER' },
  ...[taxes, categories, products, commodities, precepts, bookings, treasurers].map(({ plural, kind }) => ({
    entity: plural,
    kind,
  })),
  { entity: 'seller-images', kind: 'SELLER_IMAGE' },
  { entity: 'category-images', kind: 'CATEGORY_IMAGE' },
  { entity: 'product-images', kind: 'PRODUCT_IMAGE' },
] as const;

/**
 * GET /{sellerId}/modifications?from&to (spec 4.4): which kinds changed in (from, to] and how many
 * entities of each, so a register calls only the diffs it needs. `to` defaults to the current version.
 * A `from` older than the kept tombstones is 410 OutdatedVersion: the register must resync fully.
 */
export const modificationsRoute: Route = route({
  summary: "Tells which of the seller's data changed since a version",
  description:
    "For each kind of the seller's data (taxes, categories, products, ..., images) that changed after `from` up to `to` " +
    "(the seller's current version by default), how many entities changed: a register syncing offline then reads only " +
    'those diffs. A `from` older than the deletions kept is 410 OutdatedVersion: the register reads everything again.',
  versions: SINCE_26,
  access: access.seller,
  method: 'GET',
  path: '/{sellerId}/modifications',
  feature: 'SYNCHRONIZATION',
  query: [
    queryParam('from', { type: 'integer', minimum: 0 }, 'The version the register has.', true),
    queryParam('to', { type: 'integer', minimum: 0 }, "The version to compare with; the seller's current one by default."),
  ],
  responses: { 200: 'modifications' },
  errors: DIFF_REFUSALS,
  handle: async (request) => {
    const stream = catalogOf(request);
    const from = notNegative('from', requiredInt('from', request.query.get('from')));
    const given = intParam('to', request.query.get('to'));
    const counter = request.sellerCounter;
    const to = given === undefined ? counter.ver : notNegative('to', given);
    checkRange(from, to, counter);
    const counts = await Promise.all(
      STREAM_KINDS.map(async ({ entity, kind }) => ({ entity, ...(await countDiff(stream, kind, from, to)) })),
    );
    return ok({
      from,
      to,
      version: counter.ver,
      modifications: counts.filter(({ changed }) => changed > 0),
    });
  },
});
