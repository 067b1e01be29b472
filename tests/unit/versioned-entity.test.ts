/**
 * The versioned-entity engine's decision (`decideEntityWrite`, `written`): what a catalog write commits, decided on
 * what was read, with the request's preconditions the catalog checks in the change (`withPreconditions`).
 */
import { describe, expect, it } from 'vitest';
import { categories, keyboardEntries, products, treasurers } from '#functions/catalog/entities.ts';
import { withPreconditions } from '#functions/catalog/entity.ts';
import type { CategoryBody, KeyboardEntryBody, ProductBody, TreasurerBody } from '#schemas/types.ts';
import type { Counter, Stored } from '#shared/db/streams.ts';
import { sellerStream } from '#shared/domain/seller.ts';
import { notFound } from '#shared/errors.ts';
import { preconditions } from '#shared/http/conditions.ts';
import { created, noContent } from '#shared/http/response.ts';
import type { Reply } from '#shared/http/types.ts';
import { type Change, decideEntityWrite, type EntityFields, type VersionedEntity, written } from '#shared/versioned/entity.ts';
import { refusal, stepOf, stepRefusal, storedAs } from '../support/decisions.ts';

const SELLER = 'SE5560360793';
const PK = `S#${SELLER}`;
const stream = sellerStream(SELLER);
const LIVE_COUNTER: Counter = { ver: 7, live: true };

/** PUT's change: the given data; 201 when new, 204 when it replaces. */
const replaceWith =
  <T>(data: T): Change<T, Reply> =>
  (current) => ({ data, result: current ? noContent() : created('E1') });

/** DELETE's change: a tombstone; 404 when there is nothing live. */
const removal =
  <T>(): Change<T, Reply> =>
  (current) => {
    if (!current) throw notFound('No such entity');
    return { data: null, result: noContent() };
  };

function decide<T extends EntityFields>(
  entity: VersionedEntity<T>,
  change: Change<T, Reply>,
  read: { entity?: Stored<T>; counter?: Counter | undefined },
  headers: Record<string, string> = {},
) {
  return decideEntityWrite(
    { entity, stream, identifier: 'E1', change: withPreconditions(preconditions(headers), change) },
    { counter: 'counter' in read ? read.counter : LIVE_COUNTER, entity: read.entity },
  );
}

const product = (tax: string): ProductBody => ({
  name: 'Kaffe',
  barcode: '7310000000001',
  netto: 2500,
  tax,
  salesUnit: 'Piece',
  countedInPrice: true,
});

const keyboardEntry = (keyboard: string, subKeyboard: string | null): KeyboardEntryBody => ({
  keyboard,
  subKeyboard,
  positionX: 0,
  positionY: 0,
  width: 1,
  height: 1,
  keyAction: 'SaleItemsView',
  label: 'Drycker',
});

const treasurer = (user: string | null): TreasurerBody => ({ name: 'Anna Kassör', user });

describe('decideEntityWrite: the stream', () => {
  it.each([
    ['never existed', undefined],
    ['belongs to a deleted seller', { ver: 9, live: false }],
  ])('a write to a stream that %s is 404 NotFound, whatever the entity', (_, counter) => {
    // Prepare
    const read = { counter, entity: storedAs(product('T1'), { sk: 'PRODUCT#E1' }) };

    // Act
    const refused = refusal(() => decide(products, replaceWith(product('T1')), read));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });
});

