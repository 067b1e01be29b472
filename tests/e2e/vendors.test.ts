import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newApiKey, storeApiKey } from '#shared/auth/api-keys.ts';
import { reference, transact } from '#shared/db/transact.ts';
import { referenceNotFound } from '#shared/errors.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import { type Answer, type CallOptions, detailOf, expectError, newSeller, omit, v } from '../support/http.ts';
import { appOf, DAY, newApp, newVendor, userOf } from '../support/identity.ts';
import { applicationKeys } from '#shared/domain/records.ts';

/** Counts one installation more (or fewer) of an application, as installations will (another group). */
const referenceApp = (applicationPackage: string, delta: 1 | -1) =>
  transact([reference(applicationKeys.application(applicationPackage), () => referenceNotFound('no application'), delta)]);

const appPath = (app: { applicationPackage: string }) => `/application-descriptions/${app.applicationPackage}`;

describe.each(ALL_VERSIONS)('software vendors in v%i', (api) => {
  const client = v(api);

  it('POST numbers the vendor (201 {id}); GET reads it with its ETag; PUT renames (204); DELETE removes (204)', async () => {
    const created = await client.post('/software-vendors', { name: 'Kassa AB', id: 7 });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number };
    expect(Number.isInteger(id) && id > 0).toBe(true);
    expect(created.body).toEqual({ id });

    const read = await client.get(`/software-vendors/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ id, name: 'Kassa AB', supportEmail: null });
    expect(read.headers.get('etag')).toBe('"1"');

    expect((await client.put(`/software-vendors/${id}`, { name: 'Kassa Nordic AB' })).status).toBe(204);
    const renamed = await client.get(`/software-vendors/${id}`);
    expect(renamed.body).toEqual({ id, name: 'Kassa Nordic AB', supportEmail: null });
    expect(renamed.headers.get('etag')).toBe('"2"');

    expect((await client.del(`/software-vendors/${id}`)).status).toBe(204);
    expectError(await client.get(`/software-vendors/${id}`), 404, 'NotFound');
    expectError(await client.del(`/software-vendors/${id}`), 404, 'NotFound');
    expectError(await client.put(`/software-vendors/${id}`, { name: 'x' }), 404, 'NotFound');
  });

  it('numbers vendors one after the other', async () => {
    const first = await newVendor();
    const second = await newVendor();
    expect(second).toBeGreaterThan(first);
  });

  it('lists the vendors as {id, name, supportEmail} in id order, with LIST parameters', async () => {
    const token = randomUUID().slice(0, 8);
    const ids = [await newVendor(`B ${token}`), await newVendor(`A ${token}`), await newVendor(`C ${token}`)];
    const list = await client.get(`/software-vendors?like=${token}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: ids[0], name: `B ${token}`, supportEmail: null },
      { id: ids[1], name: `A ${token}`, supportEmail: null },
      { id: ids[2], name: `C ${token}`, supportEmail: null },
    ]);
    const byName = await client.get(`/software-vendors?like=${token}&orderBy=name&firstResult=1&maxResults=1`);
    expect(byName.body).toEqual([{ id: ids[0], name: `B ${token}`, supportEmail: null }]);
    expectError(await client.get('/software-vendors?maxResults=1001'), 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
  });

  it('a GET with If-None-Match of the current revision is 304; a PUT or DELETE with a stale If-Match is 409', async () => {
    const id = await newVendor('Tagged');
    expect((await client.get(`/software-vendors/${id}`, { headers: { 'If-None-Match': '"1"' } })).status).toBe(304);
    await client.put(`/software-vendors/${id}`, { name: 'Tagged 2' }, { headers: { 'If-Match': '"1"' } });
    expectError(
      await client.put(`/software-vendors/${id}`, { name: 'Tagged 3' }, { headers: { 'If-Match': '"1"' } }),
      409,
      'VersionConflict',
    );
    expectError(await client.del(`/software-vendors/${id}`, { headers: { 'If-Match': '"1"' } }), 409, 'VersionConflict');
    expect((await client.get(`/software-vendors/${id}`)).body).toEqual({ id, name: 'Tagged 2', supportEmail: null });
  });
});

