/** Activation rules without DynamoDB (spec 4.2, docs/conventions.md §10): status moves, updates, auto-activation, control units. */
import { describe, expect, it } from 'vitest';
import {
  advancedOrderStatus,
  advancedPeriod,
  nextActivationStatus,
  OPEN_END,
  updatedActivation,
} from '#functions/activations/admin.ts';
import { controlUnitOnActivation, type ControlUnitRequest } from '#functions/activations/control-units.ts';
import { activationStatusOnOrder } from '#functions/activations/issue.ts';
import { checkCodeLength } from '#functions/activations/refusals.ts';
import type { ActivationUpdateBody } from '#schemas/types.ts';
import type { Role } from '#shared/auth/principal.ts';
import { nextIssued } from '#shared/domain/activations.ts';
import type { ActivationStatus, ControlUnit } from '#shared/domain/records.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { activationOf, refusal } from '../support/decisions.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2024-05-02T10:00:00.000Z');

describe('nextActivationStatus', () => {
  it.each([
    ['ISSUED', 'ACTIVE'],
    ['ISSUED', 'CLOSED'],
    ['ACTIVE', 'CLOSED'],
    ['WORKING', 'CLOSED'],
  ] as const)('%s -> %s is allowed', (current, wanted) => {
    // Act and Assess
    expect(nextActivationStatus(current, wanted)).toBe(wanted);
  });

  it.each([
    ['ACTIVE', 'ACTIVE', 'ACTIVATION_IS_ACTIVE_ALREADY'],
    ['WORKING', 'ACTIVE', 'ACTIVATION_IS_WORKING_ALREADY'],
    ['CLOSED', 'ACTIVE', 'ACTIVATION_IS_CLOSED_ALREADY'],
    ['CLOSED', 'CLOSED', 'ACTIVATION_IS_CLOSED_ALREADY'],
  ] as const)('%s -> %s is 422 %s', (current, wanted, code) => {
    // Act
    const refused = refusal(() => nextActivationStatus(current, wanted));

    // Assess
    expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code });
  });
});

describe('updatedActivation', () => {
  const stored = activationOf({
    status: 'ACTIVE',
    issued: NOW - DAY,
    validFrom: NOW - 10 * DAY,
    validTo: NOW + 10 * DAY,
    features: ['SYNCHRONIZATION', 'TAX_AUTHORITY'],
    contact: { name: 'Anna', phone: '+4640123456', email: 'anna@example.com' },
    comment: 'first year',
  });
  const body = (fields: Partial<ActivationUpdateBody> = {}): ActivationUpdateBody => ({
    validFrom: NOW,
    validTo: NOW + 365 * DAY,
    ...fields,
  });

  it('sets the period and stamps the action now, keeping what the body leaves out', () => {
    // Act
    const next = updatedActivation(stored, body(), 33, NOW);

    // Assess
    expect(next).toEqual({ ...stored, validFrom: NOW, validTo: NOW + 365 * DAY, issued: NOW });
  });

  it('a null contact or comment clears it', () => {
    // Act
    const next = updatedActivation(stored, body({ contactInfo: null, comment: null }), 33, NOW);

    // Assess
    expect(next).toMatchObject({ contact: null, comment: null });
  });

  it('a v26 write of the features replaces those v26 names and keeps TAX_AUTHORITY, which only v33 names', () => {
    // Act
    const next = updatedActivation(stored, body({ features: ['COUPONS'] }), 26, NOW);

    // Assess
    expect(next.features).toEqual(['COUPONS', 'TAX_AUTHORITY']);
  });

  it('the stamp moves forward even when the clock is behind the last action', () => {
    // Act
    const next = updatedActivation({ ...stored, issued: NOW + 5 }, body(), 33, NOW);

    // Assess
    expect(next.issued).toBe(NOW + 6);
  });

  it('a body naming the current status is accepted', () => {
    // Act and Assess
    expect(updatedActivation(stored, body({ status: 'ACTIVE' }), 33, NOW).status).toBe('ACTIVE');
  });

  it('a body naming another status is 409 ACTIVATION_STATUS_IS_NOT_MODIFIABLE_BY_PUT', () => {
    // Act
    const refused = refusal(() => updatedActivation(stored, body({ status: 'CLOSED' }), 33, NOW));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'InconsistentData', code: 'ACTIVATION_STATUS_IS_NOT_MODIFIABLE_BY_PUT' });
  });

  it('a closed activation is 422 ACTIVATION_IS_CLOSED_ALREADY', () => {
    // Act
    const refused = refusal(() => updatedActivation({ ...stored, status: 'CLOSED' }, body(), 33, NOW));

    // Assess
    expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'ACTIVATION_IS_CLOSED_ALREADY' });
  });

  it.each([
    [15, 409, 'InconsistentData'],
    [26, 404, 'ReferenceNotFound'],
    [33, 404, 'ReferenceNotFound'],
  ] as const)(
    'v%i: a period ending when it starts is %i %s VALID_FROM_AND_VALID_TO_INCONSISTENCY',
    (version, status, exception) => {
      // Act
      const refused = refusal(() => updatedActivation(stored, body({ validTo: NOW }), version, NOW));

      // Assess
      expect(refused).toEqual({ status, exception, code: 'VALID_FROM_AND_VALID_TO_INCONSISTENCY' });
    },
  );
});

