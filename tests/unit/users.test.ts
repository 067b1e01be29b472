/** Who manages which user, where a write places it, and what a change commits (docs/decisions.md, "Users and roles"). */
import { describe, expect, it } from 'vitest';
import { manages, placement, sameUsername } from '#functions/users/rules.ts';
import type { UserPrincipal } from '#shared/auth/access.ts';
import { type UserRecord, userUpdateSteps } from '#shared/auth/users.ts';
import { refusal, stepOf, stepRefusal } from '../support/decisions.ts';

const hyperAdmin: UserPrincipal = { kind: 'user', username: 'admin', role: 'HYPER_ADMIN', softwareVendor: null, sellers: [] };
const vendor4: UserPrincipal = { kind: 'user', username: 'v4', role: 'SOFTWARE_VENDOR', softwareVendor: 4, sellers: [] };
const regular: UserPrincipal = { kind: 'user', username: 'anna', role: 'REGULAR_USER', softwareVendor: 4, sellers: [] };

const user = (fields: Partial<UserRecord> = {}): UserRecord => ({
  username: 'bert',
  email: 'bert@example.com',
  role: 'REGULAR_USER',
  softwareVendor: 4,
  passwordHash: 'hash',
  sellers: [],
  revision: 3,
  ...fields,
});

const FORBIDDEN = { status: 403, exception: 'Forbidden', code: 'INSUFFICIENT_ACCESS_RIGHTS' };

describe('manages', () => {
  it.each([
    ['the hyper admin, any user', hyperAdmin, user({ role: 'HYPER_ADMIN', softwareVendor: null }), true],
    ["a vendor user, its vendor's users", vendor4, user(), true],
    ["a vendor user, not another vendor's users", vendor4, user({ softwareVendor: 5 }), false],
    ['a vendor user, not a hyper admin', vendor4, user({ role: 'HYPER_ADMIN', softwareVendor: 4 }), false],
    ['a regular user, nobody', regular, user(), false],
  ] as const)('%s', (_, caller, target, expected) => {
    // Act and Assess
    expect(manages(caller, target)).toBe(expected);
  });
});

describe('placement', () => {
  it('the hyper admin places a user with any vendor; a hyper admin gets none', () => {
    // Act and Assess
    expect(placement(hyperAdmin, undefined, 'SOFTWARE_VENDOR', 9)).toEqual({ role: 'SOFTWARE_VENDOR', softwareVendor: 9 });
    expect(placement(hyperAdmin, undefined, 'HYPER_ADMIN', 9)).toEqual({ role: 'HYPER_ADMIN', softwareVendor: null });
  });

  it('a software-vendor user without a vendor is 422 SOFTWARE_VENDOR_IS_MISSING', () => {
    // Act
    const refused = refusal(() => placement(hyperAdmin, undefined, 'SOFTWARE_VENDOR', null));

    // Assess
    expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'SOFTWARE_VENDOR_IS_MISSING' });
  });

  it("a vendor user's users belong to its vendor, named or not", () => {
    // Act and Assess
    expect(placement(vendor4, undefined, 'REGULAR_USER', null)).toEqual({ role: 'REGULAR_USER', softwareVendor: 4 });
    expect(placement(vendor4, undefined, 'SOFTWARE_VENDOR', 4)).toEqual({ role: 'SOFTWARE_VENDOR', softwareVendor: 4 });
  });

  it.each([
    ['makes a hyper admin', vendor4, 'HYPER_ADMIN', null],
    ['places a user with another vendor', vendor4, 'REGULAR_USER', 5],
    ['is a regular user', regular, 'REGULAR_USER', null],
  ] as const)('403 when the caller %s', (_, caller, role, softwareVendor) => {
    // Act
    const refused = refusal(() => placement(caller, undefined, role, softwareVendor));

    // Assess
    expect(refused).toEqual(FORBIDDEN);
  });

  it('anyone may write itself with its own role; a vendor it leaves out stays its own', () => {
    // Prepare
    const self = user({ username: 'anna' });

    // Act
    const placed = placement(regular, self, 'REGULAR_USER', null);

    // Assess
    expect(placed).toEqual({ role: 'REGULAR_USER', softwareVendor: 4 });
  });

  it.each([
    [
      'the hyper admin demoting itself',
      hyperAdmin,
      user({ username: 'admin', role: 'HYPER_ADMIN', softwareVendor: null }),
      'REGULAR_USER',
      4,
    ],
    ['a vendor user promoting itself', vendor4, user({ username: 'v4', role: 'SOFTWARE_VENDOR' }), 'HYPER_ADMIN', null],
    [
      'a vendor user moving itself to another vendor',
      vendor4,
      user({ username: 'v4', role: 'SOFTWARE_VENDOR' }),
      'SOFTWARE_VENDOR',
      5,
    ],
  ] as const)('403 for %s', (_, caller, current, role, softwareVendor) => {
    // Act
    const refused = refusal(() => placement(caller, current, role, softwareVendor));

    // Assess
    expect(refused).toEqual(FORBIDDEN);
  });
});