describe('decideEntityWrite: references', () => {
  it('a new product counts one reference on its tax, which must be live at commit', () => {
    // Act
    const decision = decide(products, replaceWith(product('T1')), {});

    // Assess
    expect(decision.result).toEqual({ status: 201, body: { identifier: 'E1' } });
    expect(decision.entity).toEqual({ ...product('T1'), identifier: 'E1', deleted: false });
    expect(decision.alongside?.map(stepOf)).toEqual([
      {
        op: 'Update',
        key: { pk: PK, sk: 'TAX#T1' },
        update: 'ADD refs :delta',
        condition: 'attribute_exists(pk) AND deleted = :false',
        values: { ':delta': 1, ':false': false },
        refuses: true,
      },
    ]);
    expect(stepRefusal(decision.alongside?.[0])).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: null,
    });
  });

  it('moving a product from tax A to tax B nets to -1 on A (which need only exist) and +1 on B', () => {
    // Prepare
    const current = storedAs(product('A'), { version: 4 });

    // Act
    const decision = decide(products, replaceWith(product('B')), { entity: current });

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.alongside?.map(stepOf)).toEqual([
      {
        op: 'Update',
        key: { pk: PK, sk: 'TAX#A' },
        update: 'ADD refs :delta',
        condition: 'attribute_exists(pk)',
        values: { ':delta': -1 },
        refuses: false,
      },
      {
        op: 'Update',
        key: { pk: PK, sk: 'TAX#B' },
        update: 'ADD refs :delta',
        condition: 'attribute_exists(pk) AND deleted = :false',
        values: { ':delta': 1, ':false': false },
        refuses: true,
      },
    ]);
  });

  it('an update that keeps its tax moves no reference', () => {
    // Prepare
    const current = storedAs(product('A'));

    // Act
    const decision = decide(products, replaceWith({ ...product('A'), netto: 3000 }), { entity: current });

    // Assess
    expect(decision.alongside).toEqual([]);
  });

  it('a keyboard entry naming one keyboard twice (keyboard and subKeyboard) counts it in one step of +2', () => {
    // Act
    const decision = decide(keyboardEntries, replaceWith(keyboardEntry('K1', 'K1')), {});

    // Assess
    expect(decision.alongside?.map(stepOf)).toEqual([
      expect.objectContaining({ key: { pk: PK, sk: 'KEYBOARD#K1' }, values: { ':delta': 2, ':false': false } }),
    ]);
  });

  it('dropping the subKeyboard of an entry whose keyboard is the same one nets to one step of -1', () => {
    // Prepare
    const current = storedAs(keyboardEntry('K1', 'K1'));

    // Act
    const decision = decide(keyboardEntries, replaceWith(keyboardEntry('K1', null)), { entity: current });

    // Assess
    expect(decision.alongside?.map(stepOf)).toEqual([
      expect.objectContaining({
        key: { pk: PK, sk: 'KEYBOARD#K1' },
        condition: 'attribute_exists(pk)',
        values: { ':delta': -1 },
      }),
    ]);
  });

  it('swapping keyboard and subKeyboard nets to no step at all', () => {
    // Prepare
    const current = storedAs(keyboardEntry('K1', 'K2'));

    // Act
    const decision = decide(keyboardEntries, replaceWith(keyboardEntry('K2', 'K1')), { entity: current });

    // Assess
    expect(decision.alongside).toEqual([]);
  });

  it('a delete writes a tombstone that keeps only its identifier, and releases the tax it named', () => {
    // Prepare
    const current = storedAs(product('T1'), { version: 5 });

    // Act
    const decision = decide(products, removal(), { entity: current });

    // Assess
    expect(decision.entity).toEqual({ identifier: 'E1', deleted: true });
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.alongside?.map(stepOf)).toEqual([
      expect.objectContaining({ key: { pk: PK, sk: 'TAX#T1' }, values: { ':delta': -1 }, refuses: false }),
    ]);
  });

  it('a delete of an entity others reference is 422 ENTITY_HAS_REFERENCED_DATA', () => {
    // Prepare
    const current = storedAs(product('T1'), { refs: 2 });

    // Act
    const refused = refusal(() => decide(products, removal(), { entity: current }));

    // Assess
    expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'ENTITY_HAS_REFERENCED_DATA' });
  });

  it('an update of an entity others reference goes through', () => {
    // Prepare
    const current = storedAs(product('T1'), { refs: 3 });

    // Act
    const decision = decide(products, replaceWith({ ...product('T1'), name: 'Te' }), { entity: current });

    // Assess
    expect(decision.entity).toMatchObject({ name: 'Te', deleted: false });
  });

  it('a tombstone is no current entity: the change sees none, and nothing is released for it', () => {
    // Prepare
    const tombstone = storedAs({ identifier: 'E1' } as ProductBody, { deleted: true, version: 6 });
    let seen: unknown = 'not called';

    // Act
    const decision = decide(
      products,
      (current) => {
        seen = current;
        return { data: product('T2'), result: created('T2') };
      },
      { entity: tombstone },
    );

    // Assess
    expect(seen).toBeUndefined();
    expect(decision.alongside?.map(stepOf)).toEqual([expect.objectContaining({ key: { pk: PK, sk: 'TAX#T2' } })]);
  });
});