describe('nextIssued', () => {
  it('is now when now is after the last action, else one past it', () => {
    // Prepare
    const previous = activationOf({ issued: NOW });

    // Act and Assess
    expect(nextIssued(previous, NOW + 1000)).toBe(NOW + 1000);
    expect(nextIssued(previous, NOW)).toBe(NOW + 1);
    expect(nextIssued(previous, NOW - 1000)).toBe(NOW + 1);
  });
});

describe('activationStatusOnOrder', () => {
  it.each([
    ['an administrator issues it, whatever the application says', 'ACTIVE', 'NEVER', ['SUPPORT'], 'ACTIVE'],
    ['ALWAYS, features asked for', 'AUTO', 'ALWAYS', ['SUPPORT'], 'ACTIVE'],
    ['NO_FEATURES, none asked for', 'AUTO', 'NO_FEATURES', [], 'ACTIVE'],
    ['NO_FEATURES, one asked for', 'AUTO', 'NO_FEATURES', ['SUPPORT'], 'ISSUED'],
    ['NEVER, none asked for', 'AUTO', 'NEVER', [], 'ISSUED'],
  ] as const)('%s: %s', (_, requested, autoActivationCondition, features, expected) => {
    // Act
    const status = activationStatusOnOrder(requested, { autoActivationCondition }, features);

    // Assess
    expect(status).toBe<ActivationStatus>(expected);
  });
});

describe('advancedOrderStatus', () => {
  const user = (role: Role, softwareVendor: number | null = null) =>
    ({ kind: 'user', username: 'u', role, softwareVendor, sellers: [] }) as const;

  it("the hyper admin's order is ACTIVE at once", () => {
    // Act and Assess
    expect(advancedOrderStatus(user('HYPER_ADMIN'))).toBe('ACTIVE');
  });

  it("a software-vendor user's order leaves the status to the application's autoActivationCondition", () => {
    // Act and Assess
    expect(advancedOrderStatus(user('SOFTWARE_VENDOR', 4))).toBe('AUTO');
  });

  it.each([
    ['NEVER', [], 'ISSUED'],
    ['NO_FEATURES', ['SUPPORT'], 'ISSUED'],
    ['NO_FEATURES', [], 'ACTIVE'],
    ['ALWAYS', ['SUPPORT'], 'ACTIVE'],
  ] as const)(
    'a vendor user ordering for an application that activates %s with features %j gets %s',
    (condition, features, expected) => {
      // Prepare
      const requested = advancedOrderStatus(user('SOFTWARE_VENDOR', 4));

      // Act
      const status = activationStatusOnOrder(requested, { autoActivationCondition: condition }, features);

      // Assess
      expect(status).toBe<ActivationStatus>(expected);
    },
  );
});

