/**
 * The error body read the way the service's public clients read it (docs/conventions.md §3): a fiscalization library
 * switches on `error` (`NonUniqueJsonException`, `ValueNotValidJsonException`), then on `details[0].field`, and gives
 * up on anything else; it parses the body of every 4xx, 401 included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { activateRegister, type RegisterApp, registerApp } from '../support/fiscal.ts';
import { type Answer, call, expectError, v } from '../support/http.ts';
import { swedishCorporateId } from '../support/identity.ts';

type Reading =
  | 'NonUniqueCashRegisterNameOrCorporateId'
  | 'InvalidCorporateId'
  | 'InvalidCashRegisterName'
  | 'InvalidFieldFormat'
  | 'InvalidRequest'
  | 'ServerSideError'
  | 'UnknownError';

/** What such a client makes of a refusal: it reads the JSON of every 4xx and looks no further than this. */
function asTheClientReads(answer: Answer): Reading {
  if (answer.status >= 500) return 'ServerSideError';
  const body = JSON.parse(answer.text) as { error?: unknown; details?: { field?: unknown }[] | null };
  if (body.error === 'NonUniqueJsonException') return 'NonUniqueCashRegisterNameOrCorporateId';
  if (body.error === 'ValueNotValidJsonException') {
    if (!body.details?.length) return 'InvalidRequest';
    switch (body.details[0]?.field) {
      case 'corporateId':
        return 'InvalidCorporateId';
      case 'cashRegisterName':
        return 'InvalidCashRegisterName';
      default:
        return 'InvalidFieldFormat';
    }
  }
  return 'UnknownError';
}

const EXISTENCE = '/noauth/activations/cash-register-name/existance';
const ask = (api: 15 | 26 | 33, fields: Record<string, unknown>) =>
  v(api).post(EXISTENCE, { ...(api === 33 ? {} : { country: 'SE' }), ...fields }, { as: 'none' });

let app: RegisterApp;
let corporateId: string;

beforeAll(async () => {
  app = await registerApp();
  corporateId = swedishCorporateId();
  await activateRegister(33, app, corporateId, 'Kassa 1');
});

describe.each([15, 26, 33] as const)('the register-name existence check of v%i', (api) => {
  it('a corporate id of characters no id has is InvalidCorporateId: ValueNotValid with field corporateId', async () => {
    const answer = await ask(api, { corporateId: '5560:36079', cashRegisterName: 'Kassa 1' });
    expectError(answer, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    expect(asTheClientReads(answer)).toBe('InvalidCorporateId');
    expect((answer.body as { details: unknown }).details).toEqual([
      {
        field: 'corporateId',
        code: 'SHOULD_MATCH_PATTERN',
        message: expect.any(String),
        params: { actualValue: '5560:36079', pattern: expect.any(String) },
      },
    ]);
  });

  it('a register name longer than 16 characters is InvalidCashRegisterName: field cashRegisterName', async () => {
    const answer = await ask(api, { corporateId, cashRegisterName: 'K'.repeat(17) });
    expectError(answer, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_IN_RANGE');
    expect(asTheClientReads(answer)).toBe('InvalidCashRegisterName');
    expect((answer.body as { details: unknown }).details).toEqual([
      {
        field: 'cashRegisterName',
        code: 'SIZE_SHOULD_BE_IN_RANGE',
        message: expect.any(String),
        params: { actualValue: 17, sizeMin: 1, sizeMax: 16 },
      },
    ]);
  });

  it('a missing register name is a ValueNotValid naming it', async () => {
    const answer = await ask(api, { corporateId });
    expectError(answer, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(asTheClientReads(answer)).toBe('InvalidCashRegisterName');
  });
});

describe('the refusals such a client tells apart', () => {
  it('v26 refuses a taken register name with NonUniqueJsonException and no details', async () => {
    expect(await ask(26, { corporateId, cashRegisterName: 'Kassa 9' })).toMatchObject({ status: 201, body: { exists: false } });
    const taken = await ask(26, { corporateId, cashRegisterName: 'Kassa 1' });
    expectError(taken, 400, 'NonUnique');
    expect(asTheClientReads(taken)).toBe('NonUniqueCashRegisterNameOrCorporateId');
    expect(taken.body).toMatchObject({ error: 'NonUniqueJsonException', exception: 'NonUnique', code: null, details: [] });
  });

  it('no credentials is 401 with a JSON body naming UnauthorizedJsonException', async () => {
    for (const path of ['/v33/sellers', '/v26/software-vendors', '/v15/sellers']) {
      const answer = await call('GET', path, { as: 'none' });
      expectError(answer, 401, 'Unauthorized');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect(JSON.parse(answer.text)).toEqual({
        error: 'UnauthorizedJsonException',
        exception: 'Unauthorized',
        code: null,
        message: expect.any(String),
        details: [],
      });
      expect(asTheClientReads(answer)).toBe('UnknownError');
    }
  });

  it('an unknown endpoint (404), a wrong method (405) and a body too large (413) answer the same JSON shape', async () => {
    const missing = await call('GET', '/v33/no-such-endpoint', { as: 'none' });
    expectError(missing, 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expect(missing.body).toMatchObject({ error: 'NotFoundJsonException', details: [] });

    const method = await call('DELETE', `/v33${EXISTENCE}`, { as: 'none' });
    expectError(method, 405, 'RequestMethodNotSupported');
    expect(method.headers.get('allow')).toBe('POST');

    const large = await v(33).post(EXISTENCE, undefined, {
      as: 'none',
      raw: JSON.stringify({ corporateId, cashRegisterName: 'Kassa 1', padding: 'x'.repeat(1024 * 1024) }),
    });
    expectError(large, 413, 'RequestEntityTooLarge');
    expect((large.body as { details: unknown }).details).toEqual([
      { field: null, code: null, message: expect.any(String), params: { sizeMax: expect.any(Number) } },
    ]);
    expect(asTheClientReads(large)).toBe('UnknownError');
  });
});
