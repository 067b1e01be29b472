import { describe, expect, it } from 'vitest';
import { call, detailOf, expectError, newSeller, v } from '../support/http.ts';

describe('the HTTP layer every function shares', () => {
  it('a path no endpoint has is 404 ENDPOINT_NOT_FOUND, in every version and outside them', async () => {
    expectError(await v(33).get('/no/such/thing'), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expectError(await call('GET', '/v99/sellers'), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expectError(await call('GET', '/sellers'), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expectError(await call('GET', '/'), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
  });

  it('an endpoint of another version only is 404 ENDPOINT_NOT_FOUND or 405 where the path exists', async () => {
    const sellerId = await newSeller();
    expectError(await v(26).post('/sellers', {}), 405, 'RequestMethodNotSupported');
    expectError(await v(15).get(`/${sellerId}/taxes-diff/0/1/extra`), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
  });

  it('a known path with a method it lacks is 405 with Allow', async () => {
    const sellerId = await newSeller();
    const answer = await call('PATCH', `/v33/${sellerId}/taxes`);
    expectError(answer, 405, 'RequestMethodNotSupported');
    expect(answer.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
  });

  it('a body that is not JSON is 400 MessageNotReadable and changes nothing', async () => {
    const sellerId = await newSeller();
    expectError(await v(33).post(`/${sellerId}/taxes`, undefined, { raw: '{"vat": 25, "name": "x"' }), 400, 'MessageNotReadable');
    expectError(
      await v(33).post(`/${sellerId}/taxes`, undefined, { raw: '', headers: { 'Content-Type': 'application/json' } }),
      400,
      'MessageNotReadable',
    );
    expectError(await v(33).post(`/${sellerId}/taxes`, { vat: 'high', name: 'x' }), 400, 'MessageNotReadable');
    expect((await v(33).get(`/${sellerId}/taxes`)).body).toEqual([]);
  });

  it('a JSON body of another media type is 400 MessageNotReadable', async () => {
    // (A missing Content-Type is HttpHeaderMissing; serverless-offline fills in application/json, so
    // tests/integration/handler-events.test.ts observes that one with a real API Gateway event.)
    const sellerId = await newSeller();
    const body = JSON.stringify({ vat: 25, name: 'x' });
    expectError(
      await v(33).post(`/${sellerId}/taxes`, undefined, { raw: body, headers: { 'Content-Type': 'text/plain' } }),
      400,
      'MessageNotReadable',
    );
  });

  it('a body over 1 MiB is 413 RequestEntityTooLarge and changes nothing', async () => {
    const sellerId = await newSeller();
    const answer = await v(33).post(`/${sellerId}/taxes`, { vat: 1, name: 'x', custom: 'c'.repeat(1_100_000) });
    expectError(answer, 413, 'RequestEntityTooLarge');
    expect((await v(33).get(`/${sellerId}/taxes`)).body).toEqual([]);
  });

  it('a body nested deeper than 32 levels is 400 MessageNotReadable naming the limit; 32 levels are read', async () => {
    const sellerId = await newSeller();
    for (const raw of [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`]) {
      const answer = await v(33).post(`/${sellerId}/taxes`, undefined, { raw });
      expectError(answer, 400, 'MessageNotReadable');
      expect(detailOf(answer)).toMatchObject({ depthMax: 32 });
    }
    // 33 levels: the body object and a custom field nesting 32 arrays.
    const tooDeep = `{"vat":1,"name":"x","custom":${'['.repeat(32)}${']'.repeat(32)}}`;
    expect(detailOf(await v(33).post(`/${sellerId}/taxes`, undefined, { raw: tooDeep }))).toMatchObject({ depthMax: 32 });
    // 32 levels are read, and refused for what they hold (custom is a string).
    const deepest = `{"vat":1,"name":"x","custom":${'['.repeat(31)}${']'.repeat(31)}}`;
    const read = await v(33).post(`/${sellerId}/taxes`, undefined, { raw: deepest });
    expectError(read, 400, 'MessageNotReadable');
    expect(detailOf(read)).toMatchObject({ field: 'custom', actualValue: `${'['.repeat(31)}${']'.repeat(31)}` });
    expect((await v(33).get(`/${sellerId}/taxes`)).body).toEqual([]);
  });

  it('an error echoes at most 64 characters of a value', async () => {
    const sellerId = await newSeller();
    const long = `${'Å'.repeat(63)}😀${'x'.repeat(500_000)}`;
    const pattern = await v(33).post(`/${sellerId}/taxes`, { vat: 1, name: 'x', custom: `\u0000${long.slice(0, 1_000)}` });
    expect(detailOf(pattern)).toMatchObject({ field: 'custom', actualValue: `\u0000${'Å'.repeat(63)}…` });
    const type = await v(33).post(`/${sellerId}/taxes`, { vat: long, name: 'x' });
    expect(detailOf(type)).toMatchObject({ field: 'vat', actualValue: `${'Å'.repeat(63)}😀…` });
    const array = await v(33).post(`/${sellerId}/taxes`, { vat: Array.from({ length: 50_000 }, (_, index) => index), name: 'x' });
    expect(detailOf(array)).toMatchObject({
      field: 'vat',
      actualValue: `[${Array.from({ length: 40 }, (_, i) => i).join(',')}`.slice(0, 64) + '…',
    });
    for (const answer of [pattern, type, array]) expect(answer.text.length).toBeLessThan(1_000);
    const path = await call('GET', `/v33/${'p'.repeat(5_000)}`);
    expectError(path, 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expect(path.text.length).toBeLessThan(1_000);
  });

  it('a wrong query parameter type is 400 TypeMismatch; maxResults over 1000 is 409 SERVER_IS_OVERLOADED; negative is 409', async () => {
    const sellerId = await newSeller();
    expectError(await v(26).get(`/${sellerId}/taxes?firstResult=one`), 400, 'TypeMismatch');
    expectError(await v(26).get(`/${sellerId}/taxes?orderDesc=yes`), 400, 'TypeMismatch');
    expectError(await v(26).get(`/${sellerId}/taxes?maxResults=1001`), 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
    expectError(await v(26).get(`/${sellerId}/taxes?firstResult=-5`), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
    expect((await v(26).get(`/${sellerId}/taxes?maxResults=1000`)).status).toBe(200);
  });

  it('answers JSON with charset UTF-8 and keeps non-ASCII text intact', async () => {
    const sellerId = await newSeller();
    await v(33).put(`/${sellerId}/taxes/å`, { vat: 25, name: 'Moms på mat 😀' });
    const answer = await v(33).get(`/${sellerId}/taxes/${encodeURIComponent('å')}`);
    expect(answer.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(answer.body).toMatchObject({ identifier: 'å', name: 'Moms på mat 😀' });
  });
});
