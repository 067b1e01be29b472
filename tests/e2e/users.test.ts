import { randomInt, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { newApiKey, storeApiKey } from '#shared/auth/api-keys.ts';
import { table } from '#shared/db/client.ts';
import { putItem } from '#shared/db/documents.ts';
import { readItem } from '#shared/db/reads.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { type Answer, type CallOptions, detailOf, expectError, newSeller, v } from '../support/http.ts';
import { vendorKeys } from '#shared/domain/records.ts';

type As = CallOptions['as'];
type V33Role = 'ROLE_HYPER_ADMIN' | 'ROLE_SOFTWARE_VENDOR' | 'ROLE_REGULAR_USER';

interface TestUser {
  username: string;
  password: string;
  as: { basic: [string, string] };
}

const DAY = 86_400_000;
const run = randomUUID().slice(0, 8);
let count = 0;
/** A username no other test uses; every name of this file contains `run`, so `like=run` lists only them. */
const uniqueName = (label: string) => `${label}-${run}-${++count}`;
const forbidden = (answer: Answer) => expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
/** Random vendor ids stay below 2e9 and sequences start at 1: no vendor has this id. */
const UNKNOWN_VENDOR = 2 ** 31 - 1;

/** A software vendor record, written directly (the vendors group owns its endpoints). */
async function newVendor(): Promise<number> {
  const id = randomInt(1_000_000, 2_000_000_000);
  await putItem({ TableName: table(), Item: { ...vendorKeys.vendor(id), id, name: `Vendor ${id}` } });
  return id;
}

/** How many users reference the vendor. */
const refsOf = async (vendor: number) => (await readItem(vendorKeys.vendor(vendor)))?.refs ?? 0;

/** Creates a user through v33 POST (as the hyper admin unless `by` says otherwise). */
async function newUser(role: V33Role, softwareVendor: number | null = null, by?: As): Promise<TestUser> {
  const username = uniqueName(role.slice(5, 9).toLowerCase());
  const password = `pw-${randomUUID()}`;
  const body = { username, email: `${username}@example.com`, role, softwareVendor, password };
  const answer = await v(33).post(`/users/${username}`, body, by ? { as: by } : {});
  if (answer.status !== 201) throw new Error(`user not created: ${answer.status} ${answer.text}`);
  return { username, password, as: { basic: [username, password] } };
}

/** A register's API key for `sellerId`. */
async function registerKey(sellerId: string): Promise<{ apiKey: string }> {
  const apiKey = newApiKey();
  await storeApiKey(apiKey, {
    activationId: randomInt(1, 1e9),
    sellerId,
    cashRegisterName: 'Kassa 1',
    status: 'WORKING',
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    features: [],
  });
  return { apiKey };
}

/** The user as the hyper admin reads it in v33. */
const readBack = async (username: string) => (await v(33).get(`/users/${username}`)).body;
const admin = () => inject('admin');
const signsIn = async (as: As) => (await v(33).get('/auth/user', { as })).status;

let vendor: number;
let otherVendor: number;
let vendorUser: TestUser;
let otherVendorUser: TestUser;
let regular: TestUser;
let seller: string;

beforeAll(async () => {
  [vendor, otherVendor, seller] = await Promise.all([newVendor(), newVendor(), newSeller()]);
  [vendorUser, otherVendorUser, regular] = await Promise.all([
    newUser('ROLE_SOFTWARE_VENDOR', vendor),
    newUser('ROLE_SOFTWARE_VENDOR', otherVendor),
    newUser('ROLE_REGULAR_USER'),
  ]);
});

describe('GET /auth/handshake', () => {
  it.each(ALL_VERSIONS)('v%i: a user and a registered seller’s register get 200 with no body', async (version) => {
    for (const as of [undefined, regular.as, await registerKey(seller)]) {
      const answer = await v(version).get('/auth/handshake', as ? { as } : {});
      expect({ status: answer.status, text: answer.text }).toEqual({ status: 200, text: '' });
    }
  });

  it.each(ALL_VERSIONS)('v%i: a register whose seller is not registered or deleted is 403 SELLER_NOT_FOUND', async (version) => {
    const deleted = await newSeller();
    expect((await v(33).del(`/sellers/${deleted}`)).status).toBe(204);
    for (const sellerId of [`SE${randomInt(1e9, 1e10 - 1)}`, deleted]) {
      expectError(
        await v(version).get('/auth/handshake', { as: await registerKey(sellerId) }),
        403,
        'Forbidden',
        'SELLER_NOT_FOUND',
      );
    }
  });

  it('no credentials is 401, wrong ones 403 WRONG_USERNAME_OR_PASSWORD', async () => {
    expectError(await v(33).get('/auth/handshake', { as: 'none' }), 401, 'Unauthorized');
    expectError(
      await v(33).get('/auth/handshake', { as: { basic: [regular.username, 'wrong'] } }),
      403,
      'Forbidden',
      'WRONG_USERNAME_OR_PASSWORD',
    );
  });
});

describe('GET /auth/user', () => {
  it.each(SINCE_26)('v%i: the caller’s user with its connected sellers, never a password', async (version) => {
    const answer = await v(version).get('/auth/user');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      username: admin().username,
      email: 'admin@localhost.invalid',
      role: 'ROLE_HYPER_ADMIN',
      softwareVendor: null,
      connectedSellers: [],
    });
    expect((await v(version).get('/auth/user', { as: vendorUser.as })).body).toEqual({
      username: vendorUser.username,
      email: `${vendorUser.username}@example.com`,
      role: 'ROLE_SOFTWARE_VENDOR',
      softwareVendor: vendor,
      connectedSellers: [],
    });
  });

  it('v26/v33 list the connected sellers with name, country and corporate id; deleted sellers are left out', async () => {
    const user = await newUser('ROLE_REGULAR_USER');
    const [kept, deleted] = await Promise.all([newSeller({ name: 'Kafé Blå' }), newSeller()]);
    for (const sellerId of [kept, deleted])
      expect((await v(33).put(`/users/${user.username}/sellers/${sellerId}`)).status).toBe(204);
    expect((await v(33).del(`/sellers/${deleted}`)).status).toBe(204);
    for (const version of SINCE_26) {
      const body = (await v(version).get('/auth/user', { as: user.as })).body as Record<string, unknown>;
      expect(body.connectedSellers).toEqual([{ name: 'Kafé Blå', country: 'SE', corporateId: kept.slice(2) }]);
      expect(body.role).toBe('ROLE_REGULAR_USER');
      expect(body).not.toHaveProperty('password');
    }
  });

  it('v15 shows the password field: the stored hash for the hyper admin only, null for everyone else', async () => {
    const own = (await v(15).get('/auth/user')).body as Record<string, unknown>;
    expect(Object.keys(own).sort()).toEqual(['email', 'password', 'role', 'softwareVendor', 'username']);
    expect(own.role).toBe('ROLE_HYPER_ADMIN');
    expect(own.password).toMatch(/^scrypt\$/);
    expect(own.password).not.toContain(admin().password);
    expect((await v(15).get('/auth/user', { as: regular.as })).body).toEqual({
      username: regular.username,
      email: `${regular.username}@example.com`,
      role: 'SELLER_ADMIN',
      softwareVendor: null,
      password: null,
    });
    expect((await v(15).get('/auth/user', { as: vendorUser.as })).body).toMatchObject({
      role: 'ROLE_SOFTWARE_VENDOR_ADMIN',
      softwareVendor: vendor,
      password: null,
    });
  });

  it('a register’s key: v26/v33 403 INSUFFICIENT_ACCESS_RIGHTS; v15 shows the activation as an ACTIVATION user', async () => {
    const key = await registerKey(seller);
    for (const version of SINCE_26) forbidden(await v(version).get('/auth/user', { as: key }));
    const answer = await v(15).get('/auth/user', { as: key });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      username: expect.stringMatching(/^\d+$/),
      email: null,
      role: 'ACTIVATION',
      softwareVendor: null,
      password: null,
    });
    expectError(
      await v(15).get('/auth/user', { as: await registerKey(`SE${randomInt(1e9, 1e10 - 1)}`) }),
      403,
      'Forbidden',
      'SELLER_NOT_FOUND',
    );
  });
});

