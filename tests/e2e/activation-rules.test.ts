/**
 * The rules of spec 4.2 as a client meets them: every error code the activation endpoints name,
 * the connection flow, production numbers, the status moves and feature gating.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { put, transact } from '#shared/db/transact.ts';
import { type CallOptions, detailOf, expectError, omit, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId, userOf } from '../support/identity.ts';
import { createHash } from 'node:crypto';
import { activationKeys } from '#shared/domain/records.ts';

const deviceId = () => randomUUID().replace(/-/g, '').slice(0, 16);
const serial = () => `CU${randomUUID().slice(0, 10)}`;
const geolocation = { city: 'Malmö', postalCode: '211 20' };
const key = (apiKey: unknown): CallOptions => ({ as: { apiKey: String(apiKey) } });

let vendor: number;
let otherVendor: number;
/** Needs a control unit, never auto-activates, validates Swedish corporate ids. */
let cuApp: { applicationPackage: string };
/** No control unit, auto-activates always, any corporate id. */
let plainApp: { applicationPackage: string };
let otherVendorApp: { applicationPackage: string };

beforeAll(async () => {
  [vendor, otherVendor] = await Promise.all([newVendor('Kassa AB'), newVendor('Annan AB')]);
  [cuApp, plainApp, otherVendorApp] = await Promise.all([
    newApp(vendor, { controlUnitRequired: true, autoActivationCondition: 'NEVER' }),
    newApp(vendor, { controlUnitRequired: false, autoActivationCondition: 'ALWAYS', corporateIdValidationMethod: 'NONE' }),
    newApp(otherVendor, { controlUnitRequired: true, productionNumberPrefix: 'AN' }),
  ]);
});

/** A full activations-advanced body for a new seller and a new installation of `app`. */
function fullBody(app: { applicationPackage: string }, fields: Record<string, unknown> = {}) {
  return {
    country: 'SE',
    corporateId: swedishCorporateId(),
    companyName: 'Butiken AB',
    cashRegisterName: 'Kassa 1',
    features: [],
    validFrom: Date.now() - DAY,
    validTo: Date.now() + 30 * DAY,
    applicationPackage: app.applicationPackage,
    controlUnitSerial: serial(),
    controlUnitLocation: 'DEVICE',
    controlUnitGeolocation: geolocation,
    installationCreationInfo: { deviceId: deviceId(), buildInfo: { os: 'Android' } },
    ...fields,
  };
}

interface Activated {
  apiKey: string | null;
  productionNumber: string | null;
  activationId: number;
}

async function activate(api: 26 | 33, body: Record<string, unknown>, as?: CallOptions): Promise<Activated> {
  const answer = await v(api).post('/activations-advanced', body, as);
  if (answer.status !== 201) throw new Error(`not activated: ${answer.status} ${answer.text}`);
  return answer.body as Activated;
}

