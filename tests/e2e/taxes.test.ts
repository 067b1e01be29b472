import { describe, expect, it } from 'vitest';
import { ALL_VERSIONS } from '#shared/versions.ts';
import { detailOf, expectError, newSeller, v } from '../support/http.ts';

const version = async (sellerId: string) => ((await v(33).get(`/${sellerId}/version`)).body as { version: number }).version;

describe.each(ALL_VERSIONS)('taxes in v%i', (api) => {
  const client = v(api);

  it('POST without identifier creates one and answers it (201); GET reads it with its ETag', async () => {
    const sellerId = await newSeller();
    const created = await client.post(`/${sellerId}/taxes`, { identifier: null, vat: 25, name: 'Moms 25', custom: 'c' });
    expect(created.status).toBe(201);
    const { identifier } = created.body as { identifier: string };
    expect(identifier).toMatch(/^[0-9a-f-]{36}$/);

    const read = await client.get(`/${sellerId}/taxes/${identifier}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(`"${await version(sellerId)}"`);
    expect(read.body).toEqual({ identifier, deleted: false, vat: 25, name: 'Moms 25', custom: 'c' });
  });

  it('POST with a chosen identifier keeps it; POST of an existing one is 409 VersionConflict', async () => {
    const sellerId = await newSeller();
    expect((await client.post(`/${sellerId}/taxes`, { identifier: 'food', vat: 12, name: 'Mat' })).body).toEqual({
      identifier: 'food',
    });
    expectError(await client.post(`/${sellerId}/taxes`, { identifier: 'food', vat: 6, name: 'Böcker' }), 409, 'VersionConflict');
  });

  it('PUT creates (201) an identifier the register chose offline, then updates it (204)', async () => {
    const sellerId = await newSeller();
    expect((await client.put(`/${sellerId}/taxes/books`, { vat: 6, name: 'Böcker' })).status).toBe(201);
    expect((await client.put(`/${sellerId}/taxes/books`, { identifier: 'books', vat: 6, name: 'Books' })).status).toBe(204);
    expect((await client.get(`/${sellerId}/taxes/books`)).body).toMatchObject({ name: 'Books' });
  });

  it('PUT whose body identifier differs from the URL is 409 URL_AND_BODY_IDENTIFIERS_MISMATCH and changes nothing', async () => {
    const sellerId = await newSeller();
    await client.put(`/${sellerId}/taxes/a`, { vat: 6, name: 'A' });
    expectError(
      await client.put(`/${sellerId}/taxes/a`, { identifier: 'b', vat: 7, name: 'B' }),
      409,
      'InconsistentData',
      'URL_AND_BODY_IDENTIFIERS_MISMATCH',
    );
    expect((await client.get(`/${sellerId}/taxes/a`)).body).toMatchObject({ vat: 6, name: 'A' });
  });

  it('two registers writing with the same If-Match: the first wins, the second gets 409 VersionConflict', async () => {
    const sellerId = await newSeller();
    await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Moms' });
    const etag = (await client.get(`/${sellerId}/taxes/t`)).headers.get('etag') ?? '';
    const first = await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'First' }, { headers: { 'If-Match': etag } });
    const second = await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Second' }, { headers: { 'If-Match': etag } });
    expect(first.status).toBe(204);
    expectError(second, 409, 'VersionConflict');
    expect((await client.get(`/${sellerId}/taxes/t`)).body).toMatchObject({ name: 'First' });
  });

  it('a GET whose If-None-Match names the current version is 304 with no body', async () => {
    const sellerId = await newSeller();
    await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Moms' });
    const etag = (await client.get(`/${sellerId}/taxes/t`)).headers.get('etag') ?? '';
    const unchanged = await client.get(`/${sellerId}/taxes/t`, { headers: { 'If-None-Match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Changed' });
    expect((await client.get(`/${sellerId}/taxes/t`, { headers: { 'If-None-Match': etag } })).status).toBe(200);
  });

  it('If-None-Match: * makes a PUT create-only: the second is 409 VersionConflict and changes nothing', async () => {
    const sellerId = await newSeller();
    const createOnly = { headers: { 'If-None-Match': '*' } };
    expect((await client.put(`/${sellerId}/taxes/offline-1`, { vat: 25, name: 'First' }, createOnly)).status).toBe(201);
    expectError(await client.put(`/${sellerId}/taxes/offline-1`, { vat: 6, name: 'Second' }, createOnly), 409, 'VersionConflict');
    expect((await client.get(`/${sellerId}/taxes/offline-1`)).body).toMatchObject({ vat: 25, name: 'First' });
  });

  it('DELETE answers 204, then the tax is 404 NotFound and a second DELETE is 404', async () => {
    const sellerId = await newSeller();
    await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Moms' });
    expect((await client.del(`/${sellerId}/taxes/t`)).status).toBe(204);
    expectError(await client.get(`/${sellerId}/taxes/t`), 404, 'NotFound');
    expectError(await client.del(`/${sellerId}/taxes/t`), 404, 'NotFound');
  });

  it('the diff returns the entities whose current version v has from < v <= to, deletions as deleted: true', async () => {
    const sellerId = await newSeller();
    const start = await version(sellerId);
    await client.put(`/${sellerId}/taxes/a`, { vat: 25, name: 'A' });
    await client.put(`/${sellerId}/taxes/b`, { vat: 12, name: 'B' });
    await client.put(`/${sellerId}/taxes/c`, { vat: 6, name: 'C' });
    const middle = await version(sellerId);
    await client.put(`/${sellerId}/taxes/a`, { vat: 25, name: 'A2' });
    await client.del(`/${sellerId}/taxes/b`);
    const end = await version(sellerId);

    // A register that synced up to `middle` gets exactly what changed after it.
    expect((await client.get(`/${sellerId}/taxes-diff/${middle}/${end}`)).body).toEqual([
      { identifier: 'a', deleted: false, vat: 25, name: 'A2', custom: null },
      { identifier: 'b', deleted: true, vat: null, name: null, custom: null },
    ]);
    // c's version is in the first range; a and b have moved on to later versions.
    expect((await client.get(`/${sellerId}/taxes-diff/${start}/${middle}`)).body).toEqual([
      { identifier: 'c', deleted: false, vat: 6, name: 'C', custom: null },
    ]);
    const full = (await client.get(`/${sellerId}/taxes-diff/${start}/${end}`)).body as { identifier: string }[];
    expect(full.map((tax) => tax.identifier)).toEqual(['c', 'a', 'b']);
    expect((await client.get(`/${sellerId}/taxes-diff/${end}/${end}`)).body).toEqual([]);
  });

  it('a deletion stays in every later diff range that covers it', async () => {
    const sellerId = await newSeller();
    await client.put(`/${sellerId}/taxes/x`, { vat: 25, name: 'X' });
    const before = await version(sellerId);
    await client.del(`/${sellerId}/taxes/x`);
    await client.put(`/${sellerId}/taxes/y`, { vat: 25, name: 'Y' });
    const end = await version(sellerId);
    for (const from of [0, before - 1, before]) {
      const diff = (await client.get(`/${sellerId}/taxes-diff/${from}/${end}`)).body as {
        identifier: string;
        deleted: boolean;
      }[];
      expect(diff).toContainEqual(expect.objectContaining({ identifier: 'x', deleted: true }));
    }
  });

  it("a diff to a version beyond the server's is 409 LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY", async () => {
    const sellerId = await newSeller();
    const end = await version(sellerId);
    expectError(
      await client.get(`/${sellerId}/taxes-diff/0/${end + 1}`),
      409,
      'InconsistentData',
      'LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY',
    );
  });

  it('diff versions must be whole numbers and not negative', async () => {
    const sellerId = await newSeller();
    expectError(await client.get(`/${sellerId}/taxes-diff/x/1`), 400, 'TypeMismatch');
    expectError(await client.get(`/${sellerId}/taxes-diff/-1/1`), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
  });

  it('the list pages, orders and searches, and leaves deleted taxes out', async () => {
    const sellerId = await newSeller();
    for (const [identifier, vat, name] of [
      ['c', 25, 'Standard'],
      ['a', 12, 'Food'],
      ['b', 6, 'Books'],
      ['d', 0, 'Gone'],
    ] as const) {
      await client.put(`/${sellerId}/taxes/${identifier}`, { vat, name });
    }
    await client.del(`/${sellerId}/taxes/d`);
    const ids = async (query = '') =>
      ((await client.get(`/${sellerId}/taxes${query}`)).body as { identifier: string }[]).map((tax) => tax.identifier);

    expect(await ids()).toEqual(['a', 'b', 'c']);
    expect(await ids('?orderBy=vat&orderDesc=true')).toEqual(['c', 'a', 'b']);
    expect(await ids('?orderBy=name&firstResult=1&maxResults=1')).toEqual(['a']);
    expect(await ids('?like=OO')).toEqual(['a', 'b']);
    expect(await ids('?maxResults=0')).toEqual([]);
  });

  it('writes to a seller that does not exist are 404 NotFound', async () => {
    expectError(await client.put('/SE000000000/taxes/x', { vat: 1, name: 'x' }), 404, 'NotFound');
    expectError(await client.get('/SE000000000/taxes'), 404, 'NotFound');
  });
});

describe('tax limits over HTTP', () => {
  it.each([
    [{ vat: 25 }, 'SHOULD_NOT_BE_NULL', 'name'],
    [{ vat: 25, name: '' }, 'SIZE_SHOULD_BE_IN_RANGE', 'name'],
    [{ vat: 25, name: 'x'.repeat(33) }, 'SIZE_SHOULD_BE_IN_RANGE', 'name'],
    [{ vat: 101, name: 'x' }, 'VALUE_SHOULD_BE_LESS_THEN', 'vat'],
    [{ vat: -1, name: 'x' }, 'VALUE_SHOULD_NOT_BE_NEGATIVE', 'vat'],
    [{ vat: 1, name: 'x', custom: 'c'.repeat(65536) }, 'SIZE_SHOULD_BE_LESS_THEN', 'custom'],
    [{ vat: 1, name: 'x', identifier: 'LPT1' }, 'SHOULD_MATCH_PATTERN', 'identifier'],
    [{ vat: 1, name: 'x', identifier: 'i'.repeat(51) }, 'SIZE_SHOULD_BE_IN_RANGE', 'identifier'],
  ])('%j is 400 ValueNotValid %s and changes nothing', async (body, code, field) => {
    const sellerId = await newSeller();
    const before = (await v(26).get(`/${sellerId}/version`)).body;
    const answer = await v(26).post(`/${sellerId}/taxes`, body);
    expectError(answer, 400, 'ValueNotValid', code);
    expect(detailOf(answer)).toMatchObject({ field });
    expect((await v(26).get(`/${sellerId}/version`)).body).toEqual(before);
  });

  it('the limits themselves are accepted: vat 0 and 100, a 32-character name, custom of 65535', async () => {
    const sellerId = await newSeller();
    for (const body of [
      { vat: 0, name: 'x'.repeat(32) },
      { vat: 100, name: 'y', custom: 'c'.repeat(65535) },
    ]) {
      expect((await v(26).post(`/${sellerId}/taxes`, body)).status).toBe(201);
    }
  });

  it('an identifier in the URL that breaks identifierType is 400 ValueNotValid', async () => {
    const sellerId = await newSeller();
    expectError(
      await v(26).put(`/${sellerId}/taxes/${'i'.repeat(51)}`, { vat: 1, name: 'x' }),
      400,
      'ValueNotValid',
      'SIZE_SHOULD_BE_IN_RANGE',
    );
    expectError(await v(26).get(`/${sellerId}/taxes/CON`), 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
  });
});
