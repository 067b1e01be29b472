/** A seller's registers (spec 4.7 registrations) and the device and installation overviews (spec 4.8). */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { saleOf } from '../support/fiscal.ts';
import { call, expectError, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId, userOf } from '../support/identity.ts';

const deviceId = () => randomUUID().replace(/-/g, '').slice(0, 16);

let vendor: number;
let app: { applicationPackage: string; name: string };
let sellerId: string;
let corporateId: string;
const registers: { name: string; productionNumber: string; activationId: number; apiKey: string; deviceId: string }[] = [];

async function register(name: string) {
  const device = deviceId();
  const answer = await v(33).post('/activations-advanced', {
    country: 'SE',
    corporateId,
    companyName: 'Registerbutiken',
    cashRegisterName: name,
    features: [],
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    applicationPackage: app.applicationPackage,
    installationCreationInfo: { deviceId: device, buildInfo: { os: 'Android 14', model: 'T2' }, programVersion: '4.2.0' },
  });
  if (answer.status !== 201) throw new Error(answer.text);
  const body = answer.body as { productionNumber: string; activationId: number; apiKey: string };
  registers.push({ name, ...body, deviceId: device });
}

beforeAll(async () => {
  vendor = await newVendor();
  app = await newApp(vendor, { controlUnitRequired: false, corporateIdValidationMethod: 'NONE', name: 'Kassan' });
  corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  await register('Kassa A');
  await register('Kassa B');
  await v(33).put(`/activations/${registers[1]?.activationId}/status`, { status: 'CLOSED' });
});

