import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newApiKey, storeApiKey } from '#shared/auth/api-keys.ts';
import { type Answer, type CallOptions, detailOf, expectError, newSeller, omit, v } from '../support/http.ts';
import { DAY, userOf } from '../support/identity.ts';

const SINCE_26 = [26, 33] as const;

const workHoursWeek = { MONDAY: { openTime: 660, closeTime: 1320 }, SUNDAY: null };

/** A complete v26/v33 restaurant of `sellerId`. */
const fullRestaurant = (sellerId: string, fields: Record<string, unknown> = {}) => ({
  country: sellerId.slice(0, 2),
  corporateId: sellerId.slice(2),
  name: 'Trattoria Blå',
  city: 'Lund',
  address: 'Storgatan 1',
  phone: '+46 46 12 34 56',
  workHours: '11-22',
  workHoursWeek,
  description: 'Pizza and pasta',
  averageBill: 25000,
  menu: [{ name: 'Pizza', products: ['margherita', 'capricciosa'], images: ['pizza.png'] }],
  images: ['logo.png', 'room.png'],
  custom: '{"tables":12}',
  ...fields,
});

/** The same restaurant as v15 writes and shows it: without workHoursWeek. */
const v15Restaurant = (sellerId: string, fields: Record<string, unknown> = {}) =>
  omit(fullRestaurant(sellerId, fields), 'workHoursWeek');

/** What the list shows of `fullRestaurant`. */
const listed = (sellerId: string, fields: Record<string, unknown> = {}) => ({
  country: 'SE',
  corporateId: sellerId.slice(2),
  name: 'Trattoria Blå',
  description: 'Pizza and pasta',
  city: 'Lund',
  address: 'Storgatan 1',
  averageBill: 25000,
  logo: 'logo.png',
  custom: '{"tables":12}',
  ...fields,
});

/** A register's API key for `sellerId`. */
async function registerOf(sellerId: string): Promise<CallOptions> {
  const apiKey = newApiKey();
  await storeApiKey(apiKey, {
    activationId: Math.floor(Math.random() * 1e9),
    sellerId,
    cashRegisterName: 'Kassa 1',
    status: 'WORKING',
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    features: [],
  });
  return { as: { apiKey } };
}

/** A seller (public unless told) with the full restaurant. */
async function sellerWithRestaurant(seller: Record<string, unknown> = {}, restaurant: Record<string, unknown> = {}) {
  const sellerId = await newSeller(seller);
  const answer = await v(33).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId, restaurant));
  if (answer.status !== 201) throw new Error(`restaurant not created: ${answer.status} ${answer.text}`);
  return sellerId;
}

/** Changes only the seller's publicAccess (as the hyper admin). */
async function setPublic(sellerId: string, publicAccess: boolean): Promise<void> {
  const answer = await v(33).put(`/sellers/${sellerId}`, {
    corporateId: sellerId.slice(2),
    country: 'SE',
    publicAccess,
    workHoursWeek: {},
  });
  expect(answer.status).toBe(204);
}

