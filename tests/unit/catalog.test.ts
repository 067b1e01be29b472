/** The changes catalog endpoints make of an entity (POST, PUT, DELETE, joining a treasurer), decided on its live state. */
import { describe, expect, it } from 'vitest';
import { products, treasurers } from '#functions/catalog/entities.ts';
import { entityCreation, entityDeletion, entityReplacement } from '#functions/catalog/entity.ts';
import { treasurerUserChange } from '#functions/catalog/treasurers.ts';
import type { ProductBody, TreasurerBody } from '#schemas/types.ts';
import { sellerStream } from '#shared/domain/seller.ts';
import { decideEntityWrite } from '#shared/versioned/entity.ts';
import { refusal, requestOf, stepOf, storedAs } from '../support/decisions.ts';

const product: ProductBody = {
  name: 'Kaffe',
  barcode: '7310000000001',
  netto: 2500,
  tax: 'T1',
  salesUnit: 'Piece',
  countedInPrice: true,
};

const request = <B>(body: B) => requestOf(body);

describe('entityCreation (POST)', () => {
  it('a new entity answers 201 with its identifier', () => {
    // Act
    const change = entityCreation(products, request(product), 'P1')(undefined);

    // Assess
    // A product that names no articleType is goods.
    expect(change).toEqual({ data: { ...product, articleType: 'GOODS' }, result: { status: 201, body: { identifier: 'P1' } } });
  });

  it('an identifier in use is 409 VersionConflict', () => {
    // Act
    const refused = refusal(() => entityCreation(products, request(product), 'P1')(storedAs(product)));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});

describe('entityReplacement (PUT)', () => {
  it('creates (201 with its identifier) or replaces (204)', () => {
    // Act
    const created = entityReplacement(products, request(product), 'P1')(undefined);
    const replaced = entityReplacement(products, request({ ...product, netto: 3000 }), 'P1')(storedAs(product));

    // Assess
    expect(created.result).toEqual({ status: 201, body: { identifier: 'P1' } });
    expect(replaced.result).toEqual({ status: 204 });
    expect(replaced.data).toMatchObject({ netto: 3000 });
  });
});

describe('entityDeletion (DELETE)', () => {
  it('a live entity becomes a tombstone (204)', () => {
    // Act
    const change = entityDeletion(products, 'P1')(storedAs(product));

    // Assess
    expect(change).toEqual({ data: null, result: { status: 204 } });
  });

  it('an entity that is not live is 404 NotFound', () => {
    // Act
    const refused = refusal(() => entityDeletion(products, 'P1')(undefined));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });
});

describe('treasurerUserChange', () => {
  const treasurer = (user: string | null) => storedAs<TreasurerBody>({ name: 'Anna Kassör', user });

  it('joins a user to a free treasurer, and disjoins it again', () => {
    // Act
    const joined = treasurerUserChange('T1', 'anna')(treasurer(null));
    const disjoined = treasurerUserChange('T1', null)(treasurer('anna'));

    // Assess
    expect(joined.data).toMatchObject({ name: 'Anna Kassör', user: 'anna' });
    expect(disjoined.data).toMatchObject({ user: null });
    expect([joined.result, disjoined.result]).toEqual([{ status: 204 }, { status: 204 }]);
  });

  it.each([
    ['a join to a treasurer that has a user', 'bert', 'anna', 'TREASURER_IS_JOINED_TO_USER_ALREADY'],
    ['a disjoin of a treasurer that has none', null, null, 'TREASURER_IS_NOT_JOINED_TO_USER'],
  ])('%s is 404 ReferenceNotFound %s', (_, username, holder, code) => {
    // Act
    const refused = refusal(() => treasurerUserChange('T1', username)(treasurer(holder)));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'ReferenceNotFound', code });
  });

  it('a treasurer that does not exist is 404 NotFound', () => {
    // Act
    const refused = refusal(() => treasurerUserChange('T1', 'anna')(undefined));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });

  it('a join written by the engine claims the user for this treasurer in the same transaction', () => {
    // Prepare
    const stream = sellerStream('SE5560360793');

    // Act
    const decision = decideEntityWrite(
      { entity: treasurers, stream, identifier: 'T1', change: treasurerUserChange('T1', 'anna') },
      { counter: { ver: 3, live: true }, entity: treasurer(null) },
    );

    // Assess
    expect(decision.alongside?.map(stepOf)).toEqual([
      expect.objectContaining({ op: 'Put', key: { pk: 'S#SE5560360793', sk: 'UNIQUE#TREASURER#user#anna' } }),
    ]);
  });
});