describe('POST /users/{username}', () => {
  it.each(SINCE_26)(
    'v%i creates (201 with the username as identifier); the user reads back without a password and signs in',
    async (version) => {
      const username = uniqueName('new');
      const answer = await v(version).post(`/users/${username}`, {
        username,
        email: 'new.user@example.com',
        role: 'ROLE_REGULAR_USER',
        softwareVendor: null,
        password: 'secret',
      });
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 201, body: { identifier: username } });
      const read = await v(version).get(`/users/${username}`);
      expect(read.body).toEqual({ username, email: 'new.user@example.com', role: 'ROLE_REGULAR_USER', softwareVendor: null });
      expect(await signsIn({ basic: [username, 'secret'] })).toBe(200);
    },
  );

  it('v15 has no POST: 405 with Allow', async () => {
    const answer = await v(15).post('/users/x', {});
    expectError(answer, 405, 'RequestMethodNotSupported');
    expect(answer.headers.get('allow')).toBe('PUT, DELETE');
  });

  it('an existing username is 409 VersionConflict and keeps the existing user', async () => {
    const body = { username: regular.username, email: 'other@example.com', role: 'ROLE_REGULAR_USER', password: 'x' };
    expectError(await v(33).post(`/users/${regular.username}`, body), 409, 'VersionConflict');
    expect(await readBack(regular.username)).toMatchObject({ email: `${regular.username}@example.com` });
    expect(await signsIn(regular.as)).toBe(200);
  });

  it('a body naming another user than the URL is 409 URL_AND_BODY_IDENTIFIERS_MISMATCH', async () => {
    const [url, body] = [uniqueName('url'), uniqueName('body')];
    expectError(
      await v(33).post(`/users/${url}`, { username: body, email: 'a@example.com', role: 'ROLE_REGULAR_USER', password: 'x' }),
      409,
      'InconsistentData',
      'URL_AND_BODY_IDENTIFIERS_MISMATCH',
    );
    for (const name of [url, body]) expectError(await v(33).get(`/users/${name}`), 404, 'NotFound');
  });

  it('a software-vendor user without a vendor is 422 SOFTWARE_VENDOR_IS_MISSING; nothing is created', async () => {
    const username = uniqueName('sv');
    for (const softwareVendor of [null, undefined]) {
      expectError(
        await v(26).post(`/users/${username}`, {
          username,
          email: 'sv@example.com',
          role: 'ROLE_SOFTWARE_VENDOR',
          softwareVendor,
          password: 'x',
        }),
        422,
        'UnprocessableEntity',
        'SOFTWARE_VENDOR_IS_MISSING',
      );
    }
    expectError(await v(33).get(`/users/${username}`), 404, 'NotFound');
  });

  it('an unknown vendor is 404 ReferenceNotFound; nothing is created', async () => {
    const username = uniqueName('sv');
    const body = {
      username,
      email: 'sv@example.com',
      role: 'ROLE_SOFTWARE_VENDOR',
      softwareVendor: UNKNOWN_VENDOR,
      password: 'x',
    };
    expectError(await v(33).post(`/users/${username}`, body), 404, 'ReferenceNotFound');
    expectError(await v(33).get(`/users/${username}`), 404, 'NotFound');
  });

  it('each user of a vendor counts as a reference to it; a hyper admin gets no vendor even when one is sent', async () => {
    const ownVendor = await newVendor();
    await newUser('ROLE_SOFTWARE_VENDOR', ownVendor);
    await newUser('ROLE_REGULAR_USER', ownVendor);
    expect(await refsOf(ownVendor)).toBe(2);
    const hyper = await newUser('ROLE_HYPER_ADMIN', ownVendor);
    expect(await readBack(hyper.username)).toMatchObject({ role: 'ROLE_HYPER_ADMIN', softwareVendor: null });
    expect(await refsOf(ownVendor)).toBe(2);
  });

  it('a vendor user creates regular and vendor users of its own vendor only', async () => {
    const made = await newUser('ROLE_REGULAR_USER', null, vendorUser.as);
    expect(await readBack(made.username)).toMatchObject({ role: 'ROLE_REGULAR_USER', softwareVendor: vendor });
    const colleague = await newUser('ROLE_SOFTWARE_VENDOR', vendor, vendorUser.as);
    expect(await readBack(colleague.username)).toMatchObject({ softwareVendor: vendor });
    const refused: [V33Role, number | null][] = [
      ['ROLE_HYPER_ADMIN', null],
      ['ROLE_SOFTWARE_VENDOR', otherVendor],
      ['ROLE_REGULAR_USER', otherVendor],
    ];
    for (const [role, softwareVendor] of refused) {
      const username = uniqueName('refused');
      const body = { username, email: 'r@example.com', role, softwareVendor, password: 'x' };
      forbidden(await v(33).post(`/users/${username}`, body, { as: vendorUser.as }));
      expectError(await v(33).get(`/users/${username}`), 404, 'NotFound');
    }
  });

  it('regular users and registers may not create users: 403 INSUFFICIENT_ACCESS_RIGHTS', async () => {
    const username = uniqueName('refused');
    const body = { username, email: 'r@example.com', role: 'ROLE_REGULAR_USER', password: 'x' };
    for (const as of [regular.as, await registerKey(seller)]) forbidden(await v(33).post(`/users/${username}`, body, { as }));
    expectError(await v(33).get(`/users/${username}`), 404, 'NotFound');
  });
});

