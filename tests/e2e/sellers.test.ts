import { describe, expect, it } from 'vitest';
import { ALL_VERSIONS } from '#shared/versions.ts';
import { detailOf, expectError, newSeller, uniqueCorporateId, v } from '../support/http.ts';

const v33Seller = (corporateId: string) => ({
  corporateId,
  country: 'SE',
  name: 'Kafé Blå',
  publicAccess: true,
  description: 'Coffee',
  city: 'Lund',
  workHours: '8-17',
  phone: '+46 46 12 34 56',
  custom: '{"theme":"dark"}',
  workHoursWeek: { MONDAY: { openTime: 480, closeTime: 1020 }, SUNDAY: null },
  address: 'Storgatan 1',
  currency: 'SEK',
  masterPassword: 'secret-pin',
  protectedHeaders: 'X-Shop',
  zip: '22100',
});

describe('sellers', () => {
  it('v15 POST creates a seller (201) and a second POST is 409 VersionConflict', async () => {
    const corporateId = uniqueCorporateId();
    const body = { corporateId, country: 'SE', name: 'Butik', publicAccess: false };
    expect((await v(15).post('/sellers', body)).status).toBe(201);
    expectError(await v(15).post('/sellers', body), 409, 'VersionConflict');
  });

  it('v15 POST requires the name; v26 PUT does not', async () => {
    const corporateId = uniqueCorporateId();
    expectError(
      await v(15).post('/sellers', { corporateId, country: 'SE', publicAccess: true }),
      400,
      'ValueNotValid',
      'SHOULD_NOT_BE_NULL',
    );
    const created = await v(26).put(`/sellers/SE${corporateId}`, {
      corporateId,
      country: 'SE',
      publicAccess: true,
      workHoursWeek: {},
    });
    expect(created.status).toBe(201);
  });

  it('v26 and v33 require workHoursWeek', async () => {
    const corporateId = uniqueCorporateId();
    const answer = await v(33).put(`/sellers/SE${corporateId}`, { corporateId, country: 'SE', publicAccess: true });
    expectError(answer, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(answer)).toMatchObject({ field: 'workHoursWeek' });
  });

  it('each version shows exactly its own fields', async () => {
    const corporateId = uniqueCorporateId();
    await v(33).put(`/sellers/SE${corporateId}`, v33Seller(corporateId));
    const v15 = Object.keys((await v(15).get(`/sellers/SE${corporateId}`)).body as object).sort();
    const v26 = Object.keys((await v(26).get(`/sellers/SE${corporateId}`)).body as object).sort();
    const v33 = (await v(33).get(`/sellers/SE${corporateId}`)).body;
    expect(v15).toEqual([
      'city',
      'corporateId',
      'country',
      'custom',
      'description',
      'name',
      'phone',
      'publicAccess',
      'workHours',
    ]);
    expect(v26).toEqual([...v15, 'address', 'currency', 'masterPassword', 'workHoursWeek'].sort());
    expect(v33).toEqual(v33Seller(corporateId));
  });

  it('fields of newer versions survive a write through an older version', async () => {
    const corporateId = uniqueCorporateId();
    await v(33).put(`/sellers/SE${corporateId}`, v33Seller(corporateId));
    const update = { corporateId, country: 'SE', name: 'Nytt namn', publicAccess: false, city: null };
    expect((await v(15).put(`/sellers/SE${corporateId}`, update)).status).toBe(204);
    expect((await v(26).put(`/sellers/SE${corporateId}`, { ...update, workHoursWeek: {}, currency: 'EUR' })).status).toBe(204);

    // Each PUT replaced its own version's fields; protectedHeaders and zip, which only v33 has, are kept.
    expect((await v(33).get(`/sellers/SE${corporateId}`)).body).toEqual({
      corporateId,
      country: 'SE',
      name: 'Nytt namn',
      publicAccess: false,
      description: null,
      city: null,
      workHours: null,
      phone: null,
      custom: null,
      workHoursWeek: {},
      address: null,
      currency: 'EUR',
      masterPassword: null,
      protectedHeaders: 'X-Shop',
      zip: '22100',
    });
  });

  it('opening hours are Java ints and need both times', async () => {
    const corporateId = uniqueCorporateId();
    const body = (monday: unknown) => ({ corporateId, country: 'SE', publicAccess: true, workHoursWeek: { MONDAY: monday } });
    const tooEarly = await v(26).put(`/sellers/SE${corporateId}`, body({ openTime: -2147483649, closeTime: 0 }));
    expectError(tooEarly, 400, 'ValueNotValid', 'VALUE_SHOULD_BE_GREATER_THEN');
    expect(detailOf(tooEarly)).toMatchObject({ field: 'workHoursWeek.MONDAY.openTime', valueMin: -2147483648 });
    const tooLate = await v(26).put(`/sellers/SE${corporateId}`, body({ openTime: 0, closeTime: 2147483648 }));
    expectError(tooLate, 400, 'ValueNotValid', 'VALUE_SHOULD_BE_LESS_THEN');
    const half = await v(26).put(`/sellers/SE${corporateId}`, body({ openTime: 480 }));
    expectError(half, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(half)).toMatchObject({ field: 'workHoursWeek.MONDAY.closeTime' });
    expectError(await v(26).get(`/sellers/SE${corporateId}`), 404, 'NotFound');
  });

  it('a PUT whose body names another seller than the URL is 409 URL_AND_BODY_IDENTIFIERS_MISMATCH', async () => {
    const sellerId = await newSeller();
    const answer = await v(33).put(`/sellers/${sellerId}`, {
      corporateId: '999',
      country: 'SE',
      publicAccess: true,
      workHoursWeek: {},
    });
    expectError(answer, 409, 'InconsistentData', 'URL_AND_BODY_IDENTIFIERS_MISMATCH');
  });

  it('reads carry an ETag; If-None-Match with it is 304; a stale If-Match is 409 VersionConflict and changes nothing', async () => {
    const corporateId = uniqueCorporateId();
    await v(33).put(`/sellers/SE${corporateId}`, v33Seller(corporateId));
    const read = await v(33).get(`/sellers/SE${corporateId}`);
    const etag = read.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"\d+"$/);

    const unchanged = await v(33).get(`/sellers/SE${corporateId}`, { headers: { 'If-None-Match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');

    const body = { ...v33Seller(corporateId), name: 'A' };
    expect((await v(33).put(`/sellers/SE${corporateId}`, body, { headers: { 'If-Match': etag } })).status).toBe(204);
    expectError(
      await v(33).put(`/sellers/SE${corporateId}`, { ...body, name: 'B' }, { headers: { 'If-Match': etag } }),
      409,
      'VersionConflict',
    );
    expect((await v(33).get(`/sellers/SE${corporateId}`)).body).toMatchObject({ name: 'A' });
  });

  it('a malformed If-Match is 400 InvalidETagFormat and changes nothing', async () => {
    const corporateId = uniqueCorporateId();
    await v(33).put(`/sellers/SE${corporateId}`, v33Seller(corporateId));
    const answer = await v(33).put(
      `/sellers/SE${corporateId}`,
      { ...v33Seller(corporateId), name: 'X' },
      { headers: { 'If-Match': 'v1' } },
    );
    expectError(answer, 400, 'InvalidETagFormat');
    expect((await v(33).get(`/sellers/SE${corporateId}`)).body).toMatchObject({ name: 'Kafé Blå' });
  });

  it('DELETE hides the seller: reads are 404, its version is 404, and it leaves the list', async () => {
    const sellerId = await newSeller();
    expect((await v(26).del(`/sellers/${sellerId}`)).status).toBe(204);
    expectError(await v(26).get(`/sellers/${sellerId}`), 404, 'NotFound');
    expectError(await v(26).get(`/${sellerId}/version`), 404, 'NotFound');
    expectError(await v(26).del(`/sellers/${sellerId}`), 404, 'NotFound');
    const list = (await v(26).get(`/sellers?like=${sellerId.slice(2)}`)).body as unknown[];
    expect(list).toEqual([]);
  });

  it.each(ALL_VERSIONS)('v%i GET /{sellerId}/version counts every change of the seller', async (version) => {
    const sellerId = await newSeller();
    await v(version).post(`/${sellerId}/taxes`, { vat: 25, name: 'Moms' });
    const answer = await v(version).get(`/${sellerId}/version`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(version === 15 ? { version: 2 } : { version: 2, modificationApiVersion: version });
  });

  it('GET /sellers lists with LIST parameters: like, orderBy NAME, orderDesc, firstResult, maxResults', async () => {
    const tag = uniqueCorporateId().slice(0, 8);
    for (const name of ['Bravo', 'Alfa', 'Charlie']) {
      const corporateId = `${tag}${name}`;
      await v(15).post('/sellers', { corporateId, country: 'SE', name, publicAccess: true });
    }
    const names = async (query: string) =>
      ((await v(15).get(`/sellers?like=${tag}&${query}`)).body as { name: string }[]).map((seller) => seller.name);

    expect(await names('orderBy=NAME')).toEqual(['Alfa', 'Bravo', 'Charlie']);
    expect(await names('orderBy=NAME&orderDesc=true')).toEqual(['Charlie', 'Bravo', 'Alfa']);
    expect(await names('orderBy=NAME&firstResult=1&maxResults=1')).toEqual(['Bravo']);
    expectError(await v(15).get('/sellers?orderBy=CITY'), 400, 'TypeMismatch');
  });

  it('a seller id that is not a country code and corporate id is 400 ValueNotValid', async () => {
    expectError(await v(33).get('/sellers/S'), 400, 'ValueNotValid', 'SIZE_SHOULD_BE_EQUAL_EXACTLY');
    expectError(await v(33).get('/sellers/se123'), 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
  });

  const limits: [string, unknown, unknown, string][] = [
    // field, the longest or largest value allowed, one beyond it, the code for that one
    ['name', 'n'.repeat(96), 'n'.repeat(97), 'SIZE_SHOULD_BE_LESS_THEN'],
    ['description', 'd'.repeat(1024), 'd'.repeat(1025), 'SIZE_SHOULD_BE_LESS_THEN'],
    ['city', 'c'.repeat(255), 'c'.repeat(256), 'SIZE_SHOULD_BE_LESS_THEN'],
    ['workHours', 'w'.repeat(255), 'w'.repeat(256), 'SIZE_SHOULD_BE_LESS_THEN'],
    ['phone', 'p'.repeat(255), 'p'.repeat(256), 'SIZE_SHOULD_BE_LESS_THEN'],
    ['address', 'a'.repeat(500), 'a'.repeat(501), 'SIZE_SHOULD_BE_LESS_THEN'],
    ['custom', 'x'.repeat(65535), 'x'.repeat(65536), 'SIZE_SHOULD_BE_LESS_THEN'],
    ['masterPassword', 'm'.repeat(64), 'm'.repeat(65), 'SIZE_SHOULD_BE_IN_RANGE'],
    ['masterPassword', 'm', '', 'SIZE_SHOULD_BE_IN_RANGE'],
    ['protectedHeaders', 'h'.repeat(1024), 'h'.repeat(1025), 'SIZE_SHOULD_BE_IN_RANGE'],
    ['protectedHeaders', 'h', '', 'SIZE_SHOULD_BE_IN_RANGE'],
    ['zip', 'z'.repeat(12), 'z'.repeat(13), 'SIZE_SHOULD_BE_LESS_THEN'],
  ];

  it.each(limits)('v33 %s: the limit itself is accepted, one beyond it is 400 %s', async (field, allowed, beyond, code) => {
    const corporateId = uniqueCorporateId();
    const body = (value: unknown) => ({ ...v33Seller(corporateId), [field]: value });
    const refused = await v(33).put(`/sellers/SE${corporateId}`, body(beyond));
    expectError(refused, 400, 'ValueNotValid', code);
    expect(detailOf(refused)).toMatchObject({ field });
    expectError(await v(33).get(`/sellers/SE${corporateId}`), 404, 'NotFound');
    expect((await v(33).put(`/sellers/SE${corporateId}`, body(allowed))).status).toBe(201);
    expect((await v(33).get(`/sellers/SE${corporateId}`)).body).toMatchObject({ [field]: allowed });
  });

  it('a corporate id of 95 characters is accepted, 96 is 400 SIZE_SHOULD_BE_IN_RANGE', async () => {
    const longest = `9${uniqueCorporateId()}`.padEnd(95, '7');
    expect((await v(33).put(`/sellers/SE${longest}`, v33Seller(longest))).status).toBe(201);
    const beyond = `${longest}7`;
    expectError(await v(33).put(`/sellers/SE${beyond}`, v33Seller(beyond)), 400, 'ValueNotValid', 'SIZE_SHOULD_BE_IN_RANGE');
  });

  it('an unknown currency is 400 MessageNotReadable; v15 does not know currency and ignores it', async () => {
    const corporateId = uniqueCorporateId();
    expectError(
      await v(33).put(`/sellers/SE${corporateId}`, { ...v33Seller(corporateId), currency: 'XXX' }),
      400,
      'MessageNotReadable',
    );
    const v15Body = { corporateId, country: 'SE', name: 'x', publicAccess: true, currency: 'XXX' };
    expect((await v(15).post('/sellers', v15Body)).status).toBe(201);
    expect((await v(33).get(`/sellers/SE${corporateId}`)).body).toMatchObject({ currency: null });
  });
});