describe('controlUnitOnActivation', () => {
  const app = { applicationPackage: 'se.example.pos', controlUnitRequired: true, softwareVendor: 4 };
  const geolocation = { city: 'Lund', postalCode: '22100' };
  const unit: ControlUnit = {
    id: 9,
    serial: 'CU-1',
    registrationDate: 0,
    controlUnitLocation: 'DEVICE',
    geolocation,
    softwareVendor: 4,
  };
  const ask = (fields: Partial<ControlUnitRequest>): ControlUnitRequest => ({
    serial: null,
    location: null,
    geolocation: null,
    ...fields,
  });
  const options = (fields: { autoActivating?: boolean; version?: ApiVersion } = {}) => ({
    autoActivating: false,
    version: 33 as ApiVersion,
    now: NOW,
    ...fields,
  });

  it('an application that needs a control unit refuses an activation naming none: 422 CU_IS_MISSING_FOR_ACTIVATION', () => {
    // Act
    const refused = refusal(() => controlUnitOnActivation(app, ask({}), undefined, options()));

    // Assess
    expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'CU_IS_MISSING_FOR_ACTIVATION' });
  });

  it('no serial is fine when the application needs none', () => {
    // Act
    const decided = controlUnitOnActivation({ ...app, controlUnitRequired: false }, ask({}), undefined, options());

    // Assess
    expect(decided).toEqual({ serial: null, location: null });
  });

  it.each([
    ['needs one', app],
    ['needs none', { ...app, controlUnitRequired: false }],
  ] as const)('a REMOTE order without a serial is enrolled with the cloud system when the application %s', (_, application) => {
    // Act
    const decided = controlUnitOnActivation(application, ask({ location: 'REMOTE' }), undefined, options());

    // Assess
    expect(decided).toEqual({ serial: null, location: 'REMOTE', enroll: true });
  });

  it('a known unit of the same vendor is used as it is, DEVICE unless told', () => {
    // Act
    const decided = controlUnitOnActivation(app, ask({ serial: 'CU-1' }), unit, options());

    // Assess
    expect(decided).toEqual({ serial: 'CU-1', location: 'DEVICE' });
  });

  it.each([
    [15, 409, 'InconsistentData'],
    [33, 404, 'ReferenceNotFound'],
  ] as const)('v%i: a known unit of another vendor is %i %s SV_MISMATCH_IN_APP_DESC_AND_CU', (version, status, exception) => {
    // Act
    const refused = refusal(() =>
      controlUnitOnActivation(app, ask({ serial: 'CU-1' }), { ...unit, softwareVendor: 5 }, options({ version })),
    );

    // Assess
    expect(refused).toEqual({ status, exception, code: 'SV_MISMATCH_IN_APP_DESC_AND_CU' });
  });

  it("a new unit is registered for the application's vendor, dated now", () => {
    // Act
    const decided = controlUnitOnActivation(app, ask({ serial: 'CU-2', location: 'REMOTE', geolocation }), undefined, options());

    // Assess
    expect(decided).toEqual({
      serial: 'CU-2',
      location: 'REMOTE',
      newUnit: { serial: 'CU-2', registrationDate: NOW, controlUnitLocation: 'REMOTE', geolocation, softwareVendor: 4 },
    });
  });

  it.each([null, 'DEVICE'] as const)(
    'a new unit on the device (location %s) without its geolocation is 422 CU_LOCATION_MUST_BE_SET',
    (location) => {
      // Act
      const refused = refusal(() => controlUnitOnActivation(app, ask({ serial: 'CU-2', location }), undefined, options()));

      // Assess
      expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'CU_LOCATION_MUST_BE_SET' });
    },
  );

  it('a new REMOTE unit without a geolocation is registered without one (it is not on the counter)', () => {
    // Act
    const decided = controlUnitOnActivation(app, ask({ serial: 'CU-3', location: 'REMOTE' }), undefined, options());

    // Assess
    expect(decided).toEqual({
      serial: 'CU-3',
      location: 'REMOTE',
      newUnit: { serial: 'CU-3', registrationDate: NOW, controlUnitLocation: 'REMOTE', geolocation: null, softwareVendor: 4 },
    });
  });

  it('an automatic activation on a new unit is 422 AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU; on a known one it is fine', () => {
    // Act
    const refused = refusal(() =>
      controlUnitOnActivation(app, ask({ serial: 'CU-2', geolocation }), undefined, options({ autoActivating: true })),
    );
    const known = controlUnitOnActivation(app, ask({ serial: 'CU-1' }), unit, options({ autoActivating: true }));

    // Assess
    expect(refused).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU' });
    expect(known.newUnit).toBeUndefined();
  });
});

describe('checkCodeLength', () => {
  it.each(['abcd', '123456789', '😀😀😀😀'])('accepts %s (4 to 9 characters, counted as code points)', (code) => {
    // Act and Assess
    expect(() => checkCodeLength(code, 33)).not.toThrow();
  });

  it.each([
    ['abc', 15, 409, 'InconsistentData'],
    ['1234567890', 26, 404, 'ReferenceNotFound'],
  ] as const)('refuses %s in v%i: %i %s ACTIVATION_CODE_WRONG_LENGTH', (code, version, status, exception) => {
    // Act
    const refused = refusal(() => checkCodeLength(code, version));

    // Assess
    expect(refused).toEqual({ status, exception, code: 'ACTIVATION_CODE_WRONG_LENGTH' });
  });
});

describe('advancedPeriod (activations-advanced)', () => {
  it('takes a period given as it is', () => {
    // Act and Assess
    expect(advancedPeriod({ validFrom: NOW - DAY, validTo: NOW + DAY }, NOW)).toEqual({
      validFrom: NOW - DAY,
      validTo: NOW + DAY,
    });
  });

  it.each([
    ['null', { validFrom: null, validTo: null }],
    ['absent', {}],
  ])('a %s period runs from the moment of issue, open-ended (the last millisecond of 9999)', (_, body) => {
    // Act
    const period = advancedPeriod(body, NOW);

    // Assess
    expect(period).toEqual({ validFrom: NOW, validTo: OPEN_END });
    expect(new Date(OPEN_END).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  it('each end defaults on its own', () => {
    // Act and Assess
    expect(advancedPeriod({ validFrom: NOW - DAY, validTo: null }, NOW)).toEqual({ validFrom: NOW - DAY, validTo: OPEN_END });
    expect(advancedPeriod({ validFrom: null, validTo: NOW + DAY }, NOW)).toEqual({ validFrom: NOW, validTo: NOW + DAY });
  });
});