describe.each(ALL_VERSIONS)('application descriptions in v%i', (api) => {
  const client = v(api);
  let vendor: number;

  beforeAll(async () => {
    vendor = await newVendor();
  });

  it('POST creates (201 with its package as identifier); GET shows the version view with its ETag; PUT updates (204); DELETE removes (204)', async () => {
    const app = appOf(vendor);
    const created = await client.post('/application-descriptions', app);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ identifier: app.applicationPackage });

    const read = await client.get(appPath(app));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(api === 33 ? { ...app, geolocation: null } : app);
    expect(read.headers.get('etag')).toBe('"1"');

    const changed = { ...app, name: 'Kassa Pro', productionNumberPrefix: 'KP', autoActivationCondition: 'ALWAYS' };
    expect((await client.put(appPath(app), changed)).status).toBe(204);
    expect((await client.get(appPath(app))).body).toMatchObject({ name: 'Kassa Pro', productionNumberPrefix: 'KP' });

    expect((await client.del(appPath(app))).status).toBe(204);
    expectError(await client.get(appPath(app)), 404, 'NotFound');
    expectError(await client.del(appPath(app)), 404, 'NotFound');
  });

  it('POST of a package that exists is 409 VersionConflict; PUT of one that does not is 404 NotFound', async () => {
    const app = await newApp(vendor);
    expectError(await client.post('/application-descriptions', { ...app, name: 'Other' }), 409, 'VersionConflict');
    expect((await client.get(appPath(app))).body).toMatchObject({ name: 'Kassa' });
    const unknown = appOf(vendor);
    expectError(await client.put(appPath(unknown), unknown), 404, 'NotFound');
  });

  it('a PUT whose body names another package than the URL is 409 URL_AND_BODY_IDENTIFIERS_MISMATCH and changes nothing', async () => {
    const app = await newApp(vendor);
    expectError(
      await client.put(appPath(app), { ...app, applicationPackage: 'se.example.other', name: 'Changed' }),
      409,
      'InconsistentData',
      'URL_AND_BODY_IDENTIFIERS_MISMATCH',
    );
    expect((await client.get(appPath(app))).body).toMatchObject({ name: 'Kassa' });
  });

  it('an unknown software vendor is 404 ReferenceNotFound, on POST and on a PUT that moves the application', async () => {
    const app = appOf(2_000_000_000);
    expectError(await client.post('/application-descriptions', app), 404, 'ReferenceNotFound');
    expectError(await client.get(appPath(app)), 404, 'NotFound');
    const existing = await newApp(vendor);
    expectError(await client.put(appPath(existing), { ...existing, softwareVendor: 2_000_000_000 }), 404, 'ReferenceNotFound');
    expect((await client.get(appPath(existing))).body).toMatchObject({ softwareVendor: vendor });
  });

  it('lists the applications with LIST parameters', async () => {
    const token = randomUUID().slice(0, 8);
    const second = await newApp(vendor, { applicationPackage: `se.${token}.b`, name: 'A' });
    const first = await newApp(vendor, { applicationPackage: `se.${token}.a`, name: 'B' });
    const view = (app: object) => (api === 33 ? { ...app, geolocation: null } : app);
    expect((await client.get(`/application-descriptions?like=${token}`)).body).toEqual([view(first), view(second)]);
    expect((await client.get(`/application-descriptions?like=${token}&orderBy=name`)).body).toEqual([view(second), view(first)]);
    expect((await client.get(`/application-descriptions?like=${token}&maxResults=1&firstResult=1`)).body).toEqual([view(second)]);
  });
});

describe('application geolocation (v33 only)', () => {
  it('v33 writes and shows it; v15 and v26 neither show nor change it; a v33 null clears it', async () => {
    const vendor = await newVendor();
    const geolocation = { city: 'Lund', postalCode: '22100' };
    const app = await newApp(vendor, { geolocation });
    expect((await v(33).get(appPath(app))).body).toEqual({ ...app, geolocation });
    expect((await v(15).get(appPath(app))).body).not.toHaveProperty('geolocation');

    const v15Body = omit(app, 'geolocation');
    expect((await v(15).put(appPath(app), { ...v15Body, name: 'Via v15', geolocation: null })).status).toBe(204);
    expect((await v(26).put(appPath(app), { ...v15Body, name: 'Via v26' })).status).toBe(204);
    expect((await v(33).get(appPath(app))).body).toEqual({ ...app, name: 'Via v26', geolocation });

    expect((await v(33).put(appPath(app), { ...app, geolocation: null })).status).toBe(204);
    expect((await v(33).get(appPath(app))).body).toMatchObject({ geolocation: null });
  });
});

