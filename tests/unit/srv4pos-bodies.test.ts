/**
 * The activation and existence bodies register apps written for srv4pos send (docs/compatibility.md): read tolerantly,
 * what the service does not know dropped before any handler sees it, what it knows validated as ever.
 */
import { describe, expect, it } from 'vitest';
import * as validators from '#schemas/generated/validators.js';
import { validate } from '#shared/http/validation.ts';
import { refusal } from '../support/decisions.ts';
import { libraryActivationJson, libraryExistenceJson } from '../support/srv4pos.ts';

const [advancedV26, advancedV33, existence, existenceWithCountry] = await Promise.all([
  validators.activationAdvancedV26.load(),
  validators.activationAdvancedV33.load(),
  validators.nameExistence.load(),
  validators.nameExistenceWithCountry.load(),
]);

const library = () =>
  JSON.parse(libraryActivationJson({ corporateId: '5560360793', applicationPackage: 'se.test.app' })) as object;

/** A restaurant POS's body: an empty phone and comment, a geolocation with address and company name, a period. */
const restaurant = () => ({
  country: 'SE',
  corporateId: '5560360793',
  cashRegisterName: 'SESUMABC1234',
  validFrom: 1_767_225_600_000,
  validTo: 1_798_761_600_000,
  features: ['CONTROL_UNIT'],
  comment: '',
  contactInfo: { name: 'Krogen AB', phone: '', email: 'info@example.se' },
  controlUnitSerial: 'CU0001',
  controlUnitLocation: 'DEVICE',
  controlUnitGeolocation: { address: 'Storgatan 1', city: 'Malmö', postalCode: '211 20', companyName: 'Krogen AB' },
  registrationGeolocation: { address: 'Storgatan 1', city: 'Malmö', postalCode: '211 20', companyName: 'Krogen AB' },
  applicationPackage: 'se.test.app',
  productionNumber: null,
  installationCreationInfo: { deviceId: 'a1b2c3d4e5f6', buildInfo: {} },
  connectionCode: null,
  applicationNameAndVersion: 'POS 1.03',
});

describe('activations-advanced as srv4pos clients send it', () => {
  it('v33 reads the library body: unknown fields dropped, the address and company of the place kept, a null period kept null for the handler to fill', () => {
    // Act
    const read = validate(advancedV33, library());

    // Assess
    expect(read).toEqual({
      country: 'SE',
      corporateId: '5560360793',
      cashRegisterName: 'CashReg001',
      features: ['CONTROL_UNIT'],
      controlUnitSerial: 'PTEST900000000001',
      controlUnitLocation: 'REMOTE',
      validFrom: null,
      validTo: null,
      registrationGeolocation: { address: 'Address line 1', city: 'Stockholm', postalCode: '12311', companyName: 'Test company' },
      applicationPackage: 'se.test.app',
      productionNumber: null,
      installationCreationInfo: { deviceId: 'SERVER', buildInfo: {}, programVersion: 'SE Test app' },
      contactInfo: null,
    });
  });

  it('v26 reads it too, without what v26 does not know (registrationGeolocation, programVersion)', () => {
    // Act
    const read = validate(advancedV26, library()) as Record<string, unknown>;

    // Assess
    expect(read.registrationGeolocation).toBeUndefined();
    expect(read.applicationNameAndVersion).toBeUndefined();
    expect(read.installationCreationInfo).toEqual({ deviceId: 'SERVER', buildInfo: {} });
  });

  it("takes an empty phone and comment, and drops address and companyName of the unit's geolocation", () => {
    // Act
    const read = validate(advancedV33, restaurant()) as Record<string, unknown>;

    // Assess
    expect(read.comment).toBe('');
    expect(read.contactInfo).toEqual({ name: 'Krogen AB', phone: '', email: 'info@example.se' });
    expect(read.controlUnitGeolocation).toEqual({ city: 'Malmö', postalCode: '211 20' });
    expect(read.registrationGeolocation).toMatchObject({ city: 'Malmö', postalCode: '211 20' });
    expect(read.applicationNameAndVersion).toBeUndefined();
  });

  it.each([
    ['a city over 255 characters', { registrationGeolocation: { city: 'x'.repeat(256), postalCode: '1' } }, 400, 'ValueNotValid'],
    [
      'a geolocation without its city',
      { controlUnitGeolocation: { address: 'Storgatan 1', postalCode: '1' } },
      400,
      'ValueNotValid',
    ],
    [
      'a phone over 255 characters',
      { contactInfo: { name: 'A', phone: '1'.repeat(256), email: 'a@b.se' } },
      400,
      'ValueNotValid',
    ],
    ['a comment over 1024 characters', { comment: 'x'.repeat(1025) }, 400, 'ValueNotValid'],
    ['a period that is not a Date', { validFrom: 'today' }, 400, 'MessageNotReadable'],
    ['a feature the version does not name', { features: ['CONTROL_UNIT', 'SKATTERVERKET'] }, 400, 'MessageNotReadable'],
    ['a location that is neither DEVICE nor REMOTE', { controlUnitLocation: 'LOCAL' }, 400, 'MessageNotReadable'],
    ['an empty company name', { companyName: '' }, 400, 'ValueNotValid'],
  ])('still refuses what it knows when it is wrong: %s', (_, fields, status, exception) => {
    // Act
    const refused = refusal(() => validate(advancedV33, { ...restaurant(), ...fields }));

    // Assess
    expect(refused).toMatchObject({ status, exception });
  });

  it('still needs corporateId and cashRegisterName', () => {
    // Act
    const refused = refusal(() => validate(advancedV33, { ...library(), corporateId: null }));

    // Assess
    expect(refused).toEqual({ status: 400, exception: 'ValueNotValid', code: 'SHOULD_NOT_BE_NULL' });
  });
});

describe('the name-existence check as the library sends it', () => {
  it.each([
    ['v15 and v26', existenceWithCountry],
    ['v33', existence],
  ])('%s read country, corporateId and cashRegisterName', (_, validator) => {
    // Act
    const read = validate(validator, JSON.parse(libraryExistenceJson('5560360793', 'CashReg001')));

    // Assess
    expect(read).toEqual({ country: 'SE', corporateId: '5560360793', cashRegisterName: 'CashReg001' });
  });
});