describe('User field limits', () => {
  const valid = (username: string) => ({ username, email: 'limits@example.com', role: 'ROLE_REGULAR_USER', password: 'x' });
  /** Body errors come before the URL-and-body comparison, so refused bodies all go to one URL. */
  const post = (fields: Record<string, unknown>, username = 'limits') =>
    v(33).post(`/users/${username}`, { ...valid(username), ...fields });
  const name = (length: number) => `${run}${'n'.repeat(length - run.length)}`;
  const email = (length: number) => `${'e'.repeat(length - 12)}@example.com`;

  it.each([
    ['username', '', 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 0, sizeMin: 1, sizeMax: 50 }],
    ['username', name(51), 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 51, sizeMin: 1, sizeMax: 50 }],
    ['username', 'a:b', 'SHOULD_MATCH_PATTERN', { actualValue: 'a:b' }],
    ['email', 'a@b.c', 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 5, sizeMin: 6, sizeMax: 50 }],
    ['email', email(51), 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 51, sizeMin: 6, sizeMax: 50 }],
    ['email', 'no-at-sign.example.com', 'SHOULD_MATCH_PATTERN', { actualValue: 'no-at-sign.example.com' }],
    ['email', 'two words@example.com', 'SHOULD_MATCH_PATTERN', { actualValue: 'two words@example.com' }],
    ['password', '', 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 0, sizeMin: 1, sizeMax: 200 }],
    ['password', 'p'.repeat(201), 'SIZE_SHOULD_BE_IN_RANGE', { actualValue: 201, sizeMin: 1, sizeMax: 200 }],
    ['softwareVendor', 2 ** 31, 'VALUE_SHOULD_BE_LESS_THEN', { actualValue: 2 ** 31, valueMax: 2 ** 31 - 1 }],
  ] as const)('%s %j is 400 ValueNotValid %s', async (field, value, code, details) => {
    const answer = await post({ [field]: value });
    expectError(answer, 400, 'ValueNotValid', code);
    expect(detailOf(answer)).toMatchObject({ field, ...details });
    if (code === 'SHOULD_MATCH_PATTERN') expect(detailOf(answer)).toMatchObject({ pattern: expect.any(String) });
  });

  it.each(['username', 'email', 'role', 'password'])('a missing %s is 400 SHOULD_NOT_BE_NULL', async (field) => {
    const username = uniqueName('missing');
    const answer = await v(33).post(`/users/${username}`, { ...valid(username), [field]: undefined });
    expectError(answer, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(answer)).toMatchObject({ field });
  });

  it('a role the version does not know or a vendor that is no integer is 400 MessageNotReadable', async () => {
    expectError(await post({ role: 'SELLER_ADMIN' }), 400, 'MessageNotReadable');
    expectError(await post({ softwareVendor: 'one' }), 400, 'MessageNotReadable');
    expectError(
      await v(15).put(`/users/${regular.username}`, { ...valid(regular.username), role: 'ACTIVATION' }),
      400,
      'MessageNotReadable',
    );
  });

  it('the limits themselves are accepted: a 50-character username, 6- and 50-character e-mails, a 200-character password', async () => {
    const username = name(50);
    const password = 'p'.repeat(200);
    expect((await post({ email: email(50), password }, username)).status).toBe(201);
    expect(await signsIn({ basic: [username, password] })).toBe(200);
    expect((await post({ email: 'a@b.cd' }, uniqueName('short'))).status).toBe(201);
  });
});

