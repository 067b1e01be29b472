/**
 * `Idempotency-Key` over HTTP (docs/conventions.md §15): each fiscal write without an identifier of its own, sent
 * twice with one key, is answered twice with one effect; the key with another request is 409 and changes nothing; two
 * concurrent requests with one key have one effect and one replayed answer. kd and e-mail are in tests/e2e/kd.test.ts
 * and tests/e2e/email.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { activateRegister, registerApp, type RegisterApp, saleOf } from '../support/fiscal.ts';
import { type Answer, type CallOptions, expectError, v } from '../support/http.ts';
import { swedishCorporateId } from '../support/identity.ts';

let app: RegisterApp;
beforeAll(async () => {
  app = await registerApp();
});

/** A new seller's register `cash` in v33, with the paths of its fiscal writes and what a client reads back. */
async function newRegister(cash = 'K1') {
  const corporateId = swedishCorporateId();
  const sellerId = `SE${corporateId}`;
  const as = await activateRegister(33, app, corporateId, cash);
  const base = `/${sellerId}/registrations/${cash}`;
  const withKey = (key: string): CallOptions => ({ ...as, headers: { 'Idempotency-Key': key } });
  const read = async (path: string) => {
    const answer = await v(33).get(path, as);
    expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    return answer.body;
  };
  return {
    sellerId,
    base,
    as,
    withKey,
    post: (path: string, body: unknown, key: string) => v(33).post(path, body, withKey(key)),
    journal: async () =>
      ((await read(`/${sellerId}/e-journals/${cash}?maxResults=1000`)) as { type: string }[]).map((entry) => entry.type),
    balance: async () => ((await read(`${base}/balance`)) as { amount: number }).amount,
    version: async () => ((await read(`${base}/version`)) as { version: number }).version,
    sale: async (brutto: number) => {
      const sale = saleOf(brutto);
      expect((await v(33).post(`${base}/sales`, sale, as)).status).toBe(201);
      return sale.identifier;
    },
  };
}

/** The first answer and its repeat: the same status and body, the repeat marked replayed. */
function expectReplayed(first: Answer, again: Answer, status: number): void {
  expect([first.status, first.headers.get('idempotent-replayed')], first.text).toEqual([status, null]);
  expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([status, 'true', first.body]);
}