describe.each([26, 33] as const)('activations-advanced in v%i', (api) => {
  const client = v(api);
  const refused = async (body: Record<string, unknown>, code: string) =>
    expectError(await client.post('/activations-advanced', body), 404, 'ReferenceNotFound', code);

  it('refuses a period that ends before it begins: 404 VALID_FROM_AND_VALID_TO_INCONSISTENCY', async () => {
    await refused(fullBody(cuApp, { validFrom: Date.now(), validTo: Date.now() - 1 }), 'VALID_FROM_AND_VALID_TO_INCONSISTENCY');
  });

  it('refuses a production number with a new installation: ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL', async () => {
    await refused(fullBody(cuApp, { productionNumber: 'KA000001' }), 'ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL');
  });

  it('refuses a new installation for a register name the seller has: REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION', async () => {
    const first = fullBody(cuApp);
    await activate(api, first);
    await refused({ ...fullBody(cuApp), corporateId: first.corporateId }, 'REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION');
  });

  it('refuses a second register name on the same installation for one seller: REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION', async () => {
    const first = fullBody(cuApp);
    const { productionNumber } = await activate(api, first);
    const second = { ...fullBody(cuApp), corporateId: first.corporateId, cashRegisterName: 'Kassa 2', productionNumber };
    delete (second as Record<string, unknown>).installationCreationInfo;
    await refused(second, 'REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION');
  });

  it("refuses another application than the installation's: ACTIVATION_APPLICATION_PACKAGE_MUST_BE_NULL_OR_EQUAL", async () => {
    const { productionNumber } = await activate(api, fullBody(cuApp));
    const body = omit(fullBody(plainApp, { productionNumber, cashRegisterName: 'Annan' }), 'installationCreationInfo');
    await refused(body, 'ACTIVATION_APPLICATION_PACKAGE_MUST_BE_NULL_OR_EQUAL');
  });

  it("refuses another production number than the registration's: ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL_OR_EQUAL", async () => {
    const first = fullBody(cuApp);
    await activate(api, first);
    const { productionNumber: other } = await activate(api, fullBody(cuApp));
    const body = omit(
      fullBody(cuApp, {
        corporateId: first.corporateId,
        productionNumber: other,
      }),
      'installationCreationInfo',
    );
    await refused(body, 'ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL_OR_EQUAL');
  });

  it('refuses a request that names no installation, register or code: ACTIVATION_MUST_HAVE_INSTALLATION_OR_ACTIVATION_CODE', async () => {
    const body = omit(fullBody(cuApp), 'installationCreationInfo', 'applicationPackage');
    await refused(body, 'ACTIVATION_MUST_HAVE_INSTALLATION_OR_ACTIVATION_CODE');
  });

  it('refuses a control unit of another vendor: SV_MISMATCH_IN_APP_DESC_AND_CU', async () => {
    const unit = serial();
    await activate(api, fullBody(otherVendorApp, { controlUnitSerial: unit }));
    await refused(fullBody(cuApp, { controlUnitSerial: unit }), 'SV_MISMATCH_IN_APP_DESC_AND_CU');
  });

  it('needs a control unit where the application works with one: 422 CU_IS_MISSING_FOR_ACTIVATION (REMOTE needs none)', async () => {
    expectError(
      await client.post('/activations-advanced', fullBody(cuApp, { controlUnitSerial: null, controlUnitLocation: null })),
      422,
      'UnprocessableEntity',
      'CU_IS_MISSING_FOR_ACTIVATION',
    );
    await activate(
      api,
      fullBody(cuApp, { controlUnitSerial: null, controlUnitLocation: 'REMOTE', controlUnitGeolocation: null }),
    );
  });

  it('needs the geolocation of a new control unit: 422 CU_LOCATION_MUST_BE_SET', async () => {
    expectError(
      await client.post('/activations-advanced', fullBody(cuApp, { controlUnitGeolocation: null })),
      422,
      'UnprocessableEntity',
      'CU_LOCATION_MUST_BE_SET',
    );
  });

  it('refuses an installation a later install on the device superseded: 422 INSTALLATION_IS_OUT_OF_DATE', async () => {
    const device = deviceId();
    const first = fullBody(cuApp, { installationCreationInfo: { deviceId: device } });
    const { productionNumber: old } = await activate(api, first);
    await activate(api, fullBody(cuApp, { installationCreationInfo: { deviceId: device } }));
    const renewal = omit(
      fullBody(cuApp, {
        corporateId: first.corporateId,
        productionNumber: old,
      }),
      'installationCreationInfo',
    );
    expectError(await client.post('/activations-advanced', renewal), 422, 'UnprocessableEntity', 'INSTALLATION_IS_OUT_OF_DATE');
  });

  it('needs a company name for a seller that is not registered: 422 COMPANY_NAME_MUST_BE_SET_IF_NO_SELLER', async () => {
    expectError(
      await client.post('/activations-advanced', fullBody(cuApp, { companyName: null })),
      422,
      'UnprocessableEntity',
      'COMPANY_NAME_MUST_BE_SET_IF_NO_SELLER',
    );
  });

  it('checks Swedish corporate ids for applications that ask for it: SHOULD_MATCH_CORPORATE_ID_VALIDATION_SWEDISH / _LUHN', async () => {
    const good = swedishCorporateId();
    const badDigit = `${good.slice(0, 9)}${(Number(good[9]) + 1) % 10}`;
    const shape = await client.post('/activations-advanced', fullBody(cuApp, { corporateId: '12345' }));
    expectError(shape, 400, 'ValueNotValid', 'SHOULD_MATCH_CORPORATE_ID_VALIDATION_SWEDISH');
    expect(detailOf(shape)).toMatchObject({ field: 'corporateId', actualValue: '12345' });
    expectError(
      await client.post('/activations-advanced', fullBody(cuApp, { corporateId: badDigit })),
      400,
      'ValueNotValid',
      'SHOULD_MATCH_CORPORATE_ID_VALIDATION_LUHN',
    );
    // An application without Swedish validation takes any corporate id.
    await activate(api, fullBody(plainApp, { corporateId: `X-${randomUUID().slice(0, 8)}`, controlUnitSerial: null }));
  });

  it('renews a register: body 5 (common fields only) finds the installation through the registration', async () => {
    const first = fullBody(cuApp);
    const activated = await activate(api, first);
    const renewed = await activate(api, {
      country: 'SE',
      corporateId: first.corporateId,
      cashRegisterName: first.cashRegisterName,
      validFrom: Date.now(),
      validTo: Date.now() + 365 * DAY,
      controlUnitSerial: first.controlUnitSerial,
    });
    expect(renewed.productionNumber).toBe(activated.productionNumber);
    expect(renewed.activationId).toBeGreaterThan(activated.activationId);
    expect((await v(api).get(`/SE${first.corporateId}/taxes`, key(renewed.apiKey))).status).toBe(200);
  });

  it('leaves nothing behind when refused at commit: a connection code in use is 409, and the new seller is not created', async () => {
    const code = randomUUID().replace(/-/g, '').slice(0, 9);
    await activate(api, omit(fullBody(plainApp, { connectionCode: code, controlUnitSerial: null }), 'installationCreationInfo'));
    const second = fullBody(plainApp, { connectionCode: code, controlUnitSerial: null });
    const before = await client.get('/devices?maxResults=1000');

    const answer = await client.post('/activations-advanced', omit(second, 'installationCreationInfo'));

    expectError(answer, 409, 'VersionConflict');
    expectError(await client.get(`/sellers/SE${second.corporateId}`), 404, 'NotFound');
    expectError(await client.get(`/SE${second.corporateId}/registrations`), 404, 'NotFound');
    expect((await client.get('/devices?maxResults=1000')).body).toEqual(before.body);
  });

  it('lets a vendor user activate its own applications only (403 INSUFFICIENT_ACCESS_RIGHTS otherwise)', async () => {
    const own = await userOf('SOFTWARE_VENDOR', vendor);
    await activate(api, fullBody(cuApp), own);
    expectError(
      await client.post('/activations-advanced', fullBody(otherVendorApp), own),
      403,
      'Forbidden',
      'INSUFFICIENT_ACCESS_RIGHTS',
    );
    const regular = await userOf('REGULAR_USER');
    expectError(
      await client.post('/activations-advanced', fullBody(cuApp), regular),
      403,
      'Forbidden',
      'INSUFFICIENT_ACCESS_RIGHTS',
    );
  });
});

