import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedActivationCode, verifyActivationCode } from '#shared/signing/activation-code.ts';
import { call, expectError, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId } from '../support/identity.ts';

const period = () => ({ validFrom: Date.now() - DAY, validTo: Date.now() + 30 * DAY });
const deviceId = () => randomUUID().replace(/-/g, '').slice(0, 16);
const geolocation = { city: 'Stockholm', postalCode: '111 22' };

interface Activated {
  apiKey: string | null;
  productionNumber: string | null;
  activationId: number;
}

const key = (apiKey: string | null) => ({ as: { apiKey: apiKey ?? '' } });

/** The public key named by the code, fetched without credentials as a register would. */
async function publicKeyOf(api: 15 | 26 | 33, code: SignedActivationCode & { publicKeyFileName?: string }, fileName?: string) {
  const answer = await call('GET', `/v${api}/noauth/activations/public-keys/${fileName ?? code.publicKeyFileName}`, {
    as: 'none',
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/x-pem-file');
  return answer.text;
}

let vendor: number;
let app: Awaited<ReturnType<typeof newApp>>;
let noCuApp: Awaited<ReturnType<typeof newApp>>;

beforeAll(async () => {
  vendor = await newVendor();
  app = await newApp(vendor, { controlUnitRequired: true, autoActivationCondition: 'NEVER' });
  noCuApp = await newApp(vendor, {
    controlUnitRequired: false,
    autoActivationCondition: 'ALWAYS',
    corporateIdValidationMethod: 'NONE',
  });
});

describe.each([33, 26] as const)('a register activated in v%i', (api) => {
  it('walks: vendor and app -> activations-advanced with a new installation -> the key reads its taxes -> the code verifies offline -> CLOSED -> refused', async () => {
    // Prepare
    const corporateId = swedishCorporateId();
    const sellerId = `SE${corporateId}`;
    const client = v(api);

    // Act: the admin activates a new register of a seller that does not exist yet
    const answer = await client.post('/activations-advanced', {
      country: 'SE',
      corporateId,
      companyName: 'Hörnkiosken AB',
      cashRegisterName: 'Kassa 1',
      features: api === 33 ? ['SYNCHRONIZATION', 'VOUCHERS'] : ['SYNCRONIZATION', 'VOUCHERS'],
      ...period(),
      applicationPackage: app.applicationPackage,
      controlUnitSerial: `CU${randomUUID().slice(0, 8)}`,
      controlUnitLocation: 'DEVICE',
      controlUnitGeolocation: geolocation,
      installationCreationInfo: { deviceId: deviceId(), buildInfo: { os: 'Android 14' } },
    });

    // Assess
    expect(answer.status).toBe(201);
    const activated = answer.body as Activated;
    expect(activated.apiKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(activated.productionNumber).toMatch(/^KA\d{6,}$/);
    expect(Object.keys(answer.body as object).sort()).toEqual(
      api === 33
        ? ['activationId', 'address', 'apiKey', 'city', 'phone', 'productionNumber', 'zip']
        : ['activationId', 'apiKey', 'productionNumber'],
    );

    // The seller was created from the company name, and the register's key reads its data.
    expect((await client.get(`/sellers/${sellerId}`)).body).toMatchObject({ name: 'Hörnkiosken AB', corporateId });
    await client.put(`/${sellerId}/taxes/moms`, { vat: 25, name: 'Moms' });
    const taxes = await client.get(`/${sellerId}/taxes`, key(activated.apiKey));
    expect(taxes.status).toBe(200);
    expect(taxes.body).toEqual([{ identifier: 'moms', vat: 25, name: 'Moms', custom: null, deleted: false }]);

    // The first call moved it from ACTIVE to WORKING.
    const admin = await client.get(`/activations/${activated.activationId}`);
    expect((admin.body as { activationInfo: { status: string } }).activationInfo.status).toBe('WORKING');

    // The signed code verifies offline with the served key; a tampered one does not.
    const codeAnswer = await client.post('/activations/activation-code', undefined, key(activated.apiKey));
    expect(codeAnswer.status).toBe(201);
    const code = codeAnswer.body as SignedActivationCode & { publicKeyFileName: string };
    expect(code.activationInfoVersion).toBe(2);
    const pem = await publicKeyOf(api, code);
    const verified = verifyActivationCode(code, pem);
    expect(verified.valid).toBe(true);
    if (verified.valid) {
      expect(verified.descriptor).toMatchObject({
        activationId: activated.activationId,
        corporateId,
        cashRegisterName: 'Kassa 1',
        productionNumber: activated.productionNumber,
        features: api === 33 ? ['VOUCHERS', 'SYNCHRONIZATION'] : ['VOUCHERS', 'SYNCRONIZATION'],
      });
    }
    const tampered = { ...code, activationDescriptorInfo: code.activationDescriptorInfo.replace('Kassa 1', 'Kassa 2') };
    expect(verifyActivationCode(tampered, pem).valid).toBe(false);

    // Closing it refuses the key on its very next call.
    expect((await client.put(`/activations/${activated.activationId}/status`, { status: 'CLOSED' })).status).toBe(204);
    expectError(await client.get(`/${sellerId}/taxes`, key(activated.apiKey)), 403, 'Forbidden', 'ACTIVATION_CLOSED_ALREADY');
    expectError(
      await client.post('/activations/activation-code', undefined, key(activated.apiKey)),
      403,
      'Forbidden',
      'ACTIVATION_CLOSED_ALREADY',
    );
  });
});

describe('a register activated in v15', () => {
  it('walks: generate-production-number -> order-activation -> activation-code, which verifies offline', async () => {
    // Prepare
    const client = v(15);
    const device = deviceId();
    const corporateId = swedishCorporateId();

    // Act
    const numbered = await client.post(
      '/noauth/activations/generate-production-number',
      {
        deviceId: device,
        applicationPackage: noCuApp.applicationPackage,
        buildInfo: { model: 'T2' },
        gcmRegistrationId: 'gcm-1',
      },
      { as: 'none' },
    );
    const { productionNumber } = numbered.body as { productionNumber: string };
    const ordered = await client.post(
      '/noauth/activations/order-activation',
      {
        installationOrderInfo: { deviceId: device, applicationPackage: noCuApp.applicationPackage },
        productionNumber,
        country: 'SE',
        corporateId,
        companyName: 'Bageriet',
        contactInfo: { name: 'Anna', phone: '+46 8 123', email: 'anna@example.com' },
        activationDetailsInfo: { ...period(), features: ['SYNCRONIZATION', 'MULTIUSERS'] },
        cashRegisterName: 'Disk',
      },
      { as: 'none' },
    );
    const { activationSecurityToken } = ordered.body as { activationSecurityToken: string };
    const code = await client.get('/activations/activation-code', key(activationSecurityToken));

    // Assess
    expect(numbered.status).toBe(201);
    expect(productionNumber).toMatch(/^KA\d{6,}$/);
    expect(ordered.status).toBe(201);
    expect(code.status).toBe(200);
    const signed = code.body as SignedActivationCode;
    expect(Object.keys(signed).sort()).toEqual(['activationDescriptorInfo', 'activationInfoVersion', 'signature']);
    const descriptor = JSON.parse(signed.activationDescriptorInfo) as { features: string[]; productionNumber: string };
    expect(descriptor.features).toEqual(['SYNCRONIZATION', 'MULTIUSERS']);
    expect(descriptor.productionNumber).toBe(productionNumber);
    const v26Code = await v(26).post('/activations/activation-code', undefined, key(activationSecurityToken));
    const fileName = (v26Code.body as { publicKeyFileName: string }).publicKeyFileName;
    expect(verifyActivationCode(signed, await publicKeyOf(15, signed, fileName)).valid).toBe(true);
  });

  it('an order the application does not auto-activate stays ISSUED until an administrator activates it', async () => {
    const device = deviceId();
    const serial = `CU${randomUUID().slice(0, 8)}`;
    const ordered = await v(15).post(
      '/noauth/activations/order-activation',
      {
        installationOrderInfo: { deviceId: device, applicationPackage: app.applicationPackage },
        country: 'SE',
        corporateId: swedishCorporateId(),
        companyName: 'Caféet',
        activationDetailsInfo: { ...period(), controlUnitSerial: serial, controlUnitLocation: 'DEVICE' },
        deviceLocation: { address: 'Storgatan 1', ...geolocation },
        cashRegisterName: 'Kassa',
      },
      { as: 'none' },
    );
    expect(ordered.status).toBe(201);
    const token = (ordered.body as { activationSecurityToken: string }).activationSecurityToken;
    expectError(await v(15).get('/activations/activation-code', key(token)), 403, 'Forbidden', 'ACTIVATION_STILL_ISSUED');
    // The unit's geolocation as each version shows it: the street address the v15 order gave is v15's alone.
    const geolocationIn = async (api: 15 | 26 | 33) =>
      ((await v(api).get(`/control-units/${serial}`)).body as { geolocation: unknown }).geolocation;
    expect(await geolocationIn(15)).toEqual({ address: 'Storgatan 1', ...geolocation });
    expect([await geolocationIn(26), await geolocationIn(33)]).toEqual([geolocation, geolocation]);
  });
});