describe('references', () => {
  it('a vendor with an application is 422 SOFTWARE_VENDOR_HAS_REFERENCED_DATA until the application is gone', async () => {
    const vendor = await newVendor();
    const app = await newApp(vendor);
    expectError(
      await v(33).del(`/software-vendors/${vendor}`),
      422,
      'UnprocessableEntity',
      'SOFTWARE_VENDOR_HAS_REFERENCED_DATA',
    );
    expect((await v(33).get(`/software-vendors/${vendor}`)).status).toBe(200);
    expect((await v(33).del(appPath(app))).status).toBe(204);
    expect((await v(33).del(`/software-vendors/${vendor}`)).status).toBe(204);
  });

  it('moving an application to another vendor moves the reference', async () => {
    const [from, to] = [await newVendor(), await newVendor()];
    const app = await newApp(from);
    expect((await v(26).put(appPath(app), { ...app, softwareVendor: to })).status).toBe(204);
    expect((await v(33).get(appPath(app))).body).toMatchObject({ softwareVendor: to });
    expect((await v(33).del(`/software-vendors/${from}`)).status).toBe(204);
    expectError(await v(33).del(`/software-vendors/${to}`), 422, 'UnprocessableEntity', 'SOFTWARE_VENDOR_HAS_REFERENCED_DATA');
  });

  it('an application with an installation is 422 APP_DESC_HAS_REFERENCED_DATA until the reference is gone', async () => {
    const vendor = await newVendor();
    const app = await newApp(vendor);
    await referenceApp(app.applicationPackage, 1);
    expectError(await v(15).del(appPath(app)), 422, 'UnprocessableEntity', 'APP_DESC_HAS_REFERENCED_DATA');
    expect((await v(33).get(appPath(app))).status).toBe(200);
    // The installation's count survives an update of the application.
    expect((await v(33).put(appPath(app), { ...app, name: 'Renamed' })).status).toBe(204);
    expectError(await v(33).del(appPath(app)), 422, 'UnprocessableEntity', 'APP_DESC_HAS_REFERENCED_DATA');
    await referenceApp(app.applicationPackage, -1);
    expect((await v(33).del(appPath(app))).status).toBe(204);
  });

  it('two concurrent creations of one application: one 201, one 409, and the vendor counts it once', async () => {
    const vendor = await newVendor();
    const app = appOf(vendor);
    const answers = await Promise.all([1, 2].map(() => v(33).post('/application-descriptions', app)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect((await v(33).del(appPath(app))).status).toBe(204);
    expect((await v(33).del(`/software-vendors/${vendor}`)).status).toBe(204);
  });

  it('concurrent creations of different applications are all counted', async () => {
    const vendor = await newVendor();
    const apps = Array.from({ length: 5 }, () => appOf(vendor));
    const answers = await Promise.all(apps.map((app) => v(33).post('/application-descriptions', app)));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    for (const app of apps) {
      expectError(
        await v(33).del(`/software-vendors/${vendor}`),
        422,
        'UnprocessableEntity',
        'SOFTWARE_VENDOR_HAS_REFERENCED_DATA',
      );
      expect((await v(33).del(appPath(app))).status).toBe(204);
    }
    expect((await v(33).del(`/software-vendors/${vendor}`)).status).toBe(204);
  });
});

describe('validation', () => {
  let vendor: number;

  beforeAll(async () => {
    vendor = await newVendor();
  });

  const limits: [string, unknown, unknown, string][] = [
    // field, a value at the limit, one beyond it, the code for that one
    ['productionNumberPrefix', 'P'.repeat(12), 'P'.repeat(13), 'SIZE_SHOULD_BE_IN_RANGE'],
    ['productionNumberPrefix', 'P', '', 'SIZE_SHOULD_BE_IN_RANGE'],
    ['productionNumberPrefix', 'Ab9', 'AB-1', 'SHOULD_MATCH_PATTERN'],
    ['name', 'n'.repeat(64), 'n'.repeat(65), 'SIZE_SHOULD_BE_IN_RANGE'],
    ['name', 'n', '', 'SIZE_SHOULD_BE_IN_RANGE'],
    ['applicationPackage', `p${randomUUID()}`.padEnd(120, 'p'), `p${randomUUID()}`.padEnd(121, 'p'), 'SIZE_SHOULD_BE_IN_RANGE'],
    ['applicationPackage', `se.example.${randomUUID()}`, 'se/example', 'SHOULD_MATCH_PATTERN'],
    ['geolocation.city', 'c'.repeat(255), 'c'.repeat(256), 'SIZE_SHOULD_BE_LESS_THEN'],
    ['geolocation.postalCode', 'p'.repeat(255), 'p'.repeat(256), 'SIZE_SHOULD_BE_LESS_THEN'],
  ];

  /** The v33 body with `value` at the (possibly nested) field. */
  const withField = (field: string, value: unknown) => {
    const [head = '', nested] = field.split('.');
    const geolocation = { city: 'Lund', postalCode: '22100' };
    const base = appOf(vendor, { geolocation });
    return nested === undefined ? { ...base, [head]: value } : { ...base, geolocation: { ...geolocation, [nested]: value } };
  };

  it.each(limits)('%s: %j is accepted, %j is 400 ValueNotValid %s', async (field, allowed, beyond, code) => {
    const refused = await v(33).post('/application-descriptions', withField(field, beyond));
    expectError(refused, 400, 'ValueNotValid', code);
    const actualValue = code === 'SHOULD_MATCH_PATTERN' ? beyond : [...String(beyond)].length;
    expect(detailOf(refused)).toMatchObject({ field, actualValue });
    expect((await v(33).post('/application-descriptions', withField(field, allowed))).status).toBe(201);
  });

  it('the size and pattern details name the bounds and the pattern', async () => {
    expect(detailOf(await v(33).post('/application-descriptions', withField('name', '')))).toEqual({
      field: 'name',
      actualValue: 0,
      sizeMin: 1,
      sizeMax: 64,
    });
    expect(detailOf(await v(33).post('/application-descriptions', withField('productionNumberPrefix', 'AB-1')))).toEqual({
      field: 'productionNumberPrefix',
      actualValue: 'AB-1',
      pattern: '^[A-Za-z0-9]+$',
    });
  });

  it.each([
    'applicationPackage',
    'productionNumberPrefix',
    'controlUnitRequired',
    'name',
    'softwareVendor',
    'autoActivationCondition',
    'corporateIdValidationMethod',
  ])('%s is required: missing or null is 400 SHOULD_NOT_BE_NULL', async (field) => {
    const without = omit(appOf(vendor), field);
    const missing = await v(26).post('/application-descriptions', without);
    expectError(missing, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(missing)).toMatchObject({ field });
    expectError(
      await v(26).post('/application-descriptions', { ...without, [field]: null }),
      400,
      'ValueNotValid',
      'SHOULD_NOT_BE_NULL',
    );
  });

  it.each([
    ['autoActivationCondition', 'SOMETIMES'],
    ['corporateIdValidationMethod', 'validate_swedish'],
    ['controlUnitRequired', 'yes'],
    ['softwareVendor', String(1)],
  ])('%s = %j is 400 MessageNotReadable naming the field', async (field, value) => {
    const refused = await v(33).post('/application-descriptions', { ...appOf(vendor), [field]: value });
    expectError(refused, 400, 'MessageNotReadable');
    expect(detailOf(refused)).toMatchObject({ field });
  });

  it('softwareVendor is a Java int: 2^31 is 400 VALUE_SHOULD_BE_LESS_THEN', async () => {
    const refused = await v(33).post('/application-descriptions', appOf(2 ** 31));
    expectError(refused, 400, 'ValueNotValid', 'VALUE_SHOULD_BE_LESS_THEN');
    expect(detailOf(refused)).toMatchObject({ field: 'softwareVendor', valueMax: 2 ** 31 - 1 });
  });

  it.each([
    ['n'.repeat(96), 'n'.repeat(97)],
    ['n', ''],
  ])('vendor name %j is accepted, %j is 400 SIZE_SHOULD_BE_IN_RANGE', async (allowed, beyond) => {
    const refused = await v(15).post('/software-vendors', { name: beyond });
    expectError(refused, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_IN_RANGE');
    expect(detailOf(refused)).toMatchObject({ field: 'name', sizeMin: 1, sizeMax: 96 });
    expect((await v(15).post('/software-vendors', { name: allowed })).status).toBe(201);
    expectError(
      await v(15).put(`/software-vendors/${vendor}`, { name: beyond }),
      400,
      'ValueNotValid',
      'SIZE_SHOULD_BE_IN_RANGE',
    );
  });

  it('a vendor needs a name (SHOULD_NOT_BE_NULL); a vendor id in a path is a whole number not below zero', async () => {
    expectError(await v(33).post('/software-vendors', {}), 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expectError(await v(33).get('/software-vendors/x'), 400, 'TypeMismatch');
    expectError(await v(33).get('/software-vendors/-1'), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
    expectError(await v(33).get('/software-vendors/2000000000'), 404, 'NotFound');
  });

  it('a method a path lacks is 405', async () => {
    expectError(await v(33).post(`/software-vendors/${vendor}`, { name: 'x' }), 405, 'RequestMethodNotSupported');
    expectError(await v(33).put('/application-descriptions', appOf(vendor)), 405, 'RequestMethodNotSupported');
  });
});

describe('access', () => {
  let own: number;
  let other: number;
  let vendorUser: CallOptions;
  let ownApp: ReturnType<typeof appOf>;
  let otherApp: ReturnType<typeof appOf>;

  beforeAll(async () => {
    [own, other] = [await newVendor('Own'), await newVendor('Other')];
    vendorUser = await userOf('SOFTWARE_VENDOR', own);
    ownApp = await newApp(own);
    otherApp = await newApp(other);
  });

  it('a vendor user reads and renames its own vendor, and only sees it in the list', async () => {
    expect((await v(26).get(`/software-vendors/${own}`, vendorUser)).body).toEqual({ id: own, name: 'Own', supportEmail: null });
    expect((await v(26).get('/software-vendors', vendorUser)).body).toEqual([{ id: own, name: 'Own', supportEmail: null }]);
    expect((await v(26).put(`/software-vendors/${own}`, { name: 'Own' }, vendorUser)).status).toBe(204);
  });

  it('a vendor user may not read or rename another vendor, nor create or delete vendors: 403 INSUFFICIENT_ACCESS_RIGHTS', async () => {
    const refused = (answer: Answer) => expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    refused(await v(33).get(`/software-vendors/${other}`, vendorUser));
    refused(await v(33).put(`/software-vendors/${other}`, { name: 'Mine now' }, vendorUser));
    refused(await v(33).post('/software-vendors', { name: 'New' }, vendorUser));
    refused(await v(33).del(`/software-vendors/${own}`, vendorUser));
    expect((await v(33).get(`/software-vendors/${other}`)).body).toEqual({ id: other, name: 'Other', supportEmail: null });
  });

  it("a vendor user manages its own vendor's applications and sees only them", async () => {
    const app = appOf(own);
    expect((await v(33).post('/application-descriptions', app, vendorUser)).status).toBe(201);
    expect((await v(33).get(appPath(app), vendorUser)).status).toBe(200);
    expect((await v(33).put(appPath(app), { ...app, name: 'Mine' }, vendorUser)).status).toBe(204);
    const listed = (await v(33).get('/application-descriptions', vendorUser)).body as { softwareVendor: number }[];
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(listed.every((item) => item.softwareVendor === own)).toBe(true);
    expect((await v(33).del(appPath(app), vendorUser)).status).toBe(204);
  });

  it("a vendor user may not touch another vendor's applications nor give its own away: 403", async () => {
    const refused = (answer: Answer) => expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    refused(await v(33).post('/application-descriptions', appOf(other), vendorUser));
    refused(await v(33).get(appPath(otherApp), vendorUser));
    refused(await v(33).put(appPath(otherApp), { ...otherApp, softwareVendor: own }, vendorUser));
    refused(await v(33).put(appPath(ownApp), { ...ownApp, softwareVendor: other }, vendorUser));
    refused(await v(33).del(appPath(otherApp), vendorUser));
    expect((await v(33).get(appPath(otherApp))).body).toMatchObject({ softwareVendor: other });
    expect((await v(33).get(appPath(ownApp))).body).toMatchObject({ softwareVendor: own });
  });

  it('regular users and registers are refused everything here: 403 INSUFFICIENT_ACCESS_RIGHTS', async () => {
    const apiKey = newApiKey();
    await storeApiKey(apiKey, {
      activationId: Math.floor(Math.random() * 1e9),
      sellerId: await newSeller(),
      cashRegisterName: 'Kassa 1',
      status: 'WORKING',
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      features: [],
    });
    for (const caller of [await userOf('REGULAR_USER'), { as: { apiKey } }]) {
      for (const answer of [
        await v(33).get('/software-vendors', caller),
        await v(33).get(`/software-vendors/${own}`, caller),
        await v(33).put(`/software-vendors/${own}`, { name: 'x' }, caller),
        await v(33).post('/software-vendors', { name: 'x' }, caller),
        await v(33).get('/application-descriptions', caller),
        await v(33).get(appPath(ownApp), caller),
        await v(33).post('/application-descriptions', appOf(own), caller),
        await v(33).del(appPath(ownApp), caller),
      ]) {
        expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
      }
    }
  });

  it('no credentials is 401', async () => {
    expectError(await v(33).get('/software-vendors', { as: 'none' }), 401, 'Unauthorized');
    expectError(await v(33).get('/application-descriptions', { as: 'none' }), 401, 'Unauthorized');
  });
});