describe.each([26, 33] as const)(
  "a vendor user's activations-advanced in v%i: the application's autoActivationCondition decides",
  (api) => {
    const client = v(api);
    let apps: Record<'NEVER' | 'NO_FEATURES' | 'ALWAYS', { applicationPackage: string }>;
    let vendorUser: CallOptions;

    beforeAll(async () => {
      const app = (autoActivationCondition: string) => newApp(vendor, { controlUnitRequired: false, autoActivationCondition });
      const [NEVER, NO_FEATURES, ALWAYS] = await Promise.all([app('NEVER'), app('NO_FEATURES'), app('ALWAYS')]);
      apps = { NEVER, NO_FEATURES, ALWAYS };
      vendorUser = await userOf('SOFTWARE_VENDOR', vendor);
    });

    const noUnit = { controlUnitSerial: null, controlUnitLocation: null, controlUnitGeolocation: null };
    const statusOf = async (activationId: number) =>
      ((await client.get(`/activations/${activationId}`, vendorUser)).body as { activationInfo: { status: string } })
        .activationInfo.status;

    it.each([
      ['NEVER', []],
      ['NO_FEATURES', ['VOUCHERS']],
    ] as const)(
      '%s, features %j: ISSUED, the key is 403 ACTIVATION_STILL_ISSUED until the hyper admin sets it ACTIVE',
      async (condition, features) => {
        // Prepare
        const body = fullBody(apps[condition], { ...noUnit, features });

        // Act
        const ordered = await activate(api, body, vendorUser);

        // Assess
        expect(await statusOf(ordered.activationId)).toBe('ISSUED');
        const taxes = `/SE${body.corporateId}/taxes`;
        expectError(await client.get(taxes, key(ordered.apiKey)), 403, 'Forbidden', 'ACTIVATION_STILL_ISSUED');
        expect((await client.put(`/activations/${ordered.activationId}/status`, { status: 'ACTIVE' })).status).toBe(204);
        expect((await client.get(taxes, key(ordered.apiKey))).status).toBe(200);
      },
    );

    it.each([
      ['NO_FEATURES', []],
      ['ALWAYS', ['VOUCHERS']],
    ] as const)('%s, features %j: ACTIVE at once, the key works', async (condition, features) => {
      // Prepare
      const body = fullBody(apps[condition], { ...noUnit, features });

      // Act
      const ordered = await activate(api, body, vendorUser);

      // Assess
      expect(await statusOf(ordered.activationId)).toBe('ACTIVE');
      expect((await client.get(`/SE${body.corporateId}/taxes`, key(ordered.apiKey))).status).toBe(200);
    });

    it("the hyper admin's own order is ACTIVE at once, even for a NEVER application", async () => {
      // Prepare
      const body = fullBody(apps.NEVER, { ...noUnit, features: ['VOUCHERS'] });

      // Act
      const ordered = await activate(api, body);

      // Assess
      expect(await statusOf(ordered.activationId)).toBe('ACTIVE');
      expect((await client.get(`/SE${body.corporateId}/taxes`, key(ordered.apiKey))).status).toBe(200);
    });

    it('an order that would auto-activate on a control unit seen for the first time is 422 AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU', async () => {
      // Prepare
      const autoCu = await newApp(vendor, { controlUnitRequired: true, autoActivationCondition: 'ALWAYS' });

      // Act
      const answer = await client.post('/activations-advanced', fullBody(autoCu), vendorUser);

      // Assess
      expectError(answer, 422, 'UnprocessableEntity', 'AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU');
    });
  },
);

