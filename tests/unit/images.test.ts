/** The image write (`decideImageWrite`): the record and version item a PUT, POST or DELETE commits, decided on what was read. */
import { describe, expect, it } from 'vitest';
import {
  type Bytes,
  decideImageWrite,
  type ImageData,
  type ImageWrite,
  productImages,
  sellerImages,
  type Target,
} from '#functions/images/images.ts';
import type { Counter, Stored } from '#shared/db/streams.ts';
import { preconditions } from '#shared/http/conditions.ts';
import { refusal, stepOf, stepRefusal, storedAs } from '../support/decisions.ts';

const SELLER = 'SE5560360793';
const PK = `S#${SELLER}`;
const NOW = 1_714_000_000_000;
const LIVE: Counter = { ver: 7, live: true };
const bytes: Bytes = { object: `${SELLER}/0f8e`, contentType: 'image/png', size: 1234 };

const sellerTarget: Target = { sellerId: SELLER, owner: sellerImages, entityId: '', entityIdentifier: SELLER };
const productTarget: Target = { sellerId: SELLER, owner: productImages, entityId: 'P1', entityIdentifier: 'P1' };

const existing = (fields: { deleted?: boolean; version?: number } = {}): Stored<ImageData> =>
  storedAs({ filename: 'logo.png', entityIdentifier: SELLER, ...bytes }, { version: 5, ...fields });

function decide(
  write: Partial<ImageWrite> & Pick<ImageWrite, 'mode'>,
  read: { entity?: Stored<ImageData>; counter?: Counter } = {},
  headers: Record<string, string> = {},
) {
  return decideImageWrite(
    { target: sellerTarget, filename: 'logo.png', conditions: preconditions(headers), bytes, ...write },
    { counter: read.counter ?? LIVE, entity: read.entity, next: 8 },
    NOW,
  );
}

describe('decideImageWrite: PUT and POST', () => {
  it("a new seller image: 201 with the new version's ETag, the record with its bytes, and the version item", () => {
    // Act
    const decision = decide({ mode: 'put' });

    // Assess
    expect(decision.result).toEqual({ status: 201, headers: { ETag: '"8"' }, body: { identifier: 'logo.png' } });
    expect(decision.entity).toEqual({ filename: 'logo.png', entityIdentifier: SELLER, ...bytes, deleted: false });
    expect(decision.alongside?.map(stepOf)).toEqual([
      {
        op: 'Put',
        key: { pk: PK, sk: 'SELLER_IMAGE_VERSION#/logo.png#000000000000008' },
        item: { pk: PK, sk: 'SELLER_IMAGE_VERSION#/logo.png#000000000000008', ...bytes, version: 8, modified: NOW },
        refuses: false,
      },
    ]);
  });

  it('a PUT over a current image replaces it: 204 with the new ETag', () => {
    // Act
    const decision = decide({ mode: 'put' }, { entity: existing() });

    // Assess
    expect(decision.result).toEqual({ status: 204, headers: { ETag: '"8"' } });
  });

  it('a POST answers the file name it stored the image under', () => {
    // Act
    const decision = decide({ mode: 'create' });

    // Assess
    expect(decision.result).toEqual({ status: 201, headers: { ETag: '"8"' }, body: { identifier: 'logo.png' } });
  });

  it('a POST of a file name in use is 409 VersionConflict; one whose image was deleted is a new image', () => {
    // Act
    const refused = refusal(() => decide({ mode: 'create' }, { entity: existing() }));
    const decision = decide({ mode: 'create' }, { entity: existing({ deleted: true }) });

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
    expect(decision.result.status).toBe(201);
  });

  it("a product's image holds the product live at commit (else 404 ReferenceNotFound) and names the product", () => {
    // Act
    const decision = decide({ mode: 'put', target: productTarget });

    // Assess
    expect(decision.entity).toMatchObject({ entityIdentifier: 'P1' });
    const [ownerCheck, version] = decision.alongside ?? [];
    expect(ownerCheck && stepOf(ownerCheck)).toEqual({
      op: 'ConditionCheck',
      key: { pk: PK, sk: 'PRODUCT#P1' },
      condition: 'attribute_exists(pk) AND deleted = :false',
      values: { ':false': false },
      refuses: true,
    });
    expect(stepRefusal(ownerCheck)).toEqual({ status: 404, exception: 'ReferenceNotFound', code: null });
    expect(version && stepOf(version).key.sk).toBe('PRODUCT_IMAGE_VERSION#P1/logo.png#000000000000008');
  });

  it.each([
    ['If-Match of another version', { 'if-match': '"4"' }],
    ['If-None-Match: * (create only)', { 'if-none-match': '*' }],
  ])('%s on a current image is 409 VersionConflict', (_, headers) => {
    // Act
    const refused = refusal(() => decide({ mode: 'put' }, { entity: existing() }, headers));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });

  it("a write for a seller that is not live is 404 ReferenceNotFound: the seller is the images' owner", () => {
    // Act
    const refused = refusal(() => decide({ mode: 'put' }, { counter: { ver: 7, live: false } }));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'ReferenceNotFound', code: null });
  });
});

describe('decideImageWrite: DELETE', () => {
  it('leaves a tombstone without bytes; the version items stay for GET by version', () => {
    // Act
    const decision = decide({ mode: 'delete', bytes: undefined }, { entity: existing() });

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.entity).toEqual({ filename: 'logo.png', entityIdentifier: SELLER, deleted: true });
    expect(decision.alongside).toEqual([]);
  });

  it("a product image's delete still holds the product live", () => {
    // Act
    const decision = decide({ mode: 'delete', bytes: undefined, target: productTarget }, { entity: existing() });

    // Assess
    expect(decision.alongside?.map((step) => stepOf(step).op)).toEqual(['ConditionCheck']);
  });

  it.each([
    ['never stored', undefined],
    ['deleted already', existing({ deleted: true })],
  ])('an image %s is 404 NotFound', (_, entity) => {
    // Act
    const refused = refusal(() => decide({ mode: 'delete', bytes: undefined }, { entity }));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });

  it('a delete with a stale If-Match is 409 VersionConflict', () => {
    // Act
    const refused = refusal(() => decide({ mode: 'delete', bytes: undefined }, { entity: existing() }, { 'if-match': '"4"' }));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});
