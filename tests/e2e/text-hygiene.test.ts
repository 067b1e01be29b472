/**
 * Text hygiene over HTTP (docs/decisions.md): control characters and unpaired UTF-16 surrogates are
 * refused in every string of a body, tab/CR/LF only outside the multi-line fields; a refused write
 * stores nothing. Bodies that are not UTF-8 are covered in tests/integration/handler-events.test.ts,
 * since serverless-offline turns them into U+FFFD before the handler sees them.
 */
import { describe, expect, it } from 'vitest';
import { scalars } from '#schemas/scalars.ts';
import { type Answer, expectError, newSeller, v } from '../support/http.ts';

const client = v(33);

function expectPatternError(answer: Answer, field: string, pattern: string = scalars.$defs.text.pattern): void {
  expectError(answer, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
  expect(answer.body).toMatchObject({ details: { field, pattern } });
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

  it('the free-text query parameter like refuses control characters', async () => {
    const sellerId = await newSeller();
    const answer = await client.get(`/${sellerId}/taxes?like=Mo%00ms`);
    expectError(answer, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    expect(answer.body).toMatchObject({ details: { field: 'like', pattern: scalars.$defs.text.pattern } });
    expect((await client.get(`/${sellerId}/taxes?like=Mo`)).status).toBe(200);
  });
});