describe.each([26, 33] as const)('activations/connection in v%i', (api) => {
  const client = v(api);
  /** An activation issued with a connection code: the register connects later. */
  async function withCode(app = plainApp) {
    const code = randomUUID().replace(/-/g, '').slice(0, 8);
    const body = omit(fullBody(app, { connectionCode: code, controlUnitSerial: null }), 'installationCreationInfo');
    const activated = await activate(api, body);
    return { code, activated, sellerId: `SE${body.corporateId}` };
  }
  const installation = (fields: Record<string, unknown> = {}) => ({
    deviceId: deviceId(),
    buildInfo: { model: 'X' },
    applicationPackage: plainApp.applicationPackage,
    ...fields,
  });

  it('redeems a code once: the register gets its key (and, in v26, its signed code) and its production number', async () => {
    const { code, activated, sellerId } = await withCode();
    expect(activated.apiKey).toBeNull();
    const answer = await client.post(
      '/activations/connection',
      { installation: installation(), activationCode: code },
      { as: 'none' },
    );
    expect(answer.status).toBe(201);
    const body = answer.body as Record<string, unknown>;
    const apiKey = api === 26 ? body.activationSecurityToken : body.apiKey;
    expect(String(apiKey).length).toBeLessThanOrEqual(33);
    expect(body.activationId).toBe(activated.activationId);
    if (api === 26) expect(body.activationCodeInfo).toMatchObject({ activationInfoVersion: 2 });
    else
      expect(Object.keys(body).sort()).toEqual(['activationId', 'address', 'apiKey', 'city', 'phone', 'productionNumber', 'zip']);
    expect((await client.get(`/${sellerId}/taxes`, key(apiKey))).status).toBe(200);
    const again = await client.post(
      '/activations/connection',
      { installation: installation(), activationCode: code },
      { as: 'none' },
    );
    expectError(again, 404, 'ReferenceNotFound');
  });

  it('tests the code length: 404 ACTIVATION_CODE_WRONG_LENGTH for 3 and 10 characters', async () => {
    for (const code of ['abc', 'abcdefghij']) {
      expectError(
        await client.post('/activations/connection', { installation: installation(), activationCode: code }, { as: 'none' }),
        404,
        'ReferenceNotFound',
        'ACTIVATION_CODE_WRONG_LENGTH',
      );
    }
  });

  it('refuses an expired code', async () => {
    const code = 'old1234';
    const { activated } = await withCode();
    const hash = createHash('sha256').update(code).digest('hex');
    await transact([
      put({ ...activationKeys.connectionCode(hash), activationId: activated.activationId, expires: Date.now() - 1, used: false }),
    ]);
    expectError(
      await client.post('/activations/connection', { installation: installation(), activationCode: code }, { as: 'none' }),
      404,
      'ReferenceNotFound',
    );
  });

  it('refuses another application: 422 APPLICATION_PACKAGES_MISMATCH', async () => {
    const { code } = await withCode();
    expectError(
      await client.post(
        '/activations/connection',
        { installation: installation({ applicationPackage: cuApp.applicationPackage }), activationCode: code },
        { as: 'none' },
      ),
      422,
      'UnprocessableEntity',
      'APPLICATION_PACKAGES_MISMATCH',
    );
  });

  it('refuses a production number of another device: 404 PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH', async () => {
    const { code } = await withCode();
    const { productionNumber } = await activate(api, fullBody(plainApp, { controlUnitSerial: null }));
    expectError(
      await client.post(
        '/activations/connection',
        { installation: installation({ productionNumber }), activationCode: code },
        { as: 'none' },
      ),
      404,
      'ReferenceNotFound',
      'PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH',
    );
  });

  it('refuses an installation other than the one the register is connected to: 404 PRODUCTION_NUMBER_AND_CONNECTION_MISMATCH', async () => {
    // The register connects; an administrator renews it with a new code; a different installation tries to take it over.
    const first = await withCode();
    const device = installation();
    await client.post('/activations/connection', { installation: device, activationCode: first.code }, { as: 'none' });
    const code = randomUUID().replace(/-/g, '').slice(0, 6);
    await activate(api, {
      country: 'SE',
      corporateId: first.sellerId.slice(2),
      cashRegisterName: 'Kassa 1',
      validFrom: Date.now(),
      validTo: Date.now() + DAY,
      connectionCode: code,
    });
    expectError(
      await client.post('/activations/connection', { installation: installation(), activationCode: code }, { as: 'none' }),
      404,
      'ReferenceNotFound',
      'PRODUCTION_NUMBER_AND_CONNECTION_MISMATCH',
    );
  });
});