describe('GET /{sellerId}/registrations', () => {
  it('lists registers per version: v15 names the installation by id, v26/v33 by production number', async () => {
    const v15 = (await v(15).get(`/${sellerId}/registrations`)).body as Record<string, unknown>[];
    const v33 = (await v(33).get(`/${sellerId}/registrations`)).body as Record<string, unknown>[];
    expect(v15.map((r) => Object.keys(r).sort())).toEqual(
      Array(2).fill(['cashRegisterName', 'corporateId', 'country', 'id', 'installationId']),
    );
    expect(v33).toEqual(
      registers.map((r) => ({
        id: expect.any(Number),
        cashRegisterName: r.name,
        country: 'SE',
        corporateId,
        productionNumber: r.productionNumber,
      })),
    );
  });

  it('keeps only registers whose latest activation is in use with activeOnly=true, and pages', async () => {
    const active = (await v(26).get(`/${sellerId}/registrations?activeOnly=true`)).body as { cashRegisterName: string }[];
    expect(active.map((r) => r.cashRegisterName)).toEqual(['Kassa A']);
    const second = (await v(33).get(`/${sellerId}/registrations?firstResult=1&maxResults=1&orderBy=cashRegisterName`)).body as {
      cashRegisterName: string;
    }[];
    expect(second.map((r) => r.cashRegisterName)).toEqual(['Kassa B']);
    expectError(await v(33).get(`/${sellerId}/registrations?activeOnly=maybe`), 400, 'TypeMismatch');
    expectError(await v(33).get(`/${sellerId}/registrations?maxResults=1001`), 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
  });

  it('advanced: each register with its seller, installation, device, application and build infoes', async () => {
    const [first] = (await v(33).get(`/${sellerId}/registrations-advanced?orderBy=cashRegisterName`)).body as Record<
      string,
      unknown
    >[];
    expect(first).toMatchObject({
      cashRegisterName: 'Kassa A',
      sellerInfo: { name: 'Registerbutiken', country: 'SE', corporateId, countActiveCashRegisters: 1 },
      installationInfo: {
        productionNumber: registers[0]?.productionNumber,
        deviceId: registers[0]?.deviceId,
        programVersion: '4.2.0',
      },
      deviceInfo: { deviceId: registers[0]?.deviceId },
      applicationDescriptionInfo: { applicationPackage: app.applicationPackage, name: 'Kassan' },
      buildInfoes: [
        { name: 'os', value: 'Android 14', installation: registers[0]?.productionNumber },
        { name: 'model', value: 'T2', installation: registers[0]?.productionNumber },
      ],
    });
  });
});

describe('one register', () => {
  it('detail (v26, v33) carries the activation and an ETag; If-None-Match answers 304', async () => {
    const answer = await v(33).get(`/${sellerId}/registrations/Kassa%20A`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      cashRegisterName: 'Kassa A',
      applicationName: 'Kassan',
      activationInfo: { id: registers[0]?.activationId, status: 'ACTIVE' },
      activationsAtSameRegistration: [],
      sellersAtSameInstallation: [{ country: 'SE', corporateId, cashRegisterName: 'Kassa A' }],
    });
    const etag = answer.headers.get('etag') ?? '';
    expect((await v(33).get(`/${sellerId}/registrations/Kassa%20A`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expectError(await v(33).get(`/${sellerId}/registrations/Kassa%20Z`), 404, 'NotFound');
  });

  it("version (v26, v33) is the register's own data version, 404 ReferenceNotFound for an unknown register", async () => {
    expect((await v(26).get(`/${sellerId}/registrations/Kassa%20A/version`)).body).toEqual({ version: 0 });
    expectError(await v(26).get(`/${sellerId}/registrations/Kassa%20Z/version`), 404, 'ReferenceNotFound');
  });

  it('DELETE closes its activations (the key is refused), honours If-Match, and frees the name; a register may not delete itself', async () => {
    const [, second] = registers;
    const target = `/${sellerId}/registrations/Kassa%20A`;
    const key = { as: { apiKey: registers[0]?.apiKey ?? '' } };
    expectError(await v(33).del(target, key), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(await v(33).del(target, { headers: { 'If-Match': '"999"' } }), 409, 'VersionConflict');
    expect((await v(33).get(`/${sellerId}/taxes`, key)).status).toBe(200);

    expect((await v(33).del(target)).status).toBe(204);

    expectError(await v(33).get(`/${sellerId}/taxes`, key), 403, 'Forbidden', 'ACTIVATION_CLOSED_ALREADY');
    expectError(await v(33).get(target), 404, 'NotFound');
    // The register's activation, read by the admin: closed, and naming no registration any more.
    const activation = (await v(33).get(`/activations/${registers[0]?.activationId}`)).body as {
      activationInfo: { status: string };
      registrationAdvancedInfo: { registrationInfo: unknown; sellerInfo: unknown };
    };
    expect(activation.activationInfo.status).toBe('CLOSED');
    expect(activation.registrationAdvancedInfo.registrationInfo).toBeNull();
    expect(activation.registrationAdvancedInfo.sellerInfo).toMatchObject({ corporateId });
    const names = ((await v(33).get(`/${sellerId}/registrations`)).body as { cashRegisterName: string }[]).map(
      (r) => r.cashRegisterName,
    );
    expect(names).toEqual([second?.name]);
    const exists = await v(33).post(
      '/noauth/activations/cash-register-name/existance',
      { corporateId, cashRegisterName: 'Kassa A' },
      { as: 'none' },
    );
    expect(exists.body).toEqual({ exists: false });
  });
});

describe('devices and installations', () => {
  it('the hyper admin and the vendor see the devices; a seller filter narrows; an unknown seller is 404 ReferenceNotFound', async () => {
    const own = await userOf('SOFTWARE_VENDOR', vendor);
    const all = (await v(33).get('/devices?maxResults=1000')).body as { deviceId: string }[];
    const mine = (await v(26).get('/devices', own)).body as { deviceId: string }[];
    const seller = (await v(33).get(`/devices?seller=${sellerId}`)).body as { deviceId: string }[];
    for (const { deviceId: id } of registers) {
      expect(all.map((d) => d.deviceId)).toContain(id);
      expect(mine.map((d) => d.deviceId)).toContain(id);
    }
    expect(seller.map((d) => d.deviceId).sort()).toEqual(registers.map((r) => r.deviceId).sort());
    expectError(await v(33).get('/devices?seller=SE0000000001'), 404, 'ReferenceNotFound');
    expectError(await v(33).get('/devices', await userOf('REGULAR_USER')), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
  });

  it('devices-overview shows the latest installation, application, build infoes and registers; one device by id, 404 for another vendor', async () => {
    const [first] = registers;
    const overview = (await v(33).get(`/devices-overview?seller=${sellerId}&like=${first?.deviceId}`)).body as object[];
    expect(overview).toEqual([
      {
        deviceId: first?.deviceId,
        latestInstallationInfo: expect.objectContaining({ productionNumber: first?.productionNumber, programVersion: '4.2.0' }),
        deviceInfo: { deviceId: first?.deviceId },
        applicationDescriptionInfo: {
          applicationPackage: app.applicationPackage,
          productionNumberPrefix: 'KA',
          controlUnitRequired: false,
          name: 'Kassan',
          softwareVendor: vendor,
          autoActivationCondition: 'NO_FEATURES',
          corporateIdValidationMethod: 'NONE',
        },
        buildInfoes: expect.any(Array),
        registrationOverviewInfoes: [],
      },
    ]);
    expect((await v(26).get(`/devices-overview/${first?.deviceId}`)).status).toBe(200);
    const stranger = await userOf('SOFTWARE_VENDOR', await newVendor('Främling'));
    expectError(await v(26).get(`/devices-overview/${first?.deviceId}`, stranger), 404, 'NotFound');
  });

  it("build-infoes: the installation's pairs for its vendor, its seller's register and the admin; 404 for an unknown number; 403 for others", async () => {
    const [, second] = registers;
    const path = `/installations/${second?.productionNumber}/build-infoes`;
    const expected = [
      { name: 'os', value: 'Android 14', installation: second?.productionNumber },
      { name: 'model', value: 'T2', installation: second?.productionNumber },
    ];
    for (const api of [15, 26, 33] as const) expect((await call('GET', `/v${api}${path}`)).body).toEqual(expected);
    expect((await v(33).get(path, await userOf('SOFTWARE_VENDOR', vendor))).body).toEqual(expected);
    expectError(
      await v(33).get(path, await userOf('SOFTWARE_VENDOR', await newVendor('X'))),
      403,
      'Forbidden',
      'INSUFFICIENT_ACCESS_RIGHTS',
    );
    expectError(await v(33).get('/installations/NOPE000001/build-infoes'), 404, 'NotFound');
  });
});

describe('the seller overview', () => {
  it('turnover: what the registers took since their first days, refunds less, training receipts not at all', async () => {
    // Prepare: a new register sells 100.00, refunds 30.00 and trains for 7.00; Kassa B (its activation closed) sells nothing.
    await register('Kassa T');
    const as = { apiKey: registers.at(-1)?.apiKey ?? '' };
    const printed = [{ printType: 'Normal' }];
    const sales = [
      saleOf(10_000, { prints: printed }),
      saleOf(3_000, { refund: true, refundFor: 1, prints: printed }),
      saleOf(700, { training: true }),
    ];
    const posted = [];
    for (const sale of sales) posted.push(await v(33).post(`/${sellerId}/registrations/Kassa%20T/sales`, sale, { as }));

    // Act
    const advanced = (await v(33).get(`/${sellerId}/registrations-advanced`)).body as { sellerInfo: { turnover: number } }[];
    const detail = async (cash: string) =>
      ((await v(33).get(`/${sellerId}/registrations/${cash}`)).body as { sellerOverviewInfo: { turnover: number } })
        .sellerOverviewInfo.turnover;

    // Assess: 10000 - 3000, by hand; each row of the list names the seller's whole turnover, a detail its register's.
    expect(posted.map(({ status, text }) => (status === 201 ? status : text))).toEqual([201, 201, 201]);
    expect(advanced.length).toBeGreaterThan(1);
    expect(new Set(advanced.map(({ sellerInfo }) => sellerInfo.turnover))).toEqual(new Set([7_000]));
    expect([await detail('Kassa%20T'), await detail('Kassa%20B')]).toEqual([7_000, 0]);
  });
});