describe.each([15, 26, 33] as const)('restaurants in v%i', (api) => {
  const client = v(api);
  const body = (sellerId: string, fields: Record<string, unknown> = {}) =>
    api === 15 ? v15Restaurant(sellerId, fields) : fullRestaurant(sellerId, fields);

  it('PUT creates (201 with its identifier); GET reads it in the version view with its ETag; PUT updates (204)', async () => {
    const sellerId = await newSeller();
    const created = await client.put(`/restaurants/${sellerId}`, body(sellerId));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ identifier: sellerId });

    const read = await client.get(`/restaurants/${sellerId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(body(sellerId));
    expect(read.headers.get('etag')).toBe('"1"');

    const changed = body(sellerId, { name: 'Osteria', averageBill: 30000, menu: [], images: null });
    expect((await client.put(`/restaurants/${sellerId}`, changed)).status).toBe(204);
    const updated = await client.get(`/restaurants/${sellerId}`);
    expect(updated.body).toEqual(changed);
    expect(updated.headers.get('etag')).toBe('"2"');
  });

  it('a seller without a restaurant, and a seller that does not exist, are 404 NotFound', async () => {
    const sellerId = await newSeller();
    expectError(await client.get(`/restaurants/${sellerId}`), 404, 'NotFound');
    const unknown = `SE9${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    expectError(await client.get(`/restaurants/${unknown}`), 404, 'NotFound');
    expectError(await client.put(`/restaurants/${unknown}`, body(unknown)), 404, 'NotFound');
  });

  it('a body that names another seller than the URL is 409 URL_AND_BODY_IDENTIFIERS_MISMATCH and writes nothing', async () => {
    const sellerId = await newSeller();
    const other = await newSeller();
    for (const wrong of [body(other), body(sellerId, { country: 'NO' })]) {
      expectError(
        await client.put(`/restaurants/${sellerId}`, wrong),
        409,
        'InconsistentData',
        'URL_AND_BODY_IDENTIFIERS_MISMATCH',
      );
    }
    expectError(await client.get(`/restaurants/${sellerId}`), 404, 'NotFound');
  });

  it('a GET with If-None-Match of the current ETag is 304; a PUT with a stale If-Match is 409 and changes nothing', async () => {
    const sellerId = await sellerWithRestaurant();
    const unchanged = await client.get(`/restaurants/${sellerId}`, { headers: { 'If-None-Match': '"1"' } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    const tagged = { headers: { 'If-Match': '"1"' } };
    expect((await client.put(`/restaurants/${sellerId}`, body(sellerId, { name: 'A' }), tagged)).status).toBe(204);
    expectError(await client.put(`/restaurants/${sellerId}`, body(sellerId, { name: 'B' }), tagged), 409, 'VersionConflict');
    expectError(
      await client.put(`/restaurants/${sellerId}`, body(sellerId, { name: 'C' }), { headers: { 'If-None-Match': '*' } }),
      409,
      'VersionConflict',
    );
    expectError(
      await client.put(`/restaurants/${sellerId}`, body(sellerId, { name: 'D' }), { headers: { 'If-Match': 'v2' } }),
      400,
      'InvalidETagFormat',
    );
    expect((await client.get(`/restaurants/${sellerId}`)).body).toMatchObject({ name: 'A' });
  });
});

describe('restaurants across versions', () => {
  it('v15 shows every field but workHoursWeek; v26 and v33 show them all', async () => {
    const sellerId = await sellerWithRestaurant();
    expect((await v(15).get(`/restaurants/${sellerId}`)).body).toEqual(v15Restaurant(sellerId));
    expect((await v(26).get(`/restaurants/${sellerId}`)).body).toEqual(fullRestaurant(sellerId));
    expect((await v(33).get(`/restaurants/${sellerId}`)).body).toEqual(fullRestaurant(sellerId));
  });

  it('a v15 write keeps workHoursWeek, which only v26 and v33 have', async () => {
    const sellerId = await sellerWithRestaurant();
    const v15Body = { ...v15Restaurant(sellerId, { name: 'Via v15', description: null }), workHoursWeek: null };
    expect((await v(15).put(`/restaurants/${sellerId}`, v15Body)).status).toBe(204);
    expect((await v(33).get(`/restaurants/${sellerId}`)).body).toEqual(
      fullRestaurant(sellerId, { name: 'Via v15', description: null }),
    );
    // A v26 write replaces it, null included.
    expect((await v(26).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId, { workHoursWeek: null }))).status).toBe(204);
    expect((await v(33).get(`/restaurants/${sellerId}`)).body).toMatchObject({ workHoursWeek: null, name: 'Trattoria Blå' });
  });

  it.each(SINCE_26)(
    'v%i writes the lean shape {corporateId, averageBill}: the country comes from the URL, the rest is null',
    async (api) => {
      const sellerId = await newSeller();
      const lean = { corporateId: sellerId.slice(2), averageBill: 9900 };
      expect((await v(api).put(`/restaurants/${sellerId}`, lean)).status).toBe(201);
      const read = (await v(api).get(`/restaurants/${sellerId}`)).body as Record<string, unknown>;
      expect(read).toMatchObject({ ...lean, country: 'SE', name: null, menu: null, workHoursWeek: null });
      expect(Object.keys(read).sort()).toEqual(Object.keys(fullRestaurant(sellerId)).sort());
    },
  );

  it('v26 and v33 need corporateId and averageBill; v15 needs country, corporateId, name, city, address and phone', async () => {
    const sellerId = await newSeller();
    for (const field of ['corporateId', 'averageBill']) {
      const refused = await v(26).put(`/restaurants/${sellerId}`, omit(fullRestaurant(sellerId), field));
      expectError(refused, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
      expect(detailOf(refused)).toMatchObject({ field });
    }
    for (const field of ['country', 'corporateId', 'name', 'city', 'address', 'phone']) {
      const refused = await v(15).put(`/restaurants/${sellerId}`, { ...v15Restaurant(sellerId), [field]: null });
      expectError(refused, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
      expect(detailOf(refused)).toMatchObject({ field });
    }
    expect((await v(15).put(`/restaurants/${sellerId}`, omit(v15Restaurant(sellerId), 'averageBill'))).status).toBe(201);
    expect((await v(33).get(`/restaurants/${sellerId}`)).body).toMatchObject({ averageBill: null });
  });

  it("restaurant writes do not move the seller's data version: registers do not sync restaurants", async () => {
    const sellerId = await newSeller();
    const version = async () => (await v(33).get(`/${sellerId}/version`)).body;
    const before = await version();
    await v(33).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId));
    await v(33).put(`/hairdressers/${sellerId}`, { corporateId: sellerId.slice(2) });
    await v(33).del(`/restaurants/${sellerId}`);
    expect(await version()).toEqual(before);
  });

  it('two concurrent PUTs of a new restaurant create it once: one 201, the other 204 or 409', async () => {
    const token = randomUUID().slice(0, 8);
    const sellerId = await newSeller();
    const answers = await Promise.all(
      ['A', 'B'].map((name) => v(33).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId, { name: `${name} ${token}` }))),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(201);
    expect([204, 409]).toContain(statuses[1]);
    expect((await v(33).get(`/restaurants?like=${token}`)).body).toHaveLength(1);
  });

  it('v15 has no DELETE (405) and no list, overview or hairdressers (404 ENDPOINT_NOT_FOUND)', async () => {
    const sellerId = await sellerWithRestaurant();
    expectError(await v(15).del(`/restaurants/${sellerId}`), 405, 'RequestMethodNotSupported');
    expectError(await v(15).get('/restaurants'), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expectError(await v(15).get(`/restaurants-overview/${sellerId}`), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expectError(await v(15).get(`/hairdressers/${sellerId}`), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expectError(await v(33).post(`/restaurants/${sellerId}`, fullRestaurant(sellerId)), 405, 'RequestMethodNotSupported');
    expect((await v(15).get(`/restaurants/${sellerId}`)).status).toBe(200);
  });
});

describe.each(SINCE_26)('restaurant DELETE and overview in v%i', (api) => {
  const client = v(api);

  it('DELETE removes the restaurant (204): reads, a second DELETE and the overview are 404; a PUT creates it again', async () => {
    const sellerId = await sellerWithRestaurant();
    expectError(await client.del(`/restaurants/${sellerId}`, { headers: { 'If-Match': '"7"' } }), 409, 'VersionConflict');
    expect((await client.del(`/restaurants/${sellerId}`, { headers: { 'If-Match': '"1"' } })).status).toBe(204);
    expectError(await client.get(`/restaurants/${sellerId}`), 404, 'NotFound');
    expectError(await client.get(`/restaurants-overview/${sellerId}`), 404, 'NotFound');
    expectError(await client.del(`/restaurants/${sellerId}`), 404, 'NotFound');
    expect((await client.put(`/restaurants/${sellerId}`, fullRestaurant(sellerId))).status).toBe(201);
  });

  it("the overview is the restaurant with the seller's live taxes and currency", async () => {
    const sellerId = await sellerWithRestaurant({ currency: 'SEK' });
    await client.put(`/${sellerId}/taxes/food`, { vat: 12, name: 'Mat', custom: 'f' });
    await client.put(`/${sellerId}/taxes/gone`, { vat: 6, name: 'Böcker' });
    await client.del(`/${sellerId}/taxes/gone`);
    const overview = await client.get(`/restaurants-overview/${sellerId}`);
    expect(overview.status).toBe(200);
    expect(overview.body).toEqual({
      ...fullRestaurant(sellerId),
      taxes: [{ identifier: 'food', deleted: false, vat: 12, name: 'Mat', custom: 'f' }],
      currency: 'SEK',
    });
  });

  it('an overview of a seller without currency or taxes has null and []; unknown sellers are 404', async () => {
    const sellerId = await sellerWithRestaurant();
    expect((await client.get(`/restaurants-overview/${sellerId}`)).body).toMatchObject({ taxes: [], currency: null });
    expectError(await client.get(`/restaurants-overview/SE9${Date.now()}`), 404, 'NotFound');
  });
});

describe('a deleted seller', () => {
  it('has no restaurant or hairdresser any more: reads and writes are 404, and it leaves the list', async () => {
    const token = randomUUID().slice(0, 8);
    const sellerId = await sellerWithRestaurant({}, { name: `Gone ${token}` });
    expect((await v(33).put(`/hairdressers/${sellerId}`, { corporateId: sellerId.slice(2) })).status).toBe(201);
    expect((await v(33).get(`/restaurants?like=${token}`)).body).toHaveLength(1);
    expect((await v(33).del(`/sellers/${sellerId}`)).status).toBe(204);

    expectError(await v(33).get(`/restaurants/${sellerId}`), 404, 'NotFound');
    expectError(await v(33).get(`/restaurants-overview/${sellerId}`), 404, 'NotFound');
    expectError(await v(33).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId)), 404, 'NotFound');
    expectError(await v(33).del(`/restaurants/${sellerId}`), 404, 'NotFound');
    expectError(await v(33).get(`/hairdressers/${sellerId}`), 404, 'NotFound');
    expectError(await v(33).put(`/hairdressers/${sellerId}`, { corporateId: sellerId.slice(2) }), 404, 'NotFound');
    expectError(await v(33).del(`/hairdressers/${sellerId}`), 404, 'NotFound');
    expect((await v(33).get(`/restaurants?like=${token}`)).body).toEqual([]);
  });
});