describe('GET /users/{username}', () => {
  it.each(SINCE_26)('v%i: self, the hyper admin and the own vendor’s users see the user; others get 403', async (version) => {
    const managed = await newUser('ROLE_REGULAR_USER', vendor);
    const expected = { username: managed.username, email: `${managed.username}@example.com`, role: 'ROLE_REGULAR_USER' };
    for (const as of [managed.as, undefined, vendorUser.as]) {
      const answer = await v(version).get(`/users/${managed.username}`, as ? { as } : {});
      expect(answer.body).toEqual({ ...expected, softwareVendor: vendor });
    }
    for (const as of [otherVendorUser.as, regular.as, await registerKey(seller)]) {
      forbidden(await v(version).get(`/users/${managed.username}`, { as }));
    }
    forbidden(await v(version).get(`/users/${admin().username}`, { as: vendorUser.as }));
  });

  it('an unknown name is 404 NotFound for administrators and 403 for a regular user, who must not learn which names exist', async () => {
    const unknown = uniqueName('unknown');
    for (const as of [undefined, vendorUser.as])
      expectError(await v(33).get(`/users/${unknown}`, as ? { as } : {}), 404, 'NotFound');
    forbidden(await v(33).get(`/users/${unknown}`, { as: regular.as }));
  });

  it('v15 has no GET of one user: 405', async () => {
    expectError(await v(15).get(`/users/${regular.username}`), 405, 'RequestMethodNotSupported');
  });
});

