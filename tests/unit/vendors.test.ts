/** Software vendors and application descriptions: updates and deletes decided on the record as read (spec 4.3). */
import { describe, expect, it } from 'vitest';
import { type ApplicationUpdate, decideApplicationDelete, decideApplicationUpdate } from '#functions/vendors/applications.ts';
import { decideVendorDelete, decideVendorUpdate } from '#functions/vendors/vendors.ts';
import type { Principal } from '#shared/auth/principal.ts';
import type { RevisedRecord } from '#shared/db/revisions.ts';
import type { ApplicationDescription, SoftwareVendor } from '#shared/domain/records.ts';
import { preconditions } from '#shared/http/conditions.ts';
import { refusal, stepOf, stepRefusal } from '../support/decisions.ts';

const hyperAdmin: Principal = { kind: 'user', username: 'admin', role: 'HYPER_ADMIN', softwareVendor: null, sellers: [] };
const vendorUser = (softwareVendor: number): Principal => ({
  kind: 'user',
  username: 'vendor',
  role: 'SOFTWARE_VENDOR',
  softwareVendor,
  sellers: [],
});

const vendor = (refs?: number): RevisedRecord<SoftwareVendor> => ({
  pk: 'VENDORS',
  sk: '4',
  id: 4,
  name: 'Kassasystem AB',
  revision: 2,
  ...(refs === undefined ? {} : { refs }),
});

describe('decideVendorUpdate', () => {
  it('sets the name at the revision read', () => {
    // Act
    const decision = decideVendorUpdate(4, { name: 'Kassor AB' }, preconditions({}), vendor());

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.steps.map(stepOf)).toEqual([
      expect.objectContaining({ op: 'Update', key: { pk: 'VENDORS', sk: '4' }, condition: 'revision = :seen' }),
    ]);
  });

  it('a vendor that does not exist is 404; a stale If-Match 409', () => {
    // Act
    const missing = refusal(() => decideVendorUpdate(4, { name: 'Kassor AB' }, preconditions({}), undefined));
    const stale = refusal(() => decideVendorUpdate(4, { name: 'Kassor AB' }, preconditions({ 'if-match': '"1"' }), vendor()));

    // Assess
    expect(missing).toEqual({ status: 404, exception: 'NotFound', code: null });
    expect(stale).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });
});

it.each([
  ['keeps the support address when the body leaves it out', { name: 'Kassor AB' }, { ':f0': 'Kassor AB' }],
  ['sets the support address', { name: 'K', supportEmail: 'help@k.se' }, { ':f0': 'K', ':f1': 'help@k.se' }],
  ['removes the support address with null', { name: 'K', supportEmail: null }, { ':f0': 'K', ':f1': null }],
])('decideVendorUpdate %s', (_, body, values) => {
  // Act
  const decision = decideVendorUpdate(4, body, preconditions({}), vendor());

  // Assess
  expect(decision.steps.map(stepOf)).toEqual([expect.objectContaining({ values: { ...values, ':seen': 2, ':next': 3 } })]);
});

describe('decideVendorDelete', () => {
  it.each([
    ['never counted', undefined],
    ['counted down to zero', 0],
  ])('a vendor whose references were %s is deleted at the revision read, provided none is counted at commit', (_, refs) => {
    // Act
    const decision = decideVendorDelete(4, preconditions({}), vendor(refs));

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.steps.map(stepOf)).toEqual([
      {
        op: 'Delete',
        key: { pk: 'VENDORS', sk: '4' },
        condition: 'revision = :seen AND (attribute_not_exists(refs) OR refs = :zero)',
        values: { ':seen': 2, ':zero': 0 },
        refuses: true,
      },
    ]);
  });

  it('a vendor with applications, users or control units is 422 SOFTWARE_VENDOR_HAS_REFERENCED_DATA', () => {
    // Act
    const refused = refusal(() => decideVendorDelete(4, preconditions({}), vendor(1)));

    // Assess
    expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'SOFTWARE_VENDOR_HAS_REFERENCED_DATA' });
  });

  it('a stale If-Match is 409 before the references are looked at', () => {
    // Act
    const refused = refusal(() => decideVendorDelete(4, preconditions({ 'if-match': '"1"' }), vendor(3)));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'VersionConflict', code: null });
  });

  it('a vendor that does not exist is 404 NotFound', () => {
    // Act
    const refused = refusal(() => decideVendorDelete(4, preconditions({}), undefined));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });
});

