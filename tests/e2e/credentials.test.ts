import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newApiKey, storeApiKey } from '#shared/auth/api-keys.ts';
import { createUserIfAbsent } from '#shared/auth/users.ts';
import { type Answer, type CallOptions, call, expectError, newSeller, v } from '../support/http.ts';

const DAY = 86_400_000;

/** A register's API key for `sellerId` (the activation endpoints arrive with the identity issue). */
async function registerKey(sellerId: string, overrides: Partial<Parameters<typeof storeApiKey>[1]> = {}) {
  const apiKey = newApiKey();
  await storeApiKey(apiKey, {
    activationId: Math.floor(Math.random() * 1e9),
    sellerId,
    cashRegisterName: 'Kassa 1',
    status: 'WORKING',
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    features: [],
    ...overrides,
  });
  return { apiKey };
}

/** A regular user connected to `sellers`, and its Basic credentials (user endpoints arrive with the identity issue). */
async function regularUserOf(sellers: string[]) {
  const basic: [string, string] = [`user-${randomUUID().slice(0, 8)}`, 'user-password'];
  await createUserIfAbsent({
    username: basic[0],
    password: basic[1],
    email: 'user@example.com',
    role: 'REGULAR_USER',
    softwareVendor: null,
    sellers,
  });
  return { basic };
}

let seller: string;
let otherSeller: string;
let regularUser: { basic: [string, string] };

beforeAll(async () => {
  seller = await newSeller();
  otherSeller = await newSeller();
  await v(33).put(`/${seller}/taxes/t`, { vat: 25, name: 'Moms' });
  regularUser = await regularUserOf([seller]);
});

describe('credentials', () => {
  it('no credentials on an endpoint that needs them is 401 Unauthorized', async () => {
    const answer = await v(33).get(`/${seller}/taxes`, { as: 'none' });
    expectError(answer, 401, 'Unauthorized');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('a wrong password or an unknown user is 403 WRONG_USERNAME_OR_PASSWORD', async () => {
    expectError(
      // Not the admin's: its wrong passwords would count towards refusing it to every test (docs/conventions.md §26).
      await v(33).get(`/${seller}/taxes`, { as: { basic: [regularUser.basic[0], 'nope'] } }),
      403,
      'Forbidden',
      'WRONG_USERNAME_OR_PASSWORD',
    );
    expectError(
      await v(33).get(`/${seller}/taxes`, { as: { basic: ['nobody', 'x'] } }),
      403,
      'Forbidden',
      'WRONG_USERNAME_OR_PASSWORD',
    );
  });

  it('an unknown API key is 403 WRONG_USERNAME_OR_PASSWORD', async () => {
    expectError(
      await v(33).get(`/${seller}/taxes`, { as: { apiKey: newApiKey() } }),
      403,
      'Forbidden',
      'WRONG_USERNAME_OR_PASSWORD',
    );
  });

  it('malformed authorization data is 403 AUTHORIZATION_DATA_IS_NOT_VALID', async () => {
    const bad = async (authorization: string) =>
      call('GET', `/v33/${seller}/taxes`, { as: 'none', headers: { Authorization: authorization } });
    expectError(
      await bad(`Basic ${Buffer.from(':password').toString('base64')}`),
      403,
      'Forbidden',
      'AUTHORIZATION_DATA_IS_NOT_VALID',
    );
    expectError(await bad('Bearer abc.def'), 403, 'Forbidden', 'AUTHORIZATION_DATA_IS_NOT_VALID');
    expectError(await bad('Basic ***'), 403, 'Forbidden', 'AUTHORIZATION_DATA_IS_NOT_VALID');
  });

  it("a register's key reads its own seller's taxes", async () => {
    const answer = await v(33).get(`/${seller}/taxes/t`, { as: await registerKey(seller) });
    expect(answer.status).toBe(200);
  });

  it.each([
    ['ISSUED', {}, 'ACTIVATION_STILL_ISSUED'],
    ['CLOSED', {}, 'ACTIVATION_CLOSED_ALREADY'],
    ['WORKING', { validFrom: Date.now() + DAY }, 'WRONG_ACTIVATION_PERIOD'],
    ['WORKING', { validTo: Date.now() - DAY }, 'WRONG_ACTIVATION_PERIOD'],
  ] as const)('a key whose activation is %s %j is 403 %s', async (status, period, code) => {
    const key = await registerKey(seller, { status, ...period });
    expectError(await v(33).get(`/${seller}/taxes/t`, { as: key }), 403, 'Forbidden', code);
  });
});

describe('tenant isolation', () => {
  const attempts: [string, (as: CallOptions['as']) => Promise<Answer>][] = [
    ['read the seller', (as) => v(33).get(`/sellers/${seller}`, { as })],
    [
      'update the seller',
      (as) =>
        v(33).put(
          `/sellers/${seller}`,
          { corporateId: seller.slice(2), country: 'SE', publicAccess: true, workHoursWeek: {} },
          { as },
        ),
    ],
    ['read its version', (as) => v(33).get(`/${seller}/version`, { as })],
    ['list its taxes', (as) => v(33).get(`/${seller}/taxes`, { as })],
    ['read a tax', (as) => v(33).get(`/${seller}/taxes/t`, { as })],
    ['create a tax', (as) => v(33).post(`/${seller}/taxes`, { vat: 1, name: 'x' }, { as })],
    ['update a tax', (as) => v(33).put(`/${seller}/taxes/t`, { vat: 1, name: 'x' }, { as })],
    ['delete a tax', (as) => v(33).del(`/${seller}/taxes/t`, { as })],
    ['read the taxes diff', (as) => v(33).get(`/${seller}/taxes-diff/0/1`, { as })],
  ];

  it.each(attempts)(
    "another seller's register key cannot %s: 403 INSUFFICIENT_ACCESS_RIGHTS, nothing changes",
    async (_, attempt) => {
      const before = (await v(33).get(`/${seller}/version`)).body;
      expectError(await attempt(await registerKey(otherSeller)), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
      expect((await v(33).get(`/${seller}/version`)).body).toEqual(before);
    },
  );

  it.each(attempts)('a user not connected to the seller cannot %s: 403 INSUFFICIENT_ACCESS_RIGHTS', async (_, attempt) => {
    expectError(await attempt(await regularUserOf([otherSeller])), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
  });

  it('a user connected to the seller reads its taxes, sees only it in the list, and may not delete sellers', async () => {
    expect((await v(33).get(`/${seller}/taxes/t`, { as: regularUser })).status).toBe(200);
    const list = (await v(33).get('/sellers', { as: regularUser })).body as { corporateId: string }[];
    expect(list.map((entry) => entry.corporateId)).toEqual([seller.slice(2)]);
    expectError(await v(33).del(`/sellers/${seller}`, { as: regularUser }), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(
      await v(15).post('/sellers', { corporateId: '1', country: 'SE', name: 'x', publicAccess: true }, { as: regularUser }),
      403,
      'Forbidden',
      'INSUFFICIENT_ACCESS_RIGHTS',
    );
  });

  it("a register's key lists only its own seller", async () => {
    const list = (await v(26).get('/sellers', { as: await registerKey(seller) })).body as { corporateId: string }[];
    expect(list.map((entry) => entry.corporateId)).toEqual([seller.slice(2)]);
  });
});