describe('sameUsername', () => {
  it("answers the username when the body names the path's user, else 409 URL_AND_BODY_IDENTIFIERS_MISMATCH", () => {
    // Act
    const same = sameUsername({ username: 'bert' }, { username: 'bert' });
    const refused = refusal(() => sameUsername({ username: 'bert' }, { username: 'anna' }));

    // Assess
    expect(same).toBe('bert');
    expect(refused).toEqual({ status: 409, exception: 'InconsistentData', code: 'URL_AND_BODY_IDENTIFIERS_MISMATCH' });
  });
});

describe('userUpdateSteps', () => {
  it('a new password changes the user at the revision read and nothing else', () => {
    // Act
    const steps = userUpdateSteps(user(), { passwordHash: 'new hash' }).map(stepOf);

    // Assess
    expect(steps).toEqual([
      expect.objectContaining({ op: 'Update', key: { pk: 'U#bert', sk: '#USER' }, condition: 'revision = :seen' }),
    ]);
    expect(steps[0]?.values).toMatchObject({ ':f0': 'new hash', ':seen': 3, ':next': 4 });
  });

  it('a new email rewrites the directory entry', () => {
    // Act
    const steps = userUpdateSteps(user(), { email: 'b@example.com' }).map(stepOf);

    // Assess
    expect(steps[1]).toEqual({
      op: 'Put',
      key: { pk: 'USERS', sk: 'bert' },
      item: { pk: 'USERS', sk: 'bert', username: 'bert', email: 'b@example.com', role: 'REGULAR_USER', softwareVendor: 4 },
      refuses: false,
    });
  });

  it('an unchanged email, role and vendor leave the directory alone', () => {
    // Act
    const steps = userUpdateSteps(user(), { email: 'bert@example.com', role: 'REGULAR_USER', softwareVendor: 4 });

    // Assess
    expect(steps).toHaveLength(1);
  });

  it('a move to another vendor counts one user fewer on the old vendor and one more on the new, which must exist', () => {
    // Act
    const steps = userUpdateSteps(user(), { softwareVendor: 7 });

    // Assess
    expect(steps.slice(2).map(stepOf)).toEqual([
      expect.objectContaining({ key: { pk: 'VENDORS', sk: '4' }, values: { ':delta': -1 } }),
      expect.objectContaining({ key: { pk: 'VENDORS', sk: '7' }, values: { ':delta': 1 } }),
    ]);
    expect(stepRefusal(steps[3])).toEqual({ status: 404, exception: 'ReferenceNotFound', code: null });
  });

  it('a hyper admin made of a vendor user releases the vendor only', () => {
    // Act
    const steps = userUpdateSteps(user(), { role: 'HYPER_ADMIN', softwareVendor: null });

    // Assess
    expect(steps.slice(2).map((step) => stepOf(step).key)).toEqual([{ pk: 'VENDORS', sk: '4' }]);
  });
});