describe('PUT /users/{username}', () => {
  const body = (user: { username: string }, fields: Record<string, unknown> = {}) => ({
    username: user.username,
    email: `${user.username}@example.com`,
    role: 'ROLE_REGULAR_USER',
    softwareVendor: null,
    ...fields,
  });

  it.each(SINCE_26)('v%i updates email, role and vendor (204), moving the vendor reference', async (version) => {
    const [from, to] = await Promise.all([newVendor(), newVendor()]);
    const user = await newUser('ROLE_REGULAR_USER', from);
    const update = body(user, { email: 'moved@example.com', role: 'ROLE_SOFTWARE_VENDOR', softwareVendor: to });
    const answer = await v(version).put(`/users/${user.username}`, update);
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 204, text: '' });
    expect(await readBack(user.username)).toEqual({ ...update });
    expect([await refsOf(from), await refsOf(to)]).toEqual([0, 1]);
    expect(await signsIn(user.as)).toBe(200);
  });

  it('v15 role names map onto v26/v33 ones: SELLER_ADMIN is ROLE_REGULAR_USER, ROLE_SOFTWARE_VENDOR_ADMIN is ROLE_SOFTWARE_VENDOR', async () => {
    const user = await newUser('ROLE_SOFTWARE_VENDOR', vendor);
    const listed = (await v(15).get(`/users?like=${user.username}`)).body as { role: string }[];
    expect(listed.map((entry) => entry.role)).toEqual(['ROLE_SOFTWARE_VENDOR_ADMIN']);
    expect((await v(15).put(`/users/${user.username}`, body(user, { role: 'SELLER_ADMIN' }))).status).toBe(204);
    expect(await readBack(user.username)).toMatchObject({ role: 'ROLE_REGULAR_USER', softwareVendor: null });
    const update = body(user, { role: 'ROLE_SOFTWARE_VENDOR_ADMIN', softwareVendor: vendor });
    expect((await v(15).put(`/users/${user.username}`, update)).status).toBe(204);
    expect(await readBack(user.username)).toMatchObject({ role: 'ROLE_SOFTWARE_VENDOR', softwareVendor: vendor });
  });

  it('v15: a non-null password sets a new one (the old stops working); null keeps it; v26 ignores a password', async () => {
    const user = await newUser('ROLE_REGULAR_USER');
    expect((await v(15).put(`/users/${user.username}`, body(user, { role: 'SELLER_ADMIN', password: null }))).status).toBe(204);
    expect((await v(26).put(`/users/${user.username}`, body(user, { password: 'ignored' }))).status).toBe(204);
    expect(await signsIn(user.as)).toBe(200);
    const update = body(user, { role: 'SELLER_ADMIN', password: 'changed-in-v15' });
    expect((await v(15).put(`/users/${user.username}`, update, { as: user.as })).status).toBe(204);
    expect(await signsIn({ basic: [user.username, 'changed-in-v15'] })).toBe(200);
    expectError(await v(33).get('/auth/user', { as: user.as }), 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
    const byVendor = await newUser('ROLE_REGULAR_USER', vendor);
    forbidden(
      await v(15).put(
        `/users/${byVendor.username}`,
        body(byVendor, { role: 'SELLER_ADMIN', softwareVendor: vendor, password: 'x' }),
        {
          as: vendorUser.as,
        },
      ),
    );
    expect(await signsIn(byVendor.as)).toBe(200);
  });

  it.each(ALL_VERSIONS)('v%i: an unknown user is 404 NotFound', async (version) => {
    const unknown = uniqueName('unknown');
    const role = version === 15 ? 'SELLER_ADMIN' : 'ROLE_REGULAR_USER';
    expectError(await v(version).put(`/users/${unknown}`, body({ username: unknown }, { role })), 404, 'NotFound');
  });

  it.each(ALL_VERSIONS)(
    'v%i: a software-vendor role without a vendor is 422 SOFTWARE_VENDOR_IS_MISSING; nothing changes',
    async (version) => {
      const user = await newUser('ROLE_REGULAR_USER');
      const role = version === 15 ? 'ROLE_SOFTWARE_VENDOR_ADMIN' : 'ROLE_SOFTWARE_VENDOR';
      expectError(
        await v(version).put(`/users/${user.username}`, body(user, { role, email: 'changed@example.com' })),
        422,
        'UnprocessableEntity',
        'SOFTWARE_VENDOR_IS_MISSING',
      );
      expect(await readBack(user.username)).toEqual(body(user));
    },
  );

  it('an unknown vendor is 404 ReferenceNotFound; a body naming another user is 409; nothing changes', async () => {
    const user = await newUser('ROLE_REGULAR_USER', vendor);
    const unknownVendor = body(user, { softwareVendor: UNKNOWN_VENDOR });
    expectError(await v(33).put(`/users/${user.username}`, unknownVendor), 404, 'ReferenceNotFound');
    expectError(
      await v(33).put(`/users/${user.username}`, body(regular, { softwareVendor: vendor })),
      409,
      'InconsistentData',
      'URL_AND_BODY_IDENTIFIERS_MISMATCH',
    );
    expect(await readBack(user.username)).toEqual(body(user, { softwareVendor: vendor }));
    expect(await readBack(regular.username)).toEqual(body(regular));
  });

  it('a regular user changes its own email only; its role or vendor, or another user, is 403', async () => {
    const user = await newUser('ROLE_REGULAR_USER');
    const put = (target: { username: string }, fields: Record<string, unknown>) =>
      v(33).put(`/users/${target.username}`, body(target, fields), { as: user.as });
    expect((await put(user, { email: 'mine@example.com' })).status).toBe(204);
    forbidden(await put(user, { email: 'mine@example.com', role: 'ROLE_SOFTWARE_VENDOR', softwareVendor: vendor }));
    forbidden(await put(user, { email: 'mine@example.com', softwareVendor: vendor }));
    forbidden(await put(user, { email: 'mine@example.com', role: 'ROLE_HYPER_ADMIN' }));
    forbidden(await put(regular, { email: 'theirs@example.com' }));
    expect(await readBack(user.username)).toEqual(body(user, { email: 'mine@example.com' }));
    expect(await readBack(regular.username)).toEqual(body(regular));
  });

  it('a vendor user updates its own vendor’s users within its vendor; not others, not to hyper admin', async () => {
    const managed = await newUser('ROLE_REGULAR_USER', vendor);
    const stranger = await newUser('ROLE_REGULAR_USER', otherVendor);
    const put = (target: { username: string }, fields: Record<string, unknown>) =>
      v(33).put(`/users/${target.username}`, body(target, fields), { as: vendorUser.as });
    expect((await put(managed, { softwareVendor: vendor, role: 'ROLE_SOFTWARE_VENDOR' })).status).toBe(204);
    forbidden(await put(managed, { softwareVendor: otherVendor }));
    forbidden(await put(managed, { role: 'ROLE_HYPER_ADMIN' }));
    forbidden(await put(stranger, { softwareVendor: otherVendor, email: 'taken@example.com' }));
    expect(await readBack(managed.username)).toEqual(body(managed, { role: 'ROLE_SOFTWARE_VENDOR', softwareVendor: vendor }));
    expect(await readBack(stranger.username)).toEqual(body(stranger, { softwareVendor: otherVendor }));
  });
});