const app = (fields: Partial<ApplicationDescription> = {}, refs?: number): RevisedRecord<ApplicationDescription> => ({
  pk: 'APPS',
  sk: 'se.example.pos',
  applicationPackage: 'se.example.pos',
  productionNumberPrefix: 'KA',
  controlUnitRequired: true,
  name: 'Kassa',
  softwareVendor: 4,
  autoActivationCondition: 'NO_FEATURES',
  corporateIdValidationMethod: 'VALIDATE_SWEDISH',
  geolocation: { city: 'Lund', postalCode: '22100' },
  revision: 5,
  ...fields,
  ...(refs === undefined ? {} : { refs }),
});

describe('decideApplicationUpdate', () => {
  const update = (fields: Partial<ApplicationUpdate> = {}): ApplicationUpdate => ({
    applicationPackage: 'se.example.pos',
    principal: hyperAdmin,
    conditions: preconditions({}),
    body: {
      applicationPackage: 'se.example.pos',
      productionNumberPrefix: 'KA',
      controlUnitRequired: false,
      name: 'Kassa 2',
      softwareVendor: 4,
      autoActivationCondition: 'ALWAYS',
      corporateIdValidationMethod: 'VALIDATE_SWEDISH',
    },
    version: 26,
    ...fields,
  });

  it("writes the version's fields at the revision read and keeps the geolocation v26 cannot write", () => {
    // Act
    const decision = decideApplicationUpdate(update(), app());

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    const [write] = decision.steps.map(stepOf);
    expect(write).toMatchObject({ op: 'Update', key: { pk: 'APPS', sk: 'se.example.pos' } });
    expect(Object.values(write?.values ?? {})).toEqual(
      expect.arrayContaining(['Kassa 2', 'ALWAYS', { city: 'Lund', postalCode: '22100' }]),
    );
    expect(decision.steps).toHaveLength(1);
  });

  it('moving the application to another vendor counts it there (which must exist) and no longer on the old one', () => {
    // Act
    const decision = decideApplicationUpdate(update({ body: { ...update().body, softwareVendor: 7 } }), app());

    // Assess
    expect(decision.steps.slice(1).map(stepOf)).toEqual([
      expect.objectContaining({ key: { pk: 'VENDORS', sk: '7' }, values: { ':delta': 1 }, refuses: true }),
      expect.objectContaining({ key: { pk: 'VENDORS', sk: '4' }, values: { ':delta': -1 }, refuses: true }),
    ]);
    expect(stepRefusal(decision.steps[1])).toEqual({ status: 404, exception: 'ReferenceNotFound', code: null });
  });

  it("a vendor user may not update another vendor's application: 403", () => {
    // Act
    const refused = refusal(() => decideApplicationUpdate(update({ principal: vendorUser(7) }), app()));

    // Assess
    expect(refused).toEqual({ status: 403, exception: 'Forbidden', code: 'INSUFFICIENT_ACCESS_RIGHTS' });
  });

  it('an application that does not exist is 404 NotFound', () => {
    // Act
    const refused = refusal(() => decideApplicationUpdate(update(), undefined));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });
});

describe('decideApplicationDelete', () => {
  const deletion = (principal: Principal = hyperAdmin, headers: Record<string, string> = {}) => ({
    applicationPackage: 'se.example.pos',
    principal,
    conditions: preconditions(headers),
  });

  it("its vendor's user deletes it at the revision read, one application fewer on the vendor", () => {
    // Act
    const decision = decideApplicationDelete(deletion(vendorUser(4)), app());

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.steps.map(stepOf)).toEqual([
      expect.objectContaining({ op: 'Delete', key: { pk: 'APPS', sk: 'se.example.pos' }, values: { ':seen': 5, ':zero': 0 } }),
      expect.objectContaining({ op: 'Update', key: { pk: 'VENDORS', sk: '4' }, values: { ':delta': -1 } }),
    ]);
  });

  it('an application with installations is 422 APP_DESC_HAS_REFERENCED_DATA', () => {
    // Act
    const refused = refusal(() => decideApplicationDelete(deletion(), app({}, 2)));

    // Assess
    expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'APP_DESC_HAS_REFERENCED_DATA' });
  });

  it("another vendor's user is 403 before learning anything of its references", () => {
    // Act
    const refused = refusal(() => decideApplicationDelete(deletion(vendorUser(7)), app({}, 2)));

    // Assess
    expect(refused).toEqual({ status: 403, exception: 'Forbidden', code: 'INSUFFICIENT_ACCESS_RIGHTS' });
  });

  it('a stale If-Match is 409; an application that does not exist 404', () => {
    // Act
    const stale = refusal(() => decideApplicationDelete(deletion(hyperAdmin, { 'if-match': '"4"' }), app()));
    const missing = refusal(() => decideApplicationDelete(deletion(), undefined));

    // Assess
    expect(stale).toEqual({ status: 409, exception: 'VersionConflict', code: null });
    expect(missing).toEqual({ status: 404, exception: 'NotFound', code: null });
  });
});