describe('a write sent twice with one Idempotency-Key has one effect and answers the first answer again', () => {
  it('a deposit: the drawer holds 500.00, not 1,000.00, and the journal one BALANCE', async () => {
    const register = await newRegister();
    const key = randomUUID();
    const deposit = { amount: 50_000, action: 'DEPOSIT' };
    const first = await register.post(`${register.base}/balance`, deposit, key);
    const again = await register.post(`${register.base}/balance`, deposit, key);
    expectReplayed(first, again, 201);
    expect(first.body).toEqual({ amount: 50_000 });
    expect(await register.balance()).toBe(50_000);
    expect(await register.journal()).toEqual(['DAY_OPENED', 'BALANCE']);
    // Another key is another deposit.
    expect((await register.post(`${register.base}/balance`, deposit, randomUUID())).body).toEqual({ amount: 100_000 });
  });

  it('a receipt print: one receipt number taken, the same receipt answered', async () => {
    const register = await newRegister();
    const sale = await register.sale(12_500);
    const key = randomUUID();
    const first = await register.post(`${register.base}/sales/${sale}/receipt`, undefined, key);
    const again = await register.post(`${register.base}/sales/${sale}/receipt`, undefined, key);
    expectReplayed(first, again, 201);
    expect(first.body).toMatchObject({ receiptNumber: 1, printType: 'Normal' });
    // Without its key a repeat is the refusal it always was; the next sale prints number 2.
    expectError(
      await v(33).post(`${register.base}/sales/${sale}/receipt`, undefined, register.as),
      422,
      'UnprocessableEntity',
      'RECEIPT_IS_PRINTED_ALREADY',
    );
    const next = await register.sale(4_000);
    expect((await register.post(`${register.base}/sales/${next}/receipt`, undefined, randomUUID())).body).toMatchObject({
      receiptNumber: 2,
    });
    expect(await register.journal()).toEqual(['DAY_OPENED', 'SALE_RECORDED', 'PRINT', 'SALE_RECORDED', 'PRINT']);
  });

  it('a copy (v33 GET .../copy): one copy recorded, the same copy answered', async () => {
    const register = await newRegister();
    const sale = await register.sale(12_500);
    expect((await register.post(`${register.base}/sales/${sale}/receipt`, undefined, randomUUID())).status).toBe(201);
    const key = randomUUID();
    const first = await v(33).get(`${register.base}/sales/${sale}/copy`, register.withKey(key));
    const again = await v(33).get(`${register.base}/sales/${sale}/copy`, register.withKey(key));
    expectReplayed(first, again, 200);
    expect(first.body).toMatchObject({ receiptNumber: 1, printType: 'Copy' });
    expect(await register.journal()).toEqual(['DAY_OPENED', 'SALE_RECORDED', 'PRINT', 'PRINT']);
  });

  it('a day close, a Z report print and the next day open: one of each', async () => {
    const register = await newRegister();
    await register.post(`${register.base}/balance`, { amount: 1_000, action: 'DEPOSIT' }, randomUUID());
    const closeKey = randomUUID();
    const closed = await register.post(`${register.base}/days/current`, undefined, closeKey);
    expectReplayed(closed, await register.post(`${register.base}/days/current`, undefined, closeKey), 201);
    expect(closed.body).toMatchObject({ dayNumber: 1, opened: false });

    const reportKey = randomUUID();
    const report = await register.post(`${register.base}/days/1/report`, undefined, reportKey);
    expectReplayed(report, await register.post(`${register.base}/days/1/report`, undefined, reportKey), 201);
    expect(report.body).toMatchObject({ type: 'Z', dayNumber: 1 });

    const openKey = randomUUID();
    const opened = await register.post(`/${register.sellerId}/days`, {}, openKey);
    expectReplayed(opened, await register.post(`/${register.sellerId}/days`, {}, openKey), 201);
    expect(opened.body).toEqual({ identifier: '2' });
    expect(await register.journal()).toEqual(['DAY_OPENED', 'BALANCE', 'DAY_CLOSED', 'REPORT_PRINTED', 'DAY_OPENED']);
  });

  it('an e-journal upload: one entry, the same sequence answered', async () => {
    const register = await newRegister();
    const key = randomUUID();
    const event = { type: 'LOGIN', created: Date.now() - 1000, data: {} };
    const path = `/${register.sellerId}/e-journals/K1`;
    const first = await register.post(path, event, key);
    expectReplayed(first, await register.post(path, event, key), 201);
    expect(first.body).toEqual({ sequence: 1 });
    expect(await register.journal()).toEqual(['LOGIN']);
  });
});

describe("v15's own paths take the key too", () => {
  it('a receipt print, a copy (POST), a close and a Z report print, each twice with one key: one of each', async () => {
    const corporateId = swedishCorporateId();
    const sellerId = `SE${corporateId}`;
    const as = await activateRegister(15, app, corporateId, 'K1');
    const twice = async (path: string) => {
      const withKey = { ...as, headers: { 'Idempotency-Key': randomUUID() } };
      const first = await v(15).post(path, undefined, withKey);
      expectReplayed(first, await v(15).post(path, undefined, withKey), 201);
      return first.body;
    };
    const sale = saleOf(12_500);
    expect((await v(15).post(`/${sellerId}/sales`, sale, as)).status).toBe(201);

    expect(await twice(`/${sellerId}/sales/${sale.identifier}/receipt`)).toMatchObject({ receiptNumber: 1, printType: 'Normal' });
    expect(await twice(`/${sellerId}/sales/${sale.identifier}/copy`)).toMatchObject({ receiptNumber: 1, printType: 'Copy' });
    expect(await twice(`/${sellerId}/days/current`)).toMatchObject({ id: 1 });
    expect(await twice(`/${sellerId}/days/1/report`)).toMatchObject({ type: 'Z', dayNumber: 1 });
    const journal = (await v(15).get(`/${sellerId}/e-journals/K1?maxResults=1000`, as)).body as { type: string }[];
    expect(journal.map((entry) => entry.type)).toEqual([
      'DAY_OPENED',
      'SALE_RECORDED',
      'PRINT',
      'PRINT',
      'DAY_CLOSED',
      'REPORT_PRINTED',
    ]);
  });
});