describe('decideEntityWrite: unique values', () => {
  it('a treasurer joined to a user creates the holder of that user, refused when another holds it', () => {
    // Prepare
    const current = storedAs(treasurer(null));

    // Act
    const decision = decide(treasurers, replaceWith(treasurer('anna')), { entity: current });

    // Assess
    expect(decision.alongside?.map(stepOf)).toEqual([
      {
        op: 'Put',
        key: { pk: PK, sk: 'UNIQUE#TREASURER#user#anna' },
        condition: 'attribute_not_exists(pk)',
        item: { pk: PK, sk: 'UNIQUE#TREASURER#user#anna', holder: 'E1' },
        refuses: true,
      },
    ]);
    expect(stepRefusal(decision.alongside?.[0])).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: 'USER_HAS_TREASURER_WITH_SAME_SELLER_ID_ALREADY',
    });
  });

  it('an unchanged unique value writes no holder step', () => {
    // Prepare
    const current = storedAs(treasurer('anna'));

    // Act
    const decision = decide(treasurers, replaceWith({ ...treasurer('anna'), name: 'Anna B' }), { entity: current });

    // Assess
    expect(decision.alongside).toEqual([]);
  });

  it('a value moved from one user to another creates the new holder and removes the old one', () => {
    // Prepare
    const current = storedAs(treasurer('anna'));

    // Act
    const decision = decide(treasurers, replaceWith(treasurer('bert')), { entity: current });

    // Assess
    expect(decision.alongside?.map((step) => [stepOf(step).op, stepOf(step).key.sk])).toEqual([
      ['Put', 'UNIQUE#TREASURER#user#bert'],
      ['Delete', 'UNIQUE#TREASURER#user#anna'],
    ]);
  });

  it.each([
    ['a cleared value (disjoin)', replaceWith(treasurer(null))],
    ['a delete', removal<TreasurerBody>()],
  ])('%s frees the holder only', (_, change) => {
    // Prepare
    const current = storedAs(treasurer('anna'));

    // Act
    const decision = decide(treasurers, change, { entity: current });

    // Assess
    expect(decision.alongside?.map(stepOf)).toEqual([
      { op: 'Delete', key: { pk: PK, sk: 'UNIQUE#TREASURER#user#anna' }, refuses: false },
    ]);
  });
});

describe('decideEntityWrite: preconditions', () => {
  it.each([
    ['If-Match names another version', { 'if-match': '"3"' }],
    ['If-None-Match: * and the entity exists', { 'if-none-match': '*' }],
    ['If-None-Match names the current version', { 'if-none-match': '"4"' }],
  ])('%s: 409 VersionConflict', (_, headers) => {
    // Prepare
    const current = storedAs(product('T1'), { version: 4 });

    // Act
    const refused = refusal(() => decide(products, replaceWith(product('T1')), { entity: current }, headers));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });

  it('If-Match on an entity that does not exist is 409 VersionConflict', () => {
    // Act
    const refused = refusal(() => decide(products, replaceWith(product('T1')), {}, { 'if-match': '*' }));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });

  it('If-Match naming the current version among others lets the write through', () => {
    // Prepare
    const current = storedAs(product('T1'), { version: 4 });

    // Act
    const decision = decide(products, replaceWith(product('T1')), { entity: current }, { 'if-match': '"2", "4"' });

    // Assess
    expect(decision.result).toEqual({ status: 204 });
  });

  it("the change's own refusal comes first: DELETE of a missing entity with If-Match is 404, not 409", () => {
    // Act
    const refused = refusal(() => decide(products, removal(), {}, { 'if-match': '"1"' }));

    // Assess
    expect(refused.status).toBe(404);
  });

  it('a stale If-Match on a referenced entity is 409 before the 422 of its references', () => {
    // Prepare
    const current = storedAs(product('T1'), { version: 4, refs: 1 });

    // Act
    const refused = refusal(() => decide(products, removal(), { entity: current }, { 'if-match': '"3"' }));

    // Assess
    expect(refused.exception).toBe('VersionConflict');
  });
});

describe('written', () => {
  it('a write through v15 replaces its own fields and keeps the color v26 wrote', () => {
    // Prepare
    const current: CategoryBody = { identifier: 'C1', name: 'Drycker', color: 16711680 };

    // Act
    const data = written(categories, 15, { name: 'Mat' }, current);

    // Assess
    expect(data).toEqual({ name: 'Mat', color: 16711680 });
  });

  it("a treasurer's PUT never writes `user`: only joining sets it", () => {
    // Prepare
    const current = treasurer('anna');

    // Act
    const data = written(treasurers, 33, { name: 'Anna K', user: 'mallory' }, current);

    // Assess
    expect(data).toEqual({ name: 'Anna K', user: 'anna' });
  });

  it('a product given countedInPrice as text is stored as a boolean', () => {
    // Act
    const data = written<ProductBody>(products, 26, { ...product('T1'), countedInPrice: 'true' }, undefined);

    // Assess
    expect(data.countedInPrice).toBe(true);
  });
});