describe('v15 installation and order', () => {
  const client = v(15);
  const noauth = { as: 'none' } as const;

  it('numbers concurrent installs without a collision, each the prefix and a number within 25 characters', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.post(
          '/noauth/activations/generate-production-number',
          { deviceId: deviceId(), applicationPackage: plainApp.applicationPackage },
          noauth,
        ),
      ),
    );
    const numbers = answers.map((answer) => (answer.body as { productionNumber: string }).productionNumber);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(new Set(numbers).size).toBe(20);
    for (const number of numbers) expect(number).toMatch(/^KA\d{6,}$/);
    for (const number of numbers) expect(number.length).toBeLessThanOrEqual(25);
  });

  it('refuses an unknown application (404 ReferenceNotFound) and an empty gcmRegistrationId (SIZE_SHOULD_BE_MORE_THEN)', async () => {
    expectError(
      await client.post(
        '/noauth/activations/generate-production-number',
        { deviceId: deviceId(), applicationPackage: 'no.such.app' },
        noauth,
      ),
      404,
      'ReferenceNotFound',
    );
    const empty = await client.post(
      '/noauth/activations/generate-production-number',
      { deviceId: deviceId(), applicationPackage: plainApp.applicationPackage, gcmRegistrationId: '' },
      noauth,
    );
    expectError(empty, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_MORE_THEN');
    expect(detailOf(empty)).toEqual({ field: 'gcmRegistrationId', actualValue: 0, sizeMin: 1 });
  });

  const order = (fields: Record<string, unknown> = {}) => ({
    installationOrderInfo: { deviceId: deviceId(), applicationPackage: plainApp.applicationPackage },
    country: 'SE',
    corporateId: swedishCorporateId(),
    companyName: 'Kiosken',
    activationDetailsInfo: { validFrom: Date.now() - DAY, validTo: Date.now() + DAY },
    cashRegisterName: 'Disk',
    ...fields,
  });

  it('refuses a production number of another device (409 PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH) and a taken register name (409 CashRegisterNameIsNotUnique)', async () => {
    const numbered = await client.post(
      '/noauth/activations/generate-production-number',
      { deviceId: deviceId(), applicationPackage: plainApp.applicationPackage },
      noauth,
    );
    const { productionNumber } = numbered.body as { productionNumber: string };
    expectError(
      await client.post('/noauth/activations/order-activation', order({ productionNumber }), noauth),
      409,
      'InconsistentData',
      'PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH',
    );
    const first = order();
    expect((await client.post('/noauth/activations/order-activation', first, noauth)).status).toBe(201);
    expectError(
      await client.post('/noauth/activations/order-activation', order({ corporateId: first.corporateId }), noauth),
      409,
      'CashRegisterNameIsNotUnique',
    );
    expectError(
      await client.post(
        '/noauth/activations/order-activation',
        order({ activationDetailsInfo: { validFrom: Date.now(), validTo: Date.now() - DAY } }),
        noauth,
      ),
      409,
      'InconsistentData',
      'VALID_FROM_AND_VALID_TO_INCONSISTENCY',
    );
  });

  it('cannot auto-activate on a control unit seen for the first time: 422 AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU', async () => {
    const autoCu = await newApp(vendor, {
      controlUnitRequired: true,
      autoActivationCondition: 'ALWAYS',
      corporateIdValidationMethod: 'NONE',
    });
    const body = order({
      installationOrderInfo: { deviceId: deviceId(), applicationPackage: autoCu.applicationPackage },
      activationDetailsInfo: {
        validFrom: Date.now() - DAY,
        validTo: Date.now() + DAY,
        controlUnitSerial: serial(),
        controlUnitLocation: 'DEVICE',
      },
      deviceLocation: { address: 'Gatan 1', ...geolocation },
    });
    expectError(
      await client.post('/noauth/activations/order-activation', body, noauth),
      422,
      'UnprocessableEntity',
      'AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU',
    );
  });
});

