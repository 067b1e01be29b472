/** The seller write (`decideSellerWrite`): create, update and delete decided on the profile as read (spec 4.4). */
import { describe, expect, it } from 'vitest';
import { decideSellerWrite, type SellerWrite } from '#functions/sellers/sellers.ts';
import type { SellerV15Body, SellerV33Body } from '#schemas/types.ts';
import type { Principal } from '#shared/auth/principal.ts';
import type { Seller } from '#shared/domain/seller.ts';
import { preconditions } from '#shared/http/conditions.ts';
import { refusal, stepOf, storedAs } from '../support/decisions.ts';

const SELLER = 'SE5560360793';
const hyperAdmin: Principal = { kind: 'user', username: 'admin', role: 'HYPER_ADMIN', softwareVendor: null, sellers: [] };
const vendorUser: Principal = { kind: 'user', username: 'vendor', role: 'SOFTWARE_VENDOR', softwareVendor: 4, sellers: [] };
const regularUser: Principal = { kind: 'user', username: 'anna', role: 'REGULAR_USER', softwareVendor: null, sellers: [SELLER] };

const v33Seller: SellerV33Body = {
  country: 'SE',
  corporateId: '5560360793',
  name: 'Kaffebaren AB',
  publicAccess: true,
  workHoursWeek: { MONDAY: { openTime: 8, closeTime: 17 } },
  city: 'Lund',
  address: 'Storgatan 1',
  zip: '22100',
};

const stored = (seller: Seller = v33Seller, stamp: { version?: number; deleted?: boolean } = {}) =>
  storedAs(seller, { pk: `S#${SELLER}`, sk: '#PROFILE', version: 3, ...stamp });

function decide(write: Partial<SellerWrite> & Pick<SellerWrite, 'change'>, current?: ReturnType<typeof stored>, headers = {}) {
  return decideSellerWrite(
    { sellerId: SELLER, version: 33, principal: hyperAdmin, conditions: preconditions(headers), ...write },
    current,
  );
}

describe('decideSellerWrite: create and update', () => {
  it('the hyper admin creates a seller: 201, the stream goes live, the directory gets its entry', () => {
    // Act
    const decision = decide({ change: { mode: 'create', body: v33Seller } });

    // Assess
    expect(decision.result).toEqual({ status: 201, body: { identifier: 'SE5560360793' } });
    expect(decision.live).toBe(true);
    expect(decision.entity).toEqual({ ...v33Seller, deleted: false });
    expect(decision.alongside?.map(stepOf)).toEqual([
      {
        op: 'Put',
        key: { pk: 'SELLERS', sk: SELLER },
        item: { pk: 'SELLERS', sk: SELLER, sellerId: SELLER, country: 'SE', corporateId: '5560360793', name: 'Kaffebaren AB' },
        refuses: false,
      },
    ]);
  });

  it('POST of a seller that exists is 409 VersionConflict', () => {
    // Act
    const refused = refusal(() => decide({ change: { mode: 'create', body: v33Seller } }, stored()));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });

  it('a deleted seller can be created again', () => {
    // Prepare
    const tombstone = stored(
      { country: 'SE', corporateId: '5560360793', publicAccess: false, workHoursWeek: {} },
      { deleted: true },
    );

    // Act
    const decision = decide({ change: { mode: 'create', body: v33Seller } }, tombstone);

    // Assess
    expect(decision.result.status).toBe(201);
    expect(decision.live).toBe(true);
  });

  it.each([
    ['a software-vendor user', vendorUser],
    ['a user of the seller', regularUser],
  ])('a PUT that would create the seller is 403 for %s', (_, principal) => {
    // Act
    const refused = refusal(() => decide({ principal, change: { mode: 'put', body: v33Seller } }));

    // Assess
    expect(refused).toEqual({ status: 403, exception: 'Forbidden', code: 'INSUFFICIENT_ACCESS_RIGHTS' });
  });

  it('a user of the seller updates it: 204, and the directory entry follows the new name', () => {
    // Act
    const decision = decide(
      { principal: regularUser, change: { mode: 'put', body: { ...v33Seller, name: 'Tebaren AB' } } },
      stored(),
    );

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.entity).toMatchObject({ name: 'Tebaren AB', deleted: false });
    expect(decision.alongside?.map(stepOf)[0]?.item).toMatchObject({ name: 'Tebaren AB' });
  });

  it('a v15 update keeps the fields only later versions have and clears its own the body leaves out', () => {
    // Prepare
    const body: SellerV15Body = { country: 'SE', corporateId: '5560360793', name: 'Kaffebaren', publicAccess: false };

    // Act
    const decision = decide({ version: 15, change: { mode: 'put', body } }, stored());

    // Assess
    expect(decision.entity).toMatchObject({
      ...body,
      workHoursWeek: v33Seller.workHoursWeek,
      address: 'Storgatan 1',
      zip: '22100',
      deleted: false,
    });
    expect(decision.entity).not.toHaveProperty('city');
  });

  it("a v33 update clears the version's fields its body leaves out", () => {
    // Act
    const decision = decide({ change: { mode: 'put', body: { ...v33Seller, city: null, zip: undefined } } }, stored());

    // Assess
    expect(decision.entity).not.toHaveProperty('city');
    expect(decision.entity).not.toHaveProperty('zip');
  });

  it('a seller without a name has a directory entry with a null name', () => {
    // Act
    const decision = decide({ change: { mode: 'put', body: { ...v33Seller, name: null } } });

    // Assess
    expect(decision.alongside?.map(stepOf)[0]?.item).toMatchObject({ name: null });
  });

  it.each([
    ['If-None-Match: * on an existing seller', { 'if-none-match': '*' }, true],
    ['If-Match of another version', { 'if-match': '"2"' }, true],
    ['If-Match on a seller that does not exist', { 'if-match': '*' }, false],
  ])('%s is 409 VersionConflict', (_, headers, exists) => {
    // Act
    const refused = refusal(() => decide({ change: { mode: 'put', body: v33Seller } }, exists ? stored() : undefined, headers));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});

describe('decideSellerWrite: delete', () => {
  it('leaves a tombstone with the identity only, takes the stream down and the directory entry away', () => {
    // Act
    const decision = decide({ change: { mode: 'delete' } }, stored());

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.entity).toEqual({ country: 'SE', corporateId: '5560360793', deleted: true });
    expect(decision.live).toBe(false);
    expect(decision.alongside?.map(stepOf)).toEqual([{ op: 'Delete', key: { pk: 'SELLERS', sk: SELLER }, refuses: false }]);
  });

  it.each([
    ['never existed', undefined],
    ['was deleted already', stored(v33Seller, { deleted: true })],
  ])('a seller that %s is 404 NotFound', (_, current) => {
    // Act
    const refused = refusal(() => decide({ change: { mode: 'delete' } }, current));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });

  it('a delete with a stale If-Match is 409 VersionConflict', () => {
    // Act
    const refused = refusal(() => decide({ change: { mode: 'delete' } }, stored(), { 'if-match': '"2"' }));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});
