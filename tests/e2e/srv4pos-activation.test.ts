/**
 * A register library written for srv4pos, replayed byte for byte (docs/compatibility.md): its activations-advanced
 * body (null period, REMOTE unit without a geolocation, `applicationNameAndVersion`, an address with `companyName`)
 * and its name-existence check, with the headers its HttpClient sends. What the service does not know is dropped and
 * never stored; what it knows is still validated.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readItem } from '#shared/db/reads.ts';
import { OPEN_END } from '#functions/activations/admin.ts';
import { contractViolation } from '../support/contract.ts';
import { type Answer, type CallOptions, detailOf, expectError, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId, userOf } from '../support/identity.ts';
import { libraryActivationJson, libraryExistenceJson, libraryHeaders } from '../support/srv4pos.ts';
import { sellerKeys } from '#shared/domain/seller.ts';
import { installationKey } from '#shared/domain/installations.ts';
import { activationKeys, controlUnitKeys, registrationKeys } from '#shared/domain/records.ts';

/** One request exactly as the library's HttpClient makes it: its headers only, the body as its serializer wrote it. */
async function asLibrary(path: string, json: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${inject('baseUrl')}${path}`, { method: 'POST', headers, body: json });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const body: unknown = text !== '' && contentType.startsWith('application/json') ? JSON.parse(text) : undefined;
  const violation = contractViolation({ method: 'POST', path, status: response.status, contentType, text, body });
  if (violation !== undefined) throw new Error(`Contract (docs/openapi): ${violation}`);
  return { status: response.status, headers: response.headers, body, text };
}

/** What the library reads of a created activation (its CreateActivationResponse DTO). */
interface LibraryResponse {
  apiKey: string | null;
  productionNumber: string | null;
  activationId: number;
  address?: string | null;
  zip?: string | null;
  city?: string | null;
  companyName?: string | null;
  phone?: string | null;
}

/** Strings of the library's body the service does not know: none may reach the table. */
const UNKNOWN = ['applicationNameAndVersion', 'SE Test app 1.0', 'companyName', 'Test company', 'Address line 1'];

let vendor: number;
let app: { applicationPackage: string };
let admin: Record<string, string>;

beforeAll(async () => {
  vendor = await newVendor('Hotellsystem AB');
  // Needs a control unit (REMOTE names one without a geolocation); Swedish corporate ids; a person activates.
  app = await newApp(vendor, { controlUnitRequired: true, autoActivationCondition: 'NEVER' });
  admin = libraryHeaders(inject('admin').username, inject('admin').password);
});

/** A seller registered under a fresh Luhn-valid corporate id; answers the corporate id. */
async function seller(): Promise<string> {
  const corporateId = swedishCorporateId();
  const answer = await v(33).put(`/sellers/SE${corporateId}`, {
    corporateId,
    country: 'SE',
    publicAccess: false,
    workHoursWeek: {},
    name: 'Hotellet AB',
    address: 'Hamngatan 2',
    zip: '111 47',
    city: 'Stockholm',
    phone: '+46 8 123 45 67',
  });
  if (answer.status !== 201) throw new Error(`seller not created: ${answer.status} ${answer.text}`);
  return corporateId;
}

const rawItems = async (activationId: number, corporateId: string, productionNumber: string) =>
  JSON.stringify(
    await Promise.all([
      readItem(activationKeys.activation(activationId)),
      readItem(registrationKeys.registration(`SE${corporateId}`, 'CashReg001')),
      readItem(installationKey(productionNumber)),
      readItem(controlUnitKeys.unit('PTEST900000000001')),
      readItem(sellerKeys.profile(`SE${corporateId}`)),
    ]),
  );

describe.each([26, 33] as const)('the library activates a register through v%i', (api) => {
  const path = `/v${api}/activations-advanced`;

  it('201 with what the library reads; a null period runs from now, open-ended; REMOTE needs no geolocation', async () => {
    // Prepare
    const corporateId = await seller();
    const before = Date.now();

    // Act
    const answer = await asLibrary(
      path,
      libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage }),
      admin,
    );

    // Assess
    expect(answer.status, answer.text).toBe(201);
    const created = answer.body as LibraryResponse;
    expect(created.apiKey).toMatch(/^\S{32}$/);
    expect(Number.isInteger(created.activationId)).toBe(true);
    expect(created.productionNumber).toMatch(/^KA\d{6,}$/);
    if (api === 33) {
      expect(created).toMatchObject({ address: 'Hamngatan 2', zip: '111 47', city: 'Stockholm', phone: '+46 8 123 45 67' });
    }
    // The library also reads `companyName`, which no version of the specification answers: it reads null.
    expect(created.companyName).toBeUndefined();

    const read = await v(api).get(`/activations/${created.activationId}`);
    const view = read.body as {
      activationInfo: Record<string, unknown>;
      controlUnitInfo: Record<string, unknown>;
      registrationAdvancedInfo: { installationAdvancedInfo: Record<string, unknown> };
    };
    expect(view.activationInfo).toMatchObject({
      status: 'ACTIVE',
      validTo: OPEN_END,
      controlUnitLocation: 'REMOTE',
      controlUnitGeolocation: null,
      features: ['CONTROL_UNIT'],
      contact: null,
      comment: null,
    });
    expect(view.activationInfo.validFrom).toBeGreaterThanOrEqual(before);
    expect(view.activationInfo.validFrom).toBeLessThanOrEqual(Date.now());
    expect(view.controlUnitInfo).toMatchObject({
      serial: 'PTEST900000000001',
      controlUnitLocation: 'REMOTE',
      geolocation: null,
      softwareVendor: vendor,
    });
    expect(view.registrationAdvancedInfo.installationAdvancedInfo).toMatchObject({
      deviceId: 'SERVER',
      applicationPackage: app.applicationPackage,
      ...(api === 33 ? { programVersion: 'SE Test app' } : {}),
    });

    // The key works at once: the period is in force.
    const code = await v(api).post('/activations/activation-code', undefined, { as: { apiKey: String(created.apiKey) } });
    expect(code.status, code.text).toBe(201);
  });

  it('stores nothing it does not know: the activation, registration, installation, unit and seller items as DynamoDB holds them', async () => {
    // Prepare
    const corporateId = await seller();

    // Act
    const answer = await asLibrary(
      path,
      libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage }),
      admin,
    );

    // Assess
    expect(answer.status, answer.text).toBe(201);
    const { activationId, productionNumber } = answer.body as LibraryResponse;
    const stored = await rawItems(activationId, corporateId, String(productionNumber));
    for (const unknown of UNKNOWN) expect(stored).not.toContain(unknown);
    const installation = await readItem(installationKey(String(productionNumber)));
    // v33 knows programVersion and stores it; v26 does not know it.
    expect(installation?.programVersion).toBe(api === 33 ? 'SE Test app' : null);
    expect(installation?.buildInfo).toEqual({});
  });

  it("a software vendor's user gets its key too; the activation waits for a person (the application never auto-activates)", async () => {
    // Prepare
    const corporateId = await seller();
    const user = (await userOf('SOFTWARE_VENDOR', vendor)) as CallOptions & { as: { basic: [string, string] } };
    const [username, password] = user.as.basic;

    // Act
    const answer = await asLibrary(
      path,
      libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage }),
      libraryHeaders(username, password),
    );

    // Assess
    expect(answer.status, answer.text).toBe(201);
    const { apiKey, activationId } = answer.body as LibraryResponse;
    expect(apiKey).toMatch(/^\S{32}$/);
    const read = await v(api).get(`/activations/${activationId}`);
    expect((read.body as { activationInfo: { status: string } }).activationInfo.status).toBe('ISSUED');
  });

  it('takes a period and a contact with an empty phone as given', async () => {
    // Prepare
    const corporateId = await seller();
    const validFrom = Date.UTC(2026, 0, 1);
    const validTo = Date.UTC(2027, 0, 1);
    const contactInfo = { name: 'Receptionen', email: 'reception@example.se', phone: '' };

    // Act
    const answer = await asLibrary(
      path,
      libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage, validFrom, validTo, contactInfo }),
      admin,
    );

    // Assess
    expect(answer.status, answer.text).toBe(201);
    const read = await v(api).get(`/activations/${(answer.body as LibraryResponse).activationId}`);
    expect((read.body as { activationInfo: unknown }).activationInfo).toMatchObject({ validFrom, validTo, contact: contactInfo });
  });

  it(`a seller it does not know: ${api === 33 ? "created, named by the address's companyName" : '422 COMPANY_NAME_MUST_BE_SET_IF_NO_SELLER (v26 has no registrationGeolocation)'}`, async () => {
    // Prepare: a new corporate id, as the library's own activation test draws one.
    const corporateId = swedishCorporateId();

    // Act
    const answer = await asLibrary(
      path,
      libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage }),
      admin,
    );

    // Assess
    if (api === 26) {
      expectError(answer, 422, 'UnprocessableEntity', 'COMPANY_NAME_MUST_BE_SET_IF_NO_SELLER');
      expect(await readItem(sellerKeys.profile(`SE${corporateId}`))).toBeUndefined();
      return;
    }
    expect(answer.status, answer.text).toBe(201);
    expect(await readItem(sellerKeys.profile(`SE${corporateId}`))).toMatchObject({ corporateId, name: 'Test company' });
  });

  it('a new unit on the device (DEVICE) without its geolocation is still 422 CU_LOCATION_MUST_BE_SET', async () => {
    // Prepare
    const corporateId = await seller();
    const json = libraryActivationJson({
      corporateId,
      applicationPackage: app.applicationPackage,
      controlUnitLocation: 'DEVICE',
      controlUnitSerial: `PTEST${api}${String(Date.now()).slice(-9)}`,
    });

    // Act
    const answer = await asLibrary(path, json, admin);

    // Assess
    expectError(answer, 422, 'UnprocessableEntity', 'CU_LOCATION_MUST_BE_SET');
  });

  it.each([
    ['cashRegisterName', { cashRegisterName: 'CashRegister00001' }, 'SIZE_SHOULD_BE_IN_RANGE'],
    ['contactInfo.phone', { contactInfo: { name: 'A', email: 'a@b.se', phone: '1'.repeat(256) } }, 'SIZE_SHOULD_BE_LESS_THEN'],
    [
      'installationCreationInfo.deviceId',
      { installationCreationInfo: { deviceId: 'S'.repeat(18), buildInfo: {} } },
      'SIZE_SHOULD_BE_IN_RANGE',
    ],
  ])('a known field out of bounds is still 400 ValueNotValid: %s', async (_, fields, code) => {
    // Prepare
    const corporateId = await seller();
    const body = JSON.parse(libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage })) as object;

    // Act
    const answer = await asLibrary(path, JSON.stringify({ ...body, ...fields }), admin);

    // Assess
    expectError(answer, 400, 'ValueNotValid', code);
  });

  it(`registrationGeolocation's city over 255 characters: ${api === 33 ? '400 ValueNotValid (v33 knows the field)' : 'dropped unread (v26 does not know the field)'}`, async () => {
    // Prepare
    const corporateId = await seller();
    const body = JSON.parse(libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage })) as object;
    const json = JSON.stringify({ ...body, registrationGeolocation: { address: 'A', city: 'x'.repeat(256), postalCode: '1' } });

    // Act
    const answer = await asLibrary(path, json, admin);

    // Assess
    if (api === 33) expectError(answer, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_LESS_THEN');
    else expect(answer.status, answer.text).toBe(201);
  });

  it('a validTo before the moment of issue is still 404 VALID_FROM_AND_VALID_TO_INCONSISTENCY', async () => {
    // Prepare
    const corporateId = await seller();
    const json = libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage, validTo: Date.now() - DAY });

    // Act
    const answer = await asLibrary(path, json, admin);

    // Assess
    expectError(answer, 404, 'ReferenceNotFound', 'VALID_FROM_AND_VALID_TO_INCONSISTENCY');
  });
});