describe('cash-register-name/existance', () => {
  it('answers 201 {exists} in v15 and v33, and 400 NonUnique for a taken name in v26', async () => {
    const body = fullBody(plainApp, { controlUnitSerial: null });
    await activate(33, body);
    const ask = (api: 15 | 26 | 33, name: string) =>
      v(api).post(
        '/noauth/activations/cash-register-name/existance',
        { ...(api === 33 ? {} : { country: 'SE' }), corporateId: body.corporateId, cashRegisterName: name },
        { as: 'none' },
      );
    for (const api of [15, 33] as const) {
      expect(await ask(api, 'Kassa 1')).toMatchObject({ status: 201, body: { exists: true } });
      expect(await ask(api, 'Kassa 9')).toMatchObject({ status: 201, body: { exists: false } });
    }
    expect(await ask(26, 'Kassa 9')).toMatchObject({ status: 201, body: { exists: false } });
    expectError(await ask(26, 'Kassa 1'), 400, 'NonUnique');
    expectError(
      await v(26).post(
        '/noauth/activations/cash-register-name/existance',
        { corporateId: body.corporateId, cashRegisterName: 'x' },
        { as: 'none' },
      ),
      400,
      'ValueNotValid',
      'SHOULD_NOT_BE_NULL',
    );
  });
});

describe.each([15, 26, 33] as const)('the activation lifecycle in v%i', (api) => {
  const client = v(api);

  it("moves ISSUED -> ACTIVE -> WORKING -> CLOSED, refusing repeats with the state's code", async () => {
    // An order of an application that never auto-activates stays ISSUED.
    const ordered = await v(15).post(
      '/noauth/activations/order-activation',
      {
        installationOrderInfo: { deviceId: deviceId(), applicationPackage: cuApp.applicationPackage },
        country: 'SE',
        corporateId: swedishCorporateId(),
        companyName: 'Kiosken',
        activationDetailsInfo: { validFrom: Date.now() - DAY, validTo: Date.now() + DAY, controlUnitSerial: serial() },
        deviceLocation: { address: 'Gatan 1', ...geolocation },
        cashRegisterName: 'Disk',
      },
      { as: 'none' },
    );
    const token = (ordered.body as { activationSecurityToken: string }).activationSecurityToken;
    expectError(await client.get('/auth/handshake', key(token)), 403, 'Forbidden', 'ACTIVATION_STILL_ISSUED');
    const id = await activationIdOf(token);
    const status = (value: string) => client.put(`/activations/${id}/status`, { status: value });

    expect((await status('ACTIVE')).status).toBe(204);
    expectError(await status('ACTIVE'), 422, 'UnprocessableEntity', 'ACTIVATION_IS_ACTIVE_ALREADY');
    expect((await client.get('/auth/handshake', key(token))).status).toBe(200);
    expectError(await status('ACTIVE'), 422, 'UnprocessableEntity', 'ACTIVATION_IS_WORKING_ALREADY');
    expect((await status('CLOSED')).status).toBe(204);
    expectError(await status('CLOSED'), 422, 'UnprocessableEntity', 'ACTIVATION_IS_CLOSED_ALREADY');
    expectError(await status('ACTIVE'), 422, 'UnprocessableEntity', 'ACTIVATION_IS_CLOSED_ALREADY');
    expectError(await client.get('/auth/handshake', key(token)), 403, 'Forbidden', 'ACTIVATION_CLOSED_ALREADY');
    expectError(await client.put(`/activations/${id}/status`, { status: 'WORKING' }), 400, 'MessageNotReadable');
  });

  it('changes the period and features by PUT, never the status (409 ACTIVATION_STATUS_IS_NOT_MODIFIABLE_BY_PUT)', async () => {
    const body = fullBody(plainApp, { controlUnitSerial: null });
    const activated = await activate(33, body);
    const id = activated.activationId;
    const period = { validFrom: Date.now() - 2 * DAY, validTo: Date.now() - DAY };
    expectError(
      await client.put(`/activations/${id}`, { ...period, status: 'CLOSED' }),
      409,
      'InconsistentData',
      'ACTIVATION_STATUS_IS_NOT_MODIFIABLE_BY_PUT',
    );
    expect((await client.get(`/SE${body.corporateId}/taxes`, key(activated.apiKey))).status).toBe(200);
    expect((await client.put(`/activations/${id}`, { ...period, status: 'WORKING', features: [] })).status).toBe(204);
    expectError(
      await client.get(`/SE${body.corporateId}/taxes`, key(activated.apiKey)),
      403,
      'Forbidden',
      'WRONG_ACTIVATION_PERIOD',
    );
    const view = await client.get(`/activations/${id}`);
    expect((view.body as { activationInfo: object }).activationInfo).toMatchObject({ id, ...period, status: 'WORKING' });
  });
});