describe('PUT /users/{username}/password', () => {
  it.each(SINCE_26)('v%i: with the right old password (204) the new one works and the old one stops working', async (version) => {
    const user = await newUser('ROLE_REGULAR_USER');
    const answer = await v(version).put(
      `/users/${user.username}/password`,
      { oldPassword: user.password, newPassword: 'new-secret' },
      { as: user.as },
    );
    expect({ status: answer.status, text: answer.text }).toEqual({ status: 204, text: '' });
    expect(await signsIn({ basic: [user.username, 'new-secret'] })).toBe(200);
    expectError(await v(33).get('/auth/user', { as: user.as }), 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
  });

  it('a wrong or missing old password is 403 OLD_PASSWORD_IS_INCORRECT and the password stays', async () => {
    const user = await newUser('ROLE_SOFTWARE_VENDOR', vendor);
    for (const oldPassword of ['wrong', null, undefined]) {
      expectError(
        await v(33).put(`/users/${user.username}/password`, { oldPassword, newPassword: 'new' }, { as: user.as }),
        403,
        'Forbidden',
        'OLD_PASSWORD_IS_INCORRECT',
      );
    }
    expect(await signsIn(user.as)).toBe(200);
  });

  it('the hyper admin sets another user’s password without the old one; a wrong old one is still refused', async () => {
    const user = await newUser('ROLE_REGULAR_USER');
    expectError(
      await v(33).put(`/users/${user.username}/password`, { oldPassword: 'wrong', newPassword: 'x' }),
      403,
      'Forbidden',
      'OLD_PASSWORD_IS_INCORRECT',
    );
    expect((await v(26).put(`/users/${user.username}/password`, { newPassword: 'set-by-admin' })).status).toBe(204);
    expect(await signsIn({ basic: [user.username, 'set-by-admin'] })).toBe(200);
  });

  it('nobody else changes another user’s password: 403, even a vendor user for its own vendor’s user', async () => {
    const managed = await newUser('ROLE_REGULAR_USER', vendor);
    for (const as of [vendorUser.as, regular.as]) {
      forbidden(
        await v(33).put(`/users/${managed.username}/password`, { oldPassword: managed.password, newPassword: 'x' }, { as }),
      );
    }
    forbidden(await v(33).put(`/users/${managed.username}/password`, { newPassword: 'x' }, { as: await registerKey(seller) }));
    expect(await signsIn(managed.as)).toBe(200);
  });

  it('an unknown user is 404 NotFound; newPassword is required and at most 200 characters; v15 has no such endpoint', async () => {
    expectError(await v(33).put(`/users/${uniqueName('unknown')}/password`, { newPassword: 'x' }), 404, 'NotFound');
    const missing = await v(33).put(`/users/${regular.username}/password`, { oldPassword: regular.password });
    expectError(missing, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(missing)).toMatchObject({ field: 'newPassword' });
    const long = await v(33).put(`/users/${regular.username}/password`, { newPassword: 'p'.repeat(201) });
    expectError(long, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_IN_RANGE');
    expect(detailOf(long)).toMatchObject({ field: 'newPassword', actualValue: 201, sizeMin: 1, sizeMax: 200 });
    expectError(
      await v(15).put(`/users/${regular.username}/password`, { newPassword: 'x' }),
      404,
      'NotFound',
      'ENDPOINT_NOT_FOUND',
    );
    expect(await signsIn(regular.as)).toBe(200);
  });
});

describe('DELETE /users/{username}', () => {
  it.each(ALL_VERSIONS)(
    'v%i deletes (204): the user is gone, cannot sign in, and its vendor reference is dropped',
    async (version) => {
      const ownVendor = await newVendor();
      const user = await newUser('ROLE_SOFTWARE_VENDOR', ownVendor);
      expect(await refsOf(ownVendor)).toBe(1);
      const answer = await v(version).del(`/users/${user.username}`);
      expect({ status: answer.status, text: answer.text }).toEqual({ status: 204, text: '' });
      expectError(await v(33).get(`/users/${user.username}`), 404, 'NotFound');
      expectError(await v(33).get('/auth/user', { as: user.as }), 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
      expect(await refsOf(ownVendor)).toBe(0);
      expect((await v(33).get(`/users?like=${user.username}`)).body).toEqual([]);
    },
  );

  it('a vendor user deletes its own vendor’s users only; nobody deletes itself; unknown is 404', async () => {
    const [managed, stranger] = await Promise.all([newUser('ROLE_REGULAR_USER', vendor), newUser('ROLE_REGULAR_USER')]);
    expect((await v(33).del(`/users/${managed.username}`, { as: vendorUser.as })).status).toBe(204);
    forbidden(await v(33).del(`/users/${stranger.username}`, { as: vendorUser.as }));
    forbidden(await v(33).del(`/users/${vendorUser.username}`, { as: vendorUser.as }));
    forbidden(await v(15).del(`/users/${admin().username}`));
    forbidden(await v(33).del(`/users/${stranger.username}`, { as: regular.as }));
    forbidden(await v(33).del(`/users/${regular.username}`, { as: regular.as }));
    forbidden(await v(33).del(`/users/${stranger.username}`, { as: await registerKey(seller) }));
    expectError(await v(33).del(`/users/${uniqueName('unknown')}`), 404, 'NotFound');
    for (const user of [stranger, vendorUser, regular]) expect(await signsIn(user.as)).toBe(200);
    expect(await signsIn(undefined)).toBe(200);
  });
});

describe('GET /users and /users-minified', () => {
  let listVendor: number;
  let listVendorUser: TestUser;
  /** The users of `listVendor`, in username order. */
  let ofVendor: string[];
  let unrelated: TestUser;

  beforeAll(async () => {
    listVendor = await newVendor();
    listVendorUser = await newUser('ROLE_SOFTWARE_VENDOR', listVendor);
    const others = [];
    for (const role of ['ROLE_REGULAR_USER', 'ROLE_REGULAR_USER', 'ROLE_SOFTWARE_VENDOR'] as const) {
      others.push(await newUser(role, listVendor));
    }
    ofVendor = [listVendorUser, ...others].map((user) => user.username).sort((a, b) => a.localeCompare(b));
    unrelated = await newUser('ROLE_REGULAR_USER');
  });

  const names = (body: unknown) => (body as { username: string }[]).map((user) => user.username);

  it.each(ALL_VERSIONS)(
    'v%i: the hyper admin lists every user, ordered by username; `like` matches username or email',
    async (version) => {
      const all = await v(version).get(`/users?like=${run.toUpperCase()}`);
      expect(all.status).toBe(200);
      expect(names(all.body)).toEqual(expect.arrayContaining([...ofVendor, unrelated.username]));
      expect(names(all.body)).toEqual([...names(all.body)].sort((a, b) => a.localeCompare(b)));
      expect(names((await v(version).get('/users')).body)).toContain(admin().username);
      const email = uniqueName('mail');
      const user = await newUser('ROLE_REGULAR_USER');
      const update = { username: user.username, email: `${email.toUpperCase()}@example.com`, role: 'ROLE_REGULAR_USER' };
      expect((await v(33).put(`/users/${user.username}`, update)).status).toBe(204);
      expect(names((await v(version).get(`/users?like=${email}`)).body)).toEqual([user.username]);
    },
  );

  it.each(SINCE_26)('v%i: items are users without a password', async (version) => {
    const { username } = listVendorUser;
    const body = (await v(version).get(`/users?like=${username}`)).body;
    expect(body).toEqual([
      { username, email: `${username}@example.com`, role: 'ROLE_SOFTWARE_VENDOR', softwareVendor: listVendor },
    ]);
  });

  it('v15: the hyper admin sees each user’s hash in `password`, a vendor user sees null', async () => {
    const byAdmin = (await v(15).get(`/users?like=${listVendorUser.username}`)).body as { password: string }[];
    expect(byAdmin).toHaveLength(1);
    expect(byAdmin[0]?.password).toMatch(/^scrypt\$/);
    expect(byAdmin[0]?.password).not.toContain(listVendorUser.password);
    const byVendor = (await v(15).get(`/users?like=${listVendorUser.username}`, { as: listVendorUser.as })).body;
    expect(byVendor).toEqual([
      {
        username: listVendorUser.username,
        email: `${listVendorUser.username}@example.com`,
        role: 'ROLE_SOFTWARE_VENDOR_ADMIN',
        softwareVendor: listVendor,
        password: null,
      },
    ]);
  });

  it.each(ALL_VERSIONS)('v%i: a vendor user lists its own vendor’s users only', async (version) => {
    expect(names((await v(version).get('/users', { as: listVendorUser.as })).body)).toEqual(ofVendor);
  });

  it('PAGE parameters: firstResult and maxResults page the list; the pinned cap and negatives are refused', async () => {
    const all = names((await v(33).get('/users', { as: listVendorUser.as })).body);
    const page = names((await v(33).get('/users?firstResult=1&maxResults=2', { as: listVendorUser.as })).body);
    expect(page).toEqual(all.slice(1, 3));
    expectError(await v(33).get('/users?maxResults=1001'), 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
    expectError(await v(26).get('/users?firstResult=-1'), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
    expectError(await v(15).get('/users?maxResults=x'), 400, 'TypeMismatch');
  });

  it.each(SINCE_26)('v%i /users-minified: {username, role} of the same users, with the same paging', async (version) => {
    const body = (await v(version).get(`/users-minified?like=${run}`, { as: listVendorUser.as })).body;
    const full = (await v(version).get(`/users?like=${run}`, { as: listVendorUser.as })).body as {
      username: string;
      role: string;
    }[];
    expect(body).toEqual(full.map(({ username, role }) => ({ username, role })));
    expect((await v(version).get('/users-minified?maxResults=1', { as: listVendorUser.as })).body).toHaveLength(1);
  });

  it('regular users and registers may not list users: 403; v15 has no /users-minified', async () => {
    for (const as of [regular.as, await registerKey(seller)]) {
      for (const path of ['/users', '/users-minified']) forbidden(await v(33).get(path, { as }));
      forbidden(await v(15).get('/users', { as }));
    }
    expectError(await v(15).get('/users-minified'), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
  });
});

describe('connecting regular users to sellers', () => {
  it.each(ALL_VERSIONS)(
    'v%i: a connected user reads the seller’s taxes; disconnected it is refused; both are idempotent',
    async (version) => {
      const user = await newUser('ROLE_REGULAR_USER');
      const taxes = () => v(33).get(`/${seller}/taxes`, { as: user.as });
      forbidden(await taxes());
      for (let repeat = 0; repeat < 2; repeat++) {
        const answer = await v(version).put(`/users/${user.username}/sellers/${seller}`);
        expect({ status: answer.status, text: answer.text }).toEqual({ status: 204, text: '' });
      }
      expect((await taxes()).status).toBe(200);
      for (let repeat = 0; repeat < 2; repeat++)
        expect((await v(version).del(`/users/${user.username}/sellers/${seller}`)).status).toBe(204);
      forbidden(await taxes());
    },
  );

  it('an unknown or deleted seller is 404 ReferenceNotFound; an unknown user 404 NotFound', async () => {
    const user = await newUser('ROLE_REGULAR_USER');
    const deleted = await newSeller();
    expect((await v(33).del(`/sellers/${deleted}`)).status).toBe(204);
    expectError(await v(33).put(`/users/${user.username}/sellers/SE${randomInt(1e9, 1e10 - 1)}`), 404, 'ReferenceNotFound');
    expectError(await v(33).put(`/users/${user.username}/sellers/${deleted}`), 404, 'ReferenceNotFound');
    expectError(await v(33).put(`/users/${uniqueName('unknown')}/sellers/${seller}`), 404, 'NotFound');
    expect((await v(33).get('/auth/user', { as: user.as })).body).toMatchObject({ connectedSellers: [] });
  });

  it('only regular users are connected: others are 422 UnprocessableEntity USER_IS_NOT_REGULAR', async () => {
    for (const user of [vendorUser.username, admin().username]) {
      expectError(await v(33).put(`/users/${user}/sellers/${seller}`), 422, 'UnprocessableEntity', 'USER_IS_NOT_REGULAR');
    }
  });

  it('a vendor user connects its own vendor’s users to sellers it has access to only', async () => {
    const managed = await newUser('ROLE_REGULAR_USER', vendor);
    const linked = await newSeller();
    await putItem({ TableName: table(), Item: { ...vendorKeys.sellerLink(vendor, linked), linked: Date.now() } });
    forbidden(await v(33).put(`/users/${managed.username}/sellers/${seller}`, undefined, { as: vendorUser.as }));
    forbidden(await v(33).put(`/users/${regular.username}/sellers/${linked}`, undefined, { as: vendorUser.as }));
    forbidden(await v(33).put(`/users/${managed.username}/sellers/${linked}`, undefined, { as: otherVendorUser.as }));
    forbidden(await v(33).put(`/users/${managed.username}/sellers/${linked}`, undefined, { as: managed.as }));
    expect((await v(33).get('/auth/user', { as: managed.as })).body).toMatchObject({ connectedSellers: [] });
    expect((await v(33).put(`/users/${managed.username}/sellers/${linked}`, undefined, { as: vendorUser.as })).status).toBe(204);
    expect((await v(33).get(`/${linked}/taxes`, { as: managed.as })).status).toBe(200);
    expect((await v(26).del(`/users/${managed.username}/sellers/${linked}`, { as: vendorUser.as })).status).toBe(204);
    forbidden(await v(33).get(`/${linked}/taxes`, { as: managed.as }));
  });
});
