/** The typed client (client/) against the local stack: credentials, ETags and the idempotent sale retry. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type ClientConfig,
  createCashRegisterClient,
  errorBodyOf,
  ifMatch,
  postSale,
  type Sale,
  sendOnce,
  updateWithETag,
} from '../../client/src/index.ts';
import { activateRegister, registerApp, saleOf } from '../support/fiscal.ts';
import { swedishCorporateId } from '../support/identity.ts';

const config = (fields: Partial<ClientConfig> = {}): ClientConfig => ({
  baseUrl: inject('baseUrl'),
  auth: inject('admin'),
  ...fields,
});
const admin = () => createCashRegisterClient(33, config());

let sellerId: string;
let apiKey: string;
const cash = 'K1';

beforeAll(async () => {
  const corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  const register = await activateRegister(33, await registerApp(), corporateId, cash);
  apiKey = register.as !== undefined && register.as !== 'none' && 'apiKey' in register.as ? register.as.apiKey : '';
});

const registerClient = (fields: Partial<ClientConfig> = {}) =>
  createCashRegisterClient(33, config({ auth: { apiKey }, ...fields }));
const sale = (fields: Partial<Sale> = {}): Sale => ({ ...(saleOf(1250) as Sale), ...fields });

/** The identifiers of the register's sales, as the admin lists them. */
async function saleIds(): Promise<string[]> {
  const { data } = await admin().GET('/v33/{sellerId}/sales', {
    params: { path: { sellerId }, query: { cashRegisterName: cash } },
  });
  return (data ?? []).map((item) => item?.identifier ?? '');
}

describe('credentials', () => {
  it('signs a user in with Basic and a register with X-Api-Key; a wrong password is the pinned 403', async () => {
    const taxes = await registerClient().GET('/v33/{sellerId}/taxes', { params: { path: { sellerId } } });
    expect([taxes.response.status, taxes.data]).toEqual([200, []]);

    const seller = await admin().GET('/v33/sellers/{sellerId}', { params: { path: { sellerId } } });
    expect(seller.response.status).toBe(200);

    const wrong = createCashRegisterClient(33, config({ auth: { username: inject('admin').username, password: 'wrong' } }));
    const refused = await wrong.GET('/v33/sellers/{sellerId}', { params: { path: { sellerId } } });
    expect([refused.response.status, errorBodyOf(refused.error)?.exception, errorBodyOf(refused.error)?.code]).toEqual([
      403,
      'Forbidden',
      'WRONG_USERNAME_OR_PASSWORD',
    ]);
  });
});

describe('ETags', () => {
  it('writes with If-Match, and after a lost race (409 VersionConflict) applies the change again to a fresh read', async () => {
    const path = { params: { path: { sellerId, identifier: `t${randomUUID().slice(0, 8)}` } } };
    expect(
      (await admin().PUT('/v33/{sellerId}/taxes/{identifier}', { ...path, body: { vat: 25, name: 'Moms' } })).response.status,
    ).toBe(201);
    let changes = 0;
    const updated = await updateWithETag({
      read: () => admin().GET('/v33/{sellerId}/taxes/{identifier}', path),
      change: (current) => {
        changes++;
        return { vat: current?.vat ?? 0, name: `${current?.name ?? ''} +` };
      },
      write: async (next, etag) => {
        // Another writer gets in between the first read and its write.
        if (changes === 1) await admin().PUT('/v33/{sellerId}/taxes/{identifier}', { ...path, body: { vat: 12, name: 'Mat' } });
        return admin().PUT('/v33/{sellerId}/taxes/{identifier}', { ...path, body: next, headers: ifMatch(etag) });
      },
    });

    expect([updated.response.status, updated.attempts]).toEqual([204, 2]);
    const read = await admin().GET('/v33/{sellerId}/taxes/{identifier}', path);
    expect(read.data).toMatchObject({ vat: 12, name: 'Mat +' });
  });
});

describe('the idempotent sale retry', () => {
  it('sends a sale again when its answer was lost in the network, and the service records it once (Idempotent-Replayed)', async () => {
    let lose = 1;
    const register = registerClient({
      fetch: async (request) => {
        const response = await fetch(request);
        if (lose-- > 0) throw new TypeError('fetch failed');
        return response;
      },
    });
    const posted = await postSale(register, sellerId, cash, sale(), { wait: async () => undefined });

    expect([posted.response.status, posted.attempts, posted.replayed]).toEqual([201, 2, true]);
    expect((await saleIds()).filter((id) => id === posted.data?.identifier)).toHaveLength(1);
  });

  it("waits what a 503's Retry-After says, and names a sale without an identifier before the first attempt", async () => {
    let busy = 1;
    const waits: number[] = [];
    const register = registerClient({
      fetch: async (request) =>
        busy-- > 0 ? new Response(null, { status: 503, headers: { 'Retry-After': '1' } }) : fetch(request),
    });
    const posted = await postSale(register, sellerId, cash, sale({ identifier: null }), {
      wait: async (ms) => {
        waits.push(ms);
      },
    });

    expect([posted.response.status, posted.attempts, posted.replayed, waits]).toEqual([201, 2, false, [1000]]);
    expect(posted.data?.identifier).toMatch(/^[0-9a-f-]{36}$/);
    expect((await saleIds()).filter((id) => id === posted.data?.identifier)).toHaveLength(1);
  });

  it('answers a refusal at once: another body under a recorded identifier is 409 VersionConflict', async () => {
    const first = sale();
    expect((await postSale(registerClient(), sellerId, cash, first)).response.status).toBe(201);
    const conflict = await postSale(registerClient(), sellerId, cash, { ...first, sellerIdentifier: 'Bertil' });

    expect([conflict.response.status, conflict.attempts, errorBodyOf(conflict.error)?.exception]).toEqual([
      409,
      1,
      'VersionConflict',
    ]);
  });
});

describe('a write without an identifier of its own, sent under one Idempotency-Key (sendOnce)', () => {
  it('a deposit whose answer was lost is sent again with its key, and the drawer counts it once', async () => {
    const corporateId = swedishCorporateId();
    const seller = `SE${corporateId}`;
    const credentials = await activateRegister(33, await registerApp(), corporateId, 'K2');
    const key =
      credentials.as !== undefined && credentials.as !== 'none' && 'apiKey' in credentials.as ? credentials.as.apiKey : '';
    const sent: (string | null)[] = [];
    let lose = 1;
    const register = createCashRegisterClient(
      33,
      config({
        auth: { apiKey: key },
        fetch: async (request) => {
          sent.push(request.headers.get('Idempotency-Key'));
          const response = await fetch(request);
          if (lose-- > 0) throw new TypeError('fetch failed');
          return response;
        },
      }),
    );
    const path = { sellerId: seller, cash: 'K2' };
    const deposit = await sendOnce(
      (headers) =>
        register.POST('/v33/{sellerId}/registrations/{cash}/balance', {
          params: { path },
          body: { amount: 50_000, action: 'DEPOSIT' },
          headers,
        }),
      { wait: async () => undefined },
    );

    expect([deposit.response.status, deposit.data, deposit.attempts, deposit.replayed]).toEqual([
      201,
      { amount: 50_000 },
      2,
      true,
    ]);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toBe(sent[0]);
    const balance = await register.GET('/v33/{sellerId}/registrations/{cash}/balance', { params: { path } });
    expect(balance.data).toEqual({ amount: 50_000 });
  });
});