describe('features', () => {
  it('gate the endpoints that need them: a key without SYNCHRONIZATION gets 403 ACTIVATION_NO_FEATURE on a diff', async () => {
    const without = fullBody(plainApp, { controlUnitSerial: null });
    const withSync = fullBody(plainApp, { controlUnitSerial: null, features: ['SYNCHRONIZATION'] });
    const [plain, sync] = [await activate(33, without), await activate(33, withSync)];
    expectError(
      await v(33).get(`/SE${without.corporateId}/taxes-diff/0/0`, key(plain.apiKey)),
      403,
      'Forbidden',
      'ACTIVATION_NO_FEATURE',
    );
    expect((await v(33).get(`/SE${without.corporateId}/taxes`, key(plain.apiKey))).status).toBe(200);
    expect((await v(26).get(`/SE${withSync.corporateId}/taxes-diff/0/0`, key(sync.apiKey))).status).toBe(200);
  });

  it('are named per version: SYNCRONIZATION in v15 and v26, SYNCHRONIZATION in v33; a v15 write keeps what only v33 can name', async () => {
    const body = fullBody(plainApp, { controlUnitSerial: null, features: ['SYNCHRONIZATION', 'TAX_AUTHORITY'] });
    const { activationId } = await activate(33, body);
    const features = async (api: 15 | 26 | 33) =>
      ((await v(api).get(`/activations/${activationId}`)).body as { activationInfo: { features: string[] } }).activationInfo
        .features;
    expect(await features(33)).toEqual(['SYNCHRONIZATION', 'TAX_AUTHORITY']);
    expect(await features(26)).toEqual(['SYNCRONIZATION']);
    expect(await features(15)).toEqual(['SYNCRONIZATION']);
    await v(15).put(`/activations/${activationId}`, {
      validFrom: body.validFrom,
      validTo: body.validTo,
      features: ['MULTIUSERS'],
    });
    expect(await features(33)).toEqual(['TAX_AUTHORITY']);
    expect(await features(15)).toEqual(['MULTIUSERS']);
  });
});

/** The activation id behind a register token, as an administrator finds it: the seller's registrations. */
async function activationIdOf(token: string): Promise<number> {
  const [{ apiKeyItem }, { readItem }] = await Promise.all([import('#shared/auth/api-keys.ts'), import('#shared/db/reads.ts')]);
  const record = await readItem(apiKeyItem(token));
  if (!record) throw new Error('no such key');
  return record.activationId;
}