describe.each(SINCE_26)('the restaurant list in v%i', (api) => {
  const client = v(api);
  const token = randomUUID().slice(0, 8);
  const sellers: Record<string, string> = {};
  const names = async (query: string) =>
    ((await client.get(`/restaurants?like=${token}&${query}`)).body as { name: string }[]).map((item) => item.name);

  beforeAll(async () => {
    // Bravo's seller is not public: it never shows, not even to the hyper admin.
    const rows: [string, boolean, number, string][] = [
      ['Delta', true, 10000, 'Malmö'],
      ['Alfa', true, 30000, 'Lund'],
      ['Bravo', false, 20000, 'Lund'],
      ['Charlie', true, 20000, 'Malmö'],
    ];
    for (const [name, publicAccess, averageBill, city] of rows) {
      sellers[name] = await sellerWithRestaurant(
        { publicAccess },
        { name: `${name} ${token}`, averageBill, city, images: name === 'Alfa' ? [] : ['logo.png'] },
      );
    }
  });

  it('shows the list items of public sellers, ordered by seller id by default', async () => {
    const list = await client.get(`/restaurants?like=${token}`);
    expect(list.status).toBe(200);
    const items = list.body as { corporateId: string; name: string }[];
    expect(items.map((item) => `SE${item.corporateId}`)).toEqual([sellers.Delta, sellers.Alfa, sellers.Charlie].sort());
    expect(items.find((item) => item.name === `Alfa ${token}`)).toEqual(
      listed(sellers.Alfa ?? '', { name: `Alfa ${token}`, averageBill: 30000, logo: null }),
    );
    expect(items.find((item) => item.name === `Delta ${token}`)).toEqual(
      listed(sellers.Delta ?? '', { name: `Delta ${token}`, averageBill: 10000, city: 'Malmö' }),
    );
  });

  it('orders by name, city or averageBill, descending on request, with stable ties', async () => {
    expect(await names('orderBy=name')).toEqual([`Alfa ${token}`, `Charlie ${token}`, `Delta ${token}`]);
    expect(await names('orderBy=name&orderDesc=true')).toEqual([`Delta ${token}`, `Charlie ${token}`, `Alfa ${token}`]);
    expect(await names('orderBy=averageBill')).toEqual([`Delta ${token}`, `Charlie ${token}`, `Alfa ${token}`]);
    const byCity = await names('orderBy=city');
    expect(byCity[0]).toBe(`Alfa ${token}`);
    expect(byCity.slice(1).sort()).toEqual([`Charlie ${token}`, `Delta ${token}`]);
  });

  it('pages exactly over the public restaurants: firstResult, maxResults, maxResults=0', async () => {
    expect(await names('orderBy=name&firstResult=1&maxResults=1')).toEqual([`Charlie ${token}`]);
    expect(await names('orderBy=name&firstResult=1&maxResults=5')).toEqual([`Charlie ${token}`, `Delta ${token}`]);
    expect(await names('orderBy=name&firstResult=3')).toEqual([]);
    expect(await names('orderBy=name&maxResults=0')).toEqual([]);
  });

  it('like matches name, city and address, case-insensitively', async () => {
    expect(await names(`orderBy=name&like=${token.toUpperCase()}`)).toEqual(await names('orderBy=name'));
    const inMalmo = (await client.get(`/restaurants?like=malm&maxResults=1000`)).body as { name: string }[];
    expect(inMalmo.map((item) => item.name)).toEqual(expect.arrayContaining([`Charlie ${token}`, `Delta ${token}`]));
    expect(inMalmo.map((item) => item.name)).not.toContain(`Alfa ${token}`);
  });

  it('refuses bad LIST parameters', async () => {
    expectError(await client.get('/restaurants?maxResults=1001'), 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
    expectError(await client.get('/restaurants?firstResult=-1'), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
    expectError(await client.get('/restaurants?orderBy=logo'), 400, 'TypeMismatch');
    expectError(await client.get('/restaurants?maxResults=many'), 400, 'TypeMismatch');
  });
});

describe('the list follows the seller', () => {
  it('a seller that turns private leaves the list at once, and comes back when it turns public', async () => {
    const token = randomUUID().slice(0, 8);
    const sellerId = await sellerWithRestaurant({}, { name: `Flip ${token}` });
    const count = async () => ((await v(33).get(`/restaurants?like=${token}`)).body as unknown[]).length;
    expect(await count()).toBe(1);
    await setPublic(sellerId, false);
    expect(await count()).toBe(0);
    await setPublic(sellerId, true);
    expect(await count()).toBe(1);
  });

  it('a restaurant written while its seller was private is listed once the seller turns public', async () => {
    const token = randomUUID().slice(0, 8);
    const sellerId = await sellerWithRestaurant({ publicAccess: false }, { name: `Later ${token}` });
    expect((await v(26).get(`/restaurants?like=${token}`)).body).toEqual([]);
    await setPublic(sellerId, true);
    expect((await v(26).get(`/restaurants?like=${token}`)).body).toEqual([listed(sellerId, { name: `Later ${token}` })]);
  });

  it('an update shows in the list; a deleted restaurant leaves it', async () => {
    const token = randomUUID().slice(0, 8);
    const sellerId = await sellerWithRestaurant({}, { name: `Old ${token}` });
    await v(33).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId, { name: `New ${token}`, images: ['new.png'] }));
    expect((await v(33).get(`/restaurants?like=${token}`)).body).toEqual([
      listed(sellerId, { name: `New ${token}`, logo: 'new.png' }),
    ]);
    expect((await v(33).del(`/restaurants/${sellerId}`)).status).toBe(204);
    expect((await v(33).get(`/restaurants?like=${token}`)).body).toEqual([]);
  });
});