it("v33 registrationGeolocation's address over 500 or companyName over 96 characters: 400 ValueNotValid", async () => {
  // Prepare
  const corporateId = await seller();
  const body = JSON.parse(libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage })) as object;
  const place = { address: 'Storgatan 1', city: 'Stockholm', postalCode: '111 22', companyName: 'Hotellet AB' };
  const withPlace = (fields: object) => JSON.stringify({ ...body, registrationGeolocation: { ...place, ...fields } });

  // Act
  const longAddress = await asLibrary('/v33/activations-advanced', withPlace({ address: 'a'.repeat(501) }), admin);
  const longCompany = await asLibrary('/v33/activations-advanced', withPlace({ companyName: 'c'.repeat(97) }), admin);
  const atTheBounds = await asLibrary(
    '/v33/activations-advanced',
    withPlace({ address: 'a'.repeat(500), companyName: 'c'.repeat(96) }),
    admin,
  );

  // Assess
  expectError(longAddress, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_LESS_THEN');
  expect(detailOf(longAddress)).toMatchObject({ field: 'registrationGeolocation.address', sizeMax: 500 });
  expectError(longCompany, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_IN_RANGE');
  expect(detailOf(longCompany)).toMatchObject({ field: 'registrationGeolocation.companyName', sizeMax: 96 });
  expect(atTheBounds.status, atTheBounds.text).toBe(201);
});