describe('field limits of the activation bodies (spec 2.3, 4.2, 8)', () => {
  const long = (length: number) => 'x'.repeat(length);
  const pairs = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, 'v']));
  const cases: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
    ['cashRegisterName', { cashRegisterName: long(17) }, 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 17, sizeMin: 1, sizeMax: 16 }],
    [
      'controlUnitSerial',
      { controlUnitSerial: long(21) },
      'SIZE_SHOULD_BE_IN_RANGE',
      { actualValue: 21, sizeMin: 1, sizeMax: 20 },
    ],
    ['controlUnitSerial', { controlUnitSerial: '' }, 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 0, sizeMin: 1, sizeMax: 20 }],
    ['comment', { comment: long(1025) }, 'SIZE_SHOULD_BE_LESS_THEN', { actualValue: 1025, sizeMax: 1024 }],
    ['companyName', { companyName: long(97) }, 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 97, sizeMin: 1, sizeMax: 96 }],
    [
      'applicationPackage',
      { applicationPackage: long(121) },
      'SIZE_SHOULD_BE_IN_RANGE',
      { actualValue: 121, sizeMin: 1, sizeMax: 120 },
    ],
    ['productionNumber', { productionNumber: long(26) }, 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 26, sizeMin: 1, sizeMax: 25 }],
    [
      'installationCreationInfo.deviceId',
      { installationCreationInfo: { deviceId: long(18) } },
      'SIZE_SHOULD_BE_IN_RANGE',
      { actualValue: 18, sizeMin: 1, sizeMax: 17 },
    ],
    [
      'installationCreationInfo.programVersion',
      { installationCreationInfo: { deviceId: 'd', programVersion: long(65) } },
      'SIZE_SHOULD_BE_IN_RANGE',
      { actualValue: 65, sizeMin: 1, sizeMax: 64 },
    ],
    [
      'installationCreationInfo.buildInfo.os',
      { installationCreationInfo: { deviceId: 'd', buildInfo: { os: long(1025) } } },
      'SIZE_SHOULD_BE_LESS_THEN',
      { actualValue: 1025, sizeMax: 1024 },
    ],
    [
      'installationCreationInfo.buildInfo',
      { installationCreationInfo: { deviceId: 'd', buildInfo: { [long(26)]: 'v' } } },
      'SIZE_SHOULD_BE_IN_RANGE',
      { actualValue: 26, sizeMin: 1, sizeMax: 25 },
    ],
    [
      'installationCreationInfo.buildInfo',
      { installationCreationInfo: { deviceId: 'd', buildInfo: pairs(101) } },
      'SIZE_SHOULD_BE_LESS_THEN',
      { actualValue: 101, sizeMax: 100 },
    ],
    ['features', { features: Array(21).fill('VOUCHERS') }, 'SIZE_SHOULD_BE_LESS_THEN', { actualValue: 21, sizeMax: 20 }],
    [
      'contactInfo.name',
      { contactInfo: { name: long(97), phone: '1', email: 'a@b.se' } },
      'SIZE_SHOULD_BE_LESS_THEN',
      { actualValue: 97, sizeMax: 96 },
    ],
    [
      'controlUnitGeolocation.city',
      { controlUnitGeolocation: { city: long(256), postalCode: '1' } },
      'SIZE_SHOULD_BE_LESS_THEN',
      { actualValue: 256, sizeMax: 255 },
    ],
    // A null period is the default one now (docs/conventions.md §10); a Date past JavaScript's last one is still refused.
    ['validTo', { validTo: 8_640_000_000_000_001 }, 'VALUE_SHOULD_BE_LESS_THEN', { valueMax: 8_640_000_000_000_000 }],
  ];

  it.each(cases)(
    'activations-advanced refuses %s out of bounds with 400 ValueNotValid and the pinned details',
    async (field, fields, code, details) => {
      const answer = await v(33).post('/activations-advanced', fullBody(cuApp, fields));
      expectError(answer, 400, 'ValueNotValid', code);
      expect(detailOf(answer)).toMatchObject({ field, ...details });
    },
  );

  it('refuses a feature name of another version (v33 says SYNCHRONIZATION): 400 MessageNotReadable', async () => {
    expectError(
      await v(33).post('/activations-advanced', fullBody(cuApp, { features: ['SYNCRONIZATION'] })),
      400,
      'MessageNotReadable',
    );
    expectError(
      await v(26).post('/activations-advanced', fullBody(cuApp, { features: ['SYNCHRONIZATION'] })),
      400,
      'MessageNotReadable',
    );
  });

  it('bounds the v15 device fields of generate-production-number and the connection code field', async () => {
    const device = { deviceId: 'd', applicationPackage: plainApp.applicationPackage };
    const tooLongDevice = await v(15).post(
      '/noauth/activations/generate-production-number',
      { ...device, deviceId: long(18) },
      { as: 'none' },
    );
    expectError(tooLongDevice, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_IN_RANGE');
    expect(detailOf(tooLongDevice)).toEqual({
      field: 'deviceId',
      actualValue: 18,
      sizeMin: 1,
      sizeMax: 17,
    });
    const code = await v(33).post(
      '/activations/connection',
      { installation: { ...device, buildInfo: {} }, activationCode: long(65) },
      { as: 'none' },
    );
    expectError(code, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_LESS_THEN');
  });

  it('serves only the current public key: another file name is 404 NotFound', async () => {
    expectError(
      await v(33).get('/noauth/activations/public-keys/activation-key-0000000000000000.pem', { as: 'none' }),
      404,
      'NotFound',
    );
  });
});