describe('who may read and write restaurants', () => {
  let publicSeller: string;
  let privateSeller: string;
  let stranger: CallOptions;
  let strangerRegister: CallOptions;

  beforeAll(async () => {
    publicSeller = await sellerWithRestaurant();
    privateSeller = await sellerWithRestaurant({ publicAccess: false });
    stranger = await userOf('REGULAR_USER', null, [await newSeller()]);
    strangerRegister = await registerOf(await newSeller());
  });

  it.each(SINCE_26)("v%i: anyone authenticated reads a public seller's restaurant and overview", async (api) => {
    for (const caller of [stranger, strangerRegister]) {
      expect((await v(api).get(`/restaurants/${publicSeller}`, caller)).body).toEqual(fullRestaurant(publicSeller));
      expect((await v(api).get(`/restaurants-overview/${publicSeller}`, caller)).status).toBe(200);
    }
    expect((await v(15).get(`/restaurants/${publicSeller}`, stranger)).status).toBe(200);
  });

  it("a non-public seller's restaurant and overview are 403 SELLER_IS_NOT_PUBLIC to others, with or without a restaurant", async () => {
    const bare = await newSeller({ publicAccess: false });
    for (const caller of [stranger, strangerRegister]) {
      for (const path of [
        `/restaurants/${privateSeller}`,
        `/restaurants-overview/${privateSeller}`,
        `/restaurants/${bare}`,
        `/restaurants-overview/${bare}`,
      ]) {
        expectError(await v(33).get(path, caller), 403, 'Forbidden', 'SELLER_IS_NOT_PUBLIC');
      }
      expectError(await v(15).get(`/restaurants/${privateSeller}`, caller), 403, 'Forbidden', 'SELLER_IS_NOT_PUBLIC');
    }
  });

  it("whoever may access a non-public seller reads its restaurant: a connected user, the seller's register", async () => {
    const connected = await userOf('REGULAR_USER', null, [privateSeller]);
    for (const caller of [connected, await registerOf(privateSeller)]) {
      expect((await v(26).get(`/restaurants/${privateSeller}`, caller)).status).toBe(200);
      expect((await v(33).get(`/restaurants-overview/${privateSeller}`, caller)).status).toBe(200);
    }
  });

  it('writes need access to the seller, public or not: 403 INSUFFICIENT_ACCESS_RIGHTS, nothing changes', async () => {
    const refused = (answer: Answer) => expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    for (const caller of [stranger, strangerRegister]) {
      refused(await v(15).put(`/restaurants/${publicSeller}`, v15Restaurant(publicSeller, { name: 'Mine' }), caller));
      refused(await v(33).put(`/restaurants/${publicSeller}`, fullRestaurant(publicSeller, { name: 'Mine' }), caller));
      refused(await v(33).del(`/restaurants/${publicSeller}`, caller));
    }
    expect((await v(33).get(`/restaurants/${publicSeller}`)).body).toEqual(fullRestaurant(publicSeller));
  });

  it("the seller's connected user and register write its restaurant", async () => {
    const sellerId = await newSeller({ publicAccess: false });
    const connected = await userOf('REGULAR_USER', null, [sellerId]);
    expect((await v(26).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId), connected)).status).toBe(201);
    const register = await registerOf(sellerId);
    expect((await v(33).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId, { name: 'R' }), register)).status).toBe(204);
    expect((await v(33).del(`/restaurants/${sellerId}`, register)).status).toBe(204);
  });

  it('without credentials every endpoint is 401', async () => {
    expectError(await v(33).get('/restaurants', { as: 'none' }), 401, 'Unauthorized');
    expectError(await v(33).get(`/restaurants/${publicSeller}`, { as: 'none' }), 401, 'Unauthorized');
    expectError(await v(33).get(`/hairdressers/${publicSeller}`, { as: 'none' }), 401, 'Unauthorized');
  });
});

