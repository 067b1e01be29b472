/**
 * Text hygiene over HTTP (docs/decisions.md): control characters and unpaired UTF-16 surrogates are
 * refused in every string of a body, tab/CR/LF only outside the multi-line fields; a refused write
 * stores nothing. Bodies that are not UTF-8 are refused as sent (the local stack hands them over as bytes, as
 * infra/local/offline-events.ts explains), and U+FFFD, the mark of bytes a lenient decoder lost, is refused in every string.
 */
import { describe, expect, it } from 'vitest';
import { scalars } from '#schemas/scalars.ts';
import { type Answer, detailOf, expectError, newSeller, v } from '../support/http.ts';

const client = v(33);

function expectPatternError(answer: Answer, field: string, pattern: string = scalars.$defs.text.pattern): void {
  expectError(answer, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
  expect(detailOf(answer)).toMatchObject({ field, pattern });
}

describe('text hygiene', () => {
  it.each([
    ['NUL', '\u0000'],
    ['ESC', '\u001B'],
    ['DEL', '\u007F'],
    ['a C1 control', '\u0085'],
  ])('a tax name with %s is 400 SHOULD_MATCH_PATTERN and no tax is stored', async (_, char) => {
    const sellerId = await newSeller();
    expectPatternError(await client.post(`/${sellerId}/taxes`, { vat: 25, name: `Mo${char}ms` }), 'name');
    expect((await client.get(`/${sellerId}/taxes`)).body).toEqual([]);
  });

  it('a name with an unpaired surrogate is refused; a paired one (an emoji) is stored as sent', async () => {
    const sellerId = await newSeller();
    for (const surrogate of ['\\ud800', '\\udfff', '\\ude00\\ud83d']) {
      const raw = `{"vat":25,"name":"Mo${surrogate}ms"}`;
      expectPatternError(await client.post(`/${sellerId}/taxes`, undefined, { raw }), 'name');
    }
    expect(
      (await client.put(`/${sellerId}/taxes/emoji`, undefined, { raw: '{"vat":25,"name":"Moms \\ud83d\\ude00"}' })).status,
    ).toBe(201);
    expect((await client.get(`/${sellerId}/taxes/emoji`)).body).toMatchObject({ name: 'Moms 😀' });
  });

  it('a seller name with an unpaired surrogate is refused too', async () => {
    const sellerId = await newSeller();
    const corporateId = sellerId.slice(2);
    const raw = `{"corporateId":"${corporateId}","country":"SE","publicAccess":true,"workHoursWeek":{},"name":"Shop \\udbff"}`;
    expectPatternError(await client.put(`/sellers/${sellerId}`, undefined, { raw }), 'name');
    expect((await client.get(`/sellers/${sellerId}`)).body).toMatchObject({ name: 'Test shop' });
  });

  it('tab, CR and LF are refused in a single-line name but stored in a multi-line field', async () => {
    const sellerId = await newSeller();
    for (const char of ['\t', '\r', '\n']) {
      expectPatternError(await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: `Mo${char}ms` }), 'name');
    }
    const custom = 'line 1\r\nline 2\tcolumn';
    expect((await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Moms', custom })).status).toBe(201);
    expect((await client.get(`/${sellerId}/taxes/t`)).body).toMatchObject({ name: 'Moms', custom });
  });

  it('a multi-line field still refuses the other control characters', async () => {
    const sellerId = await newSeller();
    expectPatternError(
      await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Moms', custom: 'a\u0000b' }),
      'custom',
      scalars.$defs.custom.pattern,
    );
  });

  it('a nested field is named by its path', async () => {
    const sellerId = await newSeller();
    const booking = {
      bookingDate: 1_800_000_000_000,
      persons: 2,
      contactInfo: { name: 'Anna\u001B', phone: '1', email: 'a@b.se' },
    };
    expectPatternError(await client.post(`/${sellerId}/bookings`, booking), 'contactInfo.name');
  });

  it('a refused write leaves the stored entity and the seller version unchanged', async () => {
    const sellerId = await newSeller();
    await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Moms', custom: 'c' });
    const before = await client.get(`/${sellerId}/taxes/t`);
    const versionBefore = (await client.get(`/${sellerId}/version`)).body;

    expectPatternError(await client.put(`/${sellerId}/taxes/t`, { vat: 12, name: 'Mat\u0000', custom: 'd' }), 'name');

    const after = await client.get(`/${sellerId}/taxes/t`);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect((await client.get(`/${sellerId}/version`)).body).toEqual(versionBefore);
  });

  const notUtf8: [string, number[]][] = [
    ['a stray 0xFF byte', [0xff]],
    ['a truncated sequence', [0xc3]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ];
  /** `{"name":"Caf<bytes>e"}` as bytes. */
  const withBytes = (bad: number[]) => Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from(bad), Buffer.from('e"}')]);

  it.each(notUtf8)('a category name with %s is 400 MessageNotReadable and no category is stored', async (_, bad) => {
    const sellerId = await newSeller();
    const versionBefore = (await client.get(`/${sellerId}/version`)).body;
    expectError(await client.put(`/${sellerId}/categories/c1`, undefined, { raw: withBytes(bad) }), 400, 'MessageNotReadable');
    expectError(await client.post(`/${sellerId}/categories`, undefined, { raw: withBytes(bad) }), 400, 'MessageNotReadable');
    expect((await client.get(`/${sellerId}/categories`)).body).toEqual([]);
    expect((await client.get(`/${sellerId}/version`)).body).toEqual(versionBefore);
  });

  it.each(notUtf8)("a software vendor's fields with %s are 400 MessageNotReadable and change nothing", async (_, bad) => {
    const created = await client.post('/software-vendors', { name: 'Kassa AB' });
    const id = (created.body as { id: number }).id;
    const before = await client.get(`/software-vendors/${id}`);
    const vendorsBefore = (await client.get('/software-vendors')).body as unknown[];
    expectError(await client.post('/software-vendors', undefined, { raw: withBytes(bad) }), 400, 'MessageNotReadable');
    const email = Buffer.concat([Buffer.from('{"name":"Kassa AB","supportEmail":"a'), Buffer.from(bad), Buffer.from('@b.se"}')]);
    expectError(await client.put(`/software-vendors/${id}`, undefined, { raw: email }), 400, 'MessageNotReadable');
    expectError(await client.put(`/software-vendors/${id}`, undefined, { raw: withBytes(bad) }), 400, 'MessageNotReadable');
    expect((await client.get(`/software-vendors/${id}`)).body).toEqual(before.body);
    expect(((await client.get('/software-vendors')).body as unknown[]).length).toBe(vendorsBefore.length);
  });

  it('U+FFFD, sent as its UTF-8 bytes or escaped, is refused like a control character', async () => {
    const sellerId = await newSeller();
    expectPatternError(await client.put(`/${sellerId}/categories/c1`, { name: 'Caf\uFFFDe' }), 'name');
    expectPatternError(await client.put(`/${sellerId}/categories/c1`, undefined, { raw: '{"name":"Caf\\ufffde"}' }), 'name');
    expectPatternError(
      await client.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Moms', custom: 'line\n\uFFFD' }),
      'custom',
      scalars.$defs.custom.pattern,
    );
    expect((await client.get(`/${sellerId}/categories`)).body).toEqual([]);
    expect((await client.get(`/${sellerId}/taxes`)).body).toEqual([]);
  });

  it('the free-text query parameter like refuses control characters', async () => {
    const sellerId = await newSeller();
    const answer = await client.get(`/${sellerId}/taxes?like=Mo%00ms`);
    expectError(answer, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    expect(detailOf(answer)).toMatchObject({ field: 'like', pattern: scalars.$defs.text.pattern });
    expect((await client.get(`/${sellerId}/taxes?like=Mo`)).status).toBe(200);
  });
});
