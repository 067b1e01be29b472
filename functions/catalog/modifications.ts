import { access } from '#shared/auth/access.ts';
import { keys, sellerPk } from '#shared/db/keys.ts';
import { checkRange, countDiff, readCounter } from '#shared/db/versioned.ts';
import { notFound } from '#shared/errors.ts';
import { intParam, notNegative, requiredInt } from '#shared/http/query.ts';
import { ok } from '#shared/http/response.ts';
import { type Route, route } from '#shared/http/router.ts';
import { SINCE_26 } from '#shared/versions.ts';
import { bookings, categories, commodities, precepts, products, taxes, treasurers } from './entities.ts';

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
  versions: SINCE_26,
  access: access.seller,
  method: 'GET',
  path: '/{sellerId}/modifications',
  feature: 'SYNCHRONIZATION',
  handle: async (request) => {
    const { sellerId = '' } = request.params;
    const from = notNegative('from', requiredInt('from', request.query.get('from')));
    const given = intParam('to', request.query.get('to'));
    const counter = await readCounter(keys.sellerCounter(sellerId));
    if (!counter?.live) throw notFound(`Seller ${sellerId} does not exist`);
    const to = given === undefined ? counter.ver : notNegative('to', given);
    checkRange(from, to, counter);
    const counts = await Promise.all(
      STREAM_KINDS.map(async ({ entity, kind }) => ({ entity, ...(await countDiff(sellerPk(sellerId), kind, from, to)) })),
    );
    return ok({
      from,
      to,
      version: counter.ver,
      modifications: counts.filter(({ changed }) => changed > 0),
    });
  },
});