describe.each(SINCE_26)('hairdressers in v%i', (api) => {
  const client = v(api);
  const hairdresser = (sellerId: string, fields: Record<string, unknown> = {}) => ({
    country: 'SE',
    corporateId: sellerId.slice(2),
    custom: '{"chairs":3}',
    ...fields,
  });

  it('PUT creates (201); GET reads it with its ETag; PUT updates (204); DELETE removes (204)', async () => {
    const sellerId = await newSeller();
    expectError(await client.get(`/hairdressers/${sellerId}`), 404, 'NotFound');
    expect((await client.put(`/hairdressers/${sellerId}`, hairdresser(sellerId))).status).toBe(201);
    const read = await client.get(`/hairdressers/${sellerId}`);
    expect(read.body).toEqual(hairdresser(sellerId));
    expect(read.headers.get('etag')).toBe('"1"');
    expect((await client.get(`/hairdressers/${sellerId}`, { headers: { 'If-None-Match': '"1"' } })).status).toBe(304);

    expect((await client.put(`/hairdressers/${sellerId}`, { corporateId: sellerId.slice(2) })).status).toBe(204);
    expect((await client.get(`/hairdressers/${sellerId}`)).body).toEqual(hairdresser(sellerId, { custom: null }));

    expectError(await client.del(`/hairdressers/${sellerId}`, { headers: { 'If-Match': '"1"' } }), 409, 'VersionConflict');
    expect((await client.del(`/hairdressers/${sellerId}`, { headers: { 'If-Match': '"2"' } })).status).toBe(204);
    expectError(await client.get(`/hairdressers/${sellerId}`), 404, 'NotFound');
    expectError(await client.del(`/hairdressers/${sellerId}`), 404, 'NotFound');
  });

  it('a stale If-Match is 409; another seller in the body is 409 URL_AND_BODY_IDENTIFIERS_MISMATCH; unknown sellers 404', async () => {
    const sellerId = await newSeller();
    await client.put(`/hairdressers/${sellerId}`, hairdresser(sellerId));
    await client.put(`/hairdressers/${sellerId}`, hairdresser(sellerId, { custom: 'second' }));
    expectError(
      await client.put(`/hairdressers/${sellerId}`, hairdresser(sellerId, { custom: 'third' }), {
        headers: { 'If-Match': '"1"' },
      }),
      409,
      'VersionConflict',
    );
    expectError(
      await client.put(`/hairdressers/${sellerId}`, { corporateId: '1234' }),
      409,
      'InconsistentData',
      'URL_AND_BODY_IDENTIFIERS_MISMATCH',
    );
    expect((await client.get(`/hairdressers/${sellerId}`)).body).toMatchObject({ custom: 'second' });
    const unknown = `SE9${Date.now()}`;
    expectError(await client.put(`/hairdressers/${unknown}`, hairdresser(unknown)), 404, 'NotFound');
    expectError(await client.get(`/hairdressers/${unknown}`), 404, 'NotFound');
  });

  it("a public seller's hairdresser is still only for who may access the seller: 403 INSUFFICIENT_ACCESS_RIGHTS", async () => {
    const sellerId = await newSeller({ publicAccess: true });
    await client.put(`/hairdressers/${sellerId}`, hairdresser(sellerId));
    const stranger = await userOf('REGULAR_USER');
    for (const answer of [
      await client.get(`/hairdressers/${sellerId}`, stranger),
      await client.put(`/hairdressers/${sellerId}`, hairdresser(sellerId, { custom: 'x' }), stranger),
      await client.del(`/hairdressers/${sellerId}`, stranger),
    ]) {
      expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    }
    expect((await client.get(`/hairdressers/${sellerId}`, await registerOf(sellerId))).body).toEqual(hairdresser(sellerId));
  });

  it('custom is at most 65535 characters; corporateId is required', async () => {
    const sellerId = await newSeller();
    const refused = await client.put(`/hairdressers/${sellerId}`, hairdresser(sellerId, { custom: 'x'.repeat(65536) }));
    expectError(refused, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_LESS_THEN');
    expect(detailOf(refused)).toMatchObject({ field: 'custom', actualValue: 65536, sizeMax: 65535 });
    expectError(await client.put(`/hairdressers/${sellerId}`, { country: 'SE' }), 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect((await client.put(`/hairdressers/${sellerId}`, hairdresser(sellerId, { custom: 'x'.repeat(65535) }))).status).toBe(
      201,
    );
  });
});

describe('restaurant validation', () => {
  /** `body` with `value` at a path such as `menu[0].products[1]`. */
  function withField(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
    const copy = structuredClone(body);
    const steps = path.split(/\.|\[(\d+)\]/).filter((step) => step !== undefined && step !== '');
    let node: Record<string, unknown> = copy;
    for (const step of steps.slice(0, -1)) node = node[step] as Record<string, unknown>;
    node[steps.at(-1) ?? ''] = value;
    return copy;
  }

  const section = (fields: Record<string, unknown> = {}) => ({ name: 'Mains', products: ['p1'], images: ['m.png'], ...fields });
  const many = (count: number, make: (index: number) => unknown) => Array.from({ length: count }, (_, index) => make(index));

  const limits: [string, unknown, unknown, string, Record<string, unknown>][] = [
    // field, a value at the limit, one beyond it, the code for that one, details beyond `field`
    ['name', 'n'.repeat(96), 'n'.repeat(97), 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 97, sizeMin: 1, sizeMax: 96 }],
    ['name', 'n', '', 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 0, sizeMin: 1, sizeMax: 96 }],
    ['city', 'c'.repeat(255), 'c'.repeat(256), 'SIZE_SHOULD_BE_IN_RANGE', { sizeMin: 1, sizeMax: 255 }],
    ['city', 'c', '', 'SIZE_SHOULD_BE_IN_RANGE', { sizeMin: 1, sizeMax: 255 }],
    ['address', 'a'.repeat(500), 'a'.repeat(501), 'SIZE_SHOULD_BE_IN_RANGE', { sizeMin: 1, sizeMax: 500 }],
    ['phone', 'p'.repeat(96), 'p'.repeat(97), 'SIZE_SHOULD_BE_IN_RANGE', { sizeMin: 1, sizeMax: 96 }],
    ['phone', 'p', '', 'SIZE_SHOULD_BE_IN_RANGE', { sizeMin: 1, sizeMax: 96 }],
    ['workHours', 'w'.repeat(255), 'w'.repeat(256), 'SIZE_SHOULD_BE_LESS_THEN', { sizeMax: 255 }],
    ['description', 'd'.repeat(1024), 'd'.repeat(1025), 'SIZE_SHOULD_BE_LESS_THEN', { sizeMax: 1024 }],
    ['custom', 'x'.repeat(65535), 'x'.repeat(65536), 'SIZE_SHOULD_BE_LESS_THEN', { actualValue: 65536, sizeMax: 65535 }],
    ['averageBill', 0, -1, 'VALUE_SHOULD_NOT_BE_NEGATIVE', { actualValue: -1, valueMin: 0 }],
    ['averageBill', 2147483647, 2147483648, 'VALUE_SHOULD_BE_LESS_THEN', { valueMax: 2147483647 }],
    ['menu', many(20, () => section()), many(21, () => section()), 'SIZE_SHOULD_BE_LESS_THEN', { actualValue: 21, sizeMax: 20 }],
    ['menu[0].name', 'm'.repeat(96), 'm'.repeat(97), 'SIZE_SHOULD_BE_LESS_THEN', { sizeMax: 96 }],
    ['menu[0].products', many(20, (i) => `p${i}`), many(21, (i) => `p${i}`), 'SIZE_SHOULD_BE_LESS_THEN', { sizeMax: 20 }],
    ['menu[0].products[0]', 'p'.repeat(50), 'p'.repeat(51), 'SIZE_SHOULD_BE_IN_RANGE', { sizeMin: 1, sizeMax: 50 }],
    ['menu[0].products[0]', 'pasta-1', 'pasta/1', 'SHOULD_MATCH_PATTERN', { actualValue: 'pasta/1' }],
    ['menu[0].images', many(5, (i) => `m${i}.png`), many(6, (i) => `m${i}.png`), 'SIZE_SHOULD_BE_LESS_THEN', { sizeMax: 5 }],
    ['images', many(10, (i) => `i${i}.png`), many(11, (i) => `i${i}.png`), 'SIZE_SHOULD_BE_LESS_THEN', { sizeMax: 10 }],
    ['images[1]', 'CON.png', 'CON', 'SHOULD_MATCH_PATTERN', { actualValue: 'CON' }],
    ['workHoursWeek.MONDAY.closeTime', 2147483647, 2147483648, 'VALUE_SHOULD_BE_LESS_THEN', { valueMax: 2147483647 }],
  ];

  it.each(limits)('v33 %s: %j is accepted, %j is 400 ValueNotValid %s', async (field, allowed, beyond, code, details) => {
    const sellerId = await newSeller();
    const base = fullRestaurant(sellerId, { menu: [section()] });
    const refused = await v(33).put(`/restaurants/${sellerId}`, withField(base, field, beyond));
    expectError(refused, 400, 'ValueNotValid', code);
    expect(detailOf(refused)).toMatchObject({ field, ...details });
    expectError(await v(33).get(`/restaurants/${sellerId}`), 404, 'NotFound');
    expect((await v(33).put(`/restaurants/${sellerId}`, withField(base, field, allowed))).status).toBe(201);
  });

  it('a menu section needs a name; a value of the wrong type is 400 MessageNotReadable naming the field', async () => {
    const sellerId = await newSeller();
    const nameless = await v(26).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId, { menu: [{ products: [] }] }));
    expectError(nameless, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(nameless)).toMatchObject({ field: 'menu[0].name' });
    const wrongType = await v(26).put(`/restaurants/${sellerId}`, fullRestaurant(sellerId, { averageBill: '250' }));
    expectError(wrongType, 400, 'MessageNotReadable');
    expect(detailOf(wrongType)).toMatchObject({ field: 'averageBill' });
  });

  it('the largest valid restaurant, every character four bytes long, is stored and read back whole', async () => {
    const sellerId = await newSeller();
    const wide = (length: number) => '😀'.repeat(length);
    // 50 characters each (padEnd would count UTF-16 units).
    const fileNames = (count: number) => many(count, (i) => `${i}${wide(50 - String(i).length)}`);
    const largest = fullRestaurant(sellerId, {
      corporateId: sellerId.slice(2),
      name: wide(96),
      city: wide(255),
      address: wide(500),
      phone: wide(96),
      workHours: wide(255),
      description: wide(1024),
      averageBill: 2147483647,
      menu: many(20, () => ({ name: wide(96), products: fileNames(20), images: fileNames(5) })),
      images: fileNames(10),
      custom: wide(65535),
    });
    expect((await v(33).put(`/restaurants/${sellerId}`, largest)).status).toBe(201);
    expect((await v(33).get(`/restaurants/${sellerId}`)).body).toEqual(largest);
  });
});