describe("the library's name-existence check", () => {
  it.each([15, 26, 33] as const)('v%i: 201 {"exists": false} for a free name, with the body the library sends', async (api) => {
    // Prepare
    const corporateId = await seller();

    // Act
    const answer = await asLibrary(
      `/v${api}/noauth/activations/cash-register-name/existance`,
      libraryExistenceJson(corporateId, 'CashReg001'),
      libraryHeaders(),
    );

    // Assess
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({ exists: false });
  });

  it('a taken name: v15 and v33 answer {"exists": true}, v26 400 NonUnique (which the library reads as a taken name)', async () => {
    // Prepare
    const corporateId = await seller();
    const activated = await asLibrary(
      '/v33/activations-advanced',
      libraryActivationJson({ corporateId, applicationPackage: app.applicationPackage }),
      admin,
    );
    expect(activated.status, activated.text).toBe(201);
    const check = (api: 15 | 26 | 33) =>
      asLibrary(
        `/v${api}/noauth/activations/cash-register-name/existance`,
        libraryExistenceJson(corporateId, 'CashReg001'),
        libraryHeaders(),
      );

    // Act
    const [v15, v26, v33] = await Promise.all([check(15), check(26), check(33)]);

    // Assess
    expect([v15.status, v15.body]).toEqual([201, { exists: true }]);
    expect([v33.status, v33.body]).toEqual([201, { exists: true }]);
    expectError(v26, 400, 'NonUnique');
  });
});

it('v15 has no activations-advanced: 404 ENDPOINT_NOT_FOUND', async () => {
  // Act
  const answer = await asLibrary(
    '/v15/activations-advanced',
    libraryActivationJson({ corporateId: swedishCorporateId(), applicationPackage: app.applicationPackage }),
    admin,
  );

  // Assess
  expectError(answer, 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
});