describe('a key is one request', () => {
  it('the key with another body is 409 VersionConflict and changes nothing', async () => {
    const register = await newRegister();
    const key = randomUUID();
    await register.post(`${register.base}/balance`, { amount: 50_000, action: 'DEPOSIT' }, key);
    const version = await register.version();
    const reused = await register.post(`${register.base}/balance`, { amount: 20_000, action: 'WITHDRAWAL' }, key);
    expectError(reused, 409, 'VersionConflict');
    expect([await register.balance(), await register.version(), await register.journal()]).toEqual([
      50_000,
      version,
      ['DAY_OPENED', 'BALANCE'],
    ]);
  });

  it('the key on another route is 409 VersionConflict: a key names one request', async () => {
    const register = await newRegister();
    const key = randomUUID();
    await register.post(`${register.base}/balance`, { amount: 50_000, action: 'DEPOSIT' }, key);
    expectError(await register.post(`/${register.sellerId}/e-journals/K1`, { data: {} }, key), 409, 'VersionConflict');
    expect(await register.journal()).toEqual(['DAY_OPENED', 'BALANCE']);
  });

  it("keys are the register's own: another register's key of the same name is a write of its own", async () => {
    const [first, second] = [await newRegister(), await newRegister()];
    const key = 'deposit-1';
    const deposit = { amount: 7_000, action: 'DEPOSIT' };
    expect((await first.post(`${first.base}/balance`, deposit, key)).headers.get('idempotent-replayed')).toBeNull();
    const other = await second.post(`${second.base}/balance`, deposit, key);
    expect([other.status, other.headers.get('idempotent-replayed'), await second.balance()]).toEqual([201, null, 7_000]);
  });

  it('two concurrent requests with one key: one effect, one answer replayed', async () => {
    const register = await newRegister();
    const key = randomUUID();
    const deposit = { amount: 30_000, action: 'DEPOSIT' };
    const answers = await Promise.all([1, 2, 3].map(() => register.post(`${register.base}/balance`, deposit, key)));
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual(Array(3).fill([201, { amount: 30_000 }]));
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    expect(await register.balance()).toBe(30_000);
    expect(await register.journal()).toEqual(['DAY_OPENED', 'BALANCE']);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a non-ASCII character', 'nyckel-å'],
  ])('a key that is %s is 400 ValueNotValid SHOULD_MATCH_PATTERN and nothing is written', async (_, key) => {
    const register = await newRegister();
    const answer = await register.post(`${register.base}/balance`, { amount: 1_000, action: 'DEPOSIT' }, key);
    expectError(answer, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    expect(await register.version()).toBe(0);
  });

  it('a refusal is not kept: the same key goes through once the refusal is gone', async () => {
    const register = await newRegister();
    const key = randomUUID();
    const withdrawal = { amount: 5_000, action: 'WITHDRAWAL' };
    expectError(
      await register.post(`${register.base}/balance`, withdrawal, key),
      400,
      'ValueNotValid',
      'VALUE_SHOULD_BE_LESS_THEN',
    );
    await register.post(`${register.base}/balance`, { amount: 5_000, action: 'DEPOSIT' }, randomUUID());
    const later = await register.post(`${register.base}/balance`, withdrawal, key);
    expect([later.status, later.body, later.headers.get('idempotent-replayed')]).toEqual([201, { amount: 0 }, null]);
  });
});
