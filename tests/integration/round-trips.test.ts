/**
 * What a register's calls cost in DynamoDB round trips (docs/decisions.md, Round trips): the functions' handlers run in-process
 * on API Gateway events against DynamoDB Local, and every command their client sends is recorded (the bench's recorder,
 * scripts/bench/calls.ts). A round trip is a register's wait in AWS, so the count is part of the contract; the
 * guarantees it must keep (credentials checked first, a deleted seller's data 404) are asserted beside it.
 */
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as catalog } from '#functions/catalog/handler.ts';
import { handler as fiscal } from '#functions/fiscal/handler.ts';
import { db } from '#shared/db/client.ts';
import { type CallRecorder, recordCalls } from '../../scripts/bench/calls.ts';
import { newFiscalSeller, type StoredSale } from '../support/fiscal-load.ts';
import { saleOf } from '../support/fiscal.ts';
import { type CallOptions, v } from '../support/http.ts';

let recorder: CallRecorder;

/** The DynamoDB commands sent while `work` runs, by name, in order. */
async function commandsOf<T>(work: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const { result, calls } = await recorder.record(work);
  return { result, commands: calls.map((call) => call.command) };
}

const fixture: APIGatewayProxyEventV2 = JSON.parse(
  readFileSync(new URL('../fixtures/http-api-v2-post-tax-base64.json', import.meta.url), 'utf8'),
);
const context = { awsRequestId: 'round-trips', functionName: 'round-trips' } as Context;
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** A request as API Gateway delivers it (`path` may end in a query), answered in-process by `handler`, with the commands it sent. */
function invoke(handler: Handler, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const [rawPath = path, rawQueryString = ''] = path.split('?');
  return commandsOf(async () => {
    const result = await handler(
      {
        ...fixture,
        rawPath,
        rawQueryString,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
        requestContext: { ...fixture.requestContext, http: { ...fixture.requestContext.http, method, path: rawPath } },
        body: body === undefined ? undefined : JSON.stringify(body),
        isBase64Encoded: false,
      },
      context,
    );
    return { status: result.statusCode, body: result.body ? (JSON.parse(result.body) as unknown) : undefined };
  });
}

let sellerId: string;
let apiKey: string;
let as: CallOptions;
const TAX = { identifier: 'moms25', vat: 25, name: 'Moms 25' };

beforeAll(async () => {
  recorder = recordCalls(db());
  const seller = await newFiscalSeller();
  sellerId = seller.sellerId;
  as = await seller.register('RT1');
  apiKey = as.as !== undefined && as.as !== 'none' && 'apiKey' in as.as ? as.as.apiKey : '';
  // The register's first call marks its activation WORKING (a write, once per activation) and creates the tax.
  expect((await v(33).post(`/${sellerId}/taxes`, TAX, as)).status).toBe(201);
  // One request of each function, so the maintenance switch is known to both and what follows is a warm container's.
  await invoke(catalog, 'GET', `/v33/${sellerId}/taxes/${TAX.identifier}`, { 'x-api-key': apiKey });
  await invoke(fiscal, 'GET', `/v33/${sellerId}/registrations/RT1/version`, { 'x-api-key': apiKey });
});

describe("a register's catalog calls", () => {
  it('reads a tax by its identifier in one round trip', async () => {
    const { result, commands } = await invoke(catalog, 'GET', `/v33/${sellerId}/taxes/${TAX.identifier}`, {
      'x-api-key': apiKey,
    });
    expect(result).toMatchObject({ status: 200, body: { identifier: TAX.identifier, vat: 25 } });
    expect(commands).toEqual(['BatchGetItem']);
  });

  it('reads a missing tax as 404 in one round trip', async () => {
    const { result, commands } = await invoke(catalog, 'GET', `/v33/${sellerId}/taxes/no-such-tax`, { 'x-api-key': apiKey });
    expect(result).toMatchObject({ status: 404, body: { exception: 'NotFound' } });
    expect(commands).toEqual(['BatchGetItem']);
  });

  it('lists its taxes in two round trips', async () => {
    const { result, commands } = await invoke(catalog, 'GET', `/v33/${sellerId}/taxes`, { 'x-api-key': apiKey });
    expect(result).toMatchObject({ status: 200, body: [{ identifier: TAX.identifier }] });
    expect(commands).toEqual(['BatchGetItem', 'Query']);
  });

  it('replaces a tax in two round trips: one read, one transaction', async () => {
    const { result, commands } = await invoke(
      catalog,
      'PUT',
      `/v33/${sellerId}/taxes/${TAX.identifier}`,
      { 'x-api-key': apiKey },
      { ...TAX, name: 'Moms 25 %' },
    );
    expect(result).toMatchObject({ status: 204 });
    expect(commands).toEqual(['BatchGetItem', 'TransactWriteItems']);
    expect((await v(33).get(`/${sellerId}/taxes/${TAX.identifier}`, as)).body).toMatchObject({ name: 'Moms 25 %' });
  });

  it('is refused with a wrong key before anything is revealed, in one round trip', async () => {
    const { result, commands } = await invoke(catalog, 'GET', `/v33/${sellerId}/taxes/${TAX.identifier}`, {
      'x-api-key': 'not-a-key-of-any-register',
    });
    expect(result).toMatchObject({ status: 403, body: { code: 'WRONG_USERNAME_OR_PASSWORD' } });
    expect(JSON.stringify(result.body)).not.toContain('Moms');
    expect(commands).toEqual(['BatchGetItem']);
  });

  it('is refused with malformed credentials without a read', async () => {
    const { result, commands } = await invoke(catalog, 'GET', `/v33/${sellerId}/taxes/${TAX.identifier}`, {
      authorization: 'Bearer something',
    });
    expect(result).toMatchObject({ status: 403, body: { code: 'AUTHORIZATION_DATA_IS_NOT_VALID' } });
    expect(commands).toEqual([]);
  });
});

describe("a register's fiscal calls", () => {
  const postSale = (sale: { identifier: string }) =>
    invoke(fiscal, 'POST', `/v33/${sellerId}/registrations/RT1/sales`, { 'x-api-key': apiKey }, sale);
  const print = (identifier: string, idempotencyKey?: string) =>
    invoke(fiscal, 'POST', `/v33/${sellerId}/registrations/RT1/sales/${identifier}/receipt`, {
      'x-api-key': apiKey,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    });

  /** A GET of the register's records by path after `/v33/{sellerId}/registrations/RT1`. */
  const read = (path: string, key = apiKey) =>
    invoke(fiscal, 'GET', `/v33/${sellerId}/registrations/RT1${path}`, { 'x-api-key': key });
  const base = () => `/${sellerId}/registrations/RT1`;
  /** Another container (the local stack's) prints the receipts not yet printed and closes the day: its number. */
  const closeDayElsewhere = async (): Promise<number> => {
    const listed = (await v(33).get(`/${sellerId}/sales?cashRegisterName=RT1&maxResults=1000`, as)).body as StoredSale[];
    for (const unprinted of listed.filter((each) => each.prints.length === 0)) {
      expect((await v(33).post(`${base()}/sales/${unprinted.identifier}/receipt`, undefined, as)).status).toBe(201);
    }
    const closed = await v(33).post(`${base()}/days/current`, undefined, as);
    expect(closed.status).toBe(201);
    return (closed.body as { dayNumber: number }).dayNumber;
  };

  beforeAll(async () => {
    // The register's first sale opens its day: the process has now read its ledger once, as a warm container has.
    expect((await postSale(saleOf(100))).result.status).toBe(201);
  });

  it('posts a sale in two round trips: one read, one transaction', async () => {
    const sale = saleOf(12_500);
    const { result, commands } = await postSale(sale);
    expect(result).toMatchObject({ status: 201, body: { identifier: sale.identifier } });
    expect(commands).toEqual(['BatchGetItem', 'TransactWriteItems']);
  });

  it('answers a repeated sale as the first time in one round trip, and writes nothing', async () => {
    const sale = saleOf(4_000);
    expect((await postSale(sale)).result.status).toBe(201);
    const { result, commands } = await postSale(sale);
    expect(result).toMatchObject({ status: 201, body: { identifier: sale.identifier } });
    expect(commands).toEqual(['BatchGetItem']);
  });

  it('prints a receipt in two round trips: one read, one transaction', async () => {
    const sale = saleOf(7_000);
    expect((await postSale(sale)).result.status).toBe(201);
    const { result, commands } = await print(sale.identifier);
    expect(result).toMatchObject({ status: 201, body: { printType: 'Normal' } });
    expect(commands).toEqual(['BatchGetItem', 'TransactWriteItems']);
  });

  it('writes a sale on the day another container opened since, one read later', async () => {
    // Another container (the local stack's) closes the day this process read, prints its Z report and opens the next.
    const closedDay = await closeDayElsewhere();
    expect((await v(33).post(`${base()}/days/${closedDay}/report`, undefined, as)).status).toBe(201);
    expect((await v(33).post(`${base()}/sales`, saleOf(300), as)).status).toBe(201);

    const sale = saleOf(900);
    const { result, commands } = await postSale(sale);
    expect(result).toMatchObject({ status: 201, body: { identifier: sale.identifier } });
    // The day read ahead was the closed one: the one the counter names is read after it.
    expect(commands).toEqual(['BatchGetItem', 'GetItem', 'TransactWriteItems']);
    const stored = (await v(33).get(`/${sellerId}/sales?cashRegisterName=RT1&maxResults=1000`, as)).body as {
      identifier: string;
    }[];
    expect(stored.find((each) => each.identifier === sale.identifier)).toMatchObject({ day: closedDay + 1 });
    // This process has now seen the new day: the next sale reads it ahead again.
    expect((await postSale(saleOf(50))).commands).toEqual(['BatchGetItem', 'TransactWriteItems']);
  });

  it('answers a print repeated under its Idempotency-Key in one round trip, and writes nothing', async () => {
    const sale = saleOf(2_500);
    expect((await postSale(sale)).result.status).toBe(201);
    const key = `rt-${sale.identifier}`;
    const first = await print(sale.identifier, key);
    expect(first.result).toMatchObject({ status: 201, body: { printType: 'Normal' } });
    const { result, commands } = await print(sale.identifier, key);
    expect(result).toEqual(first.result);
    expect(commands).toEqual(['BatchGetItem']);
  });

  it('reads a printed receipt in one round trip, in v33 and in v15', async () => {
    const sale = saleOf(3_000);
    expect((await postSale(sale)).result.status).toBe(201);
    expect((await print(sale.identifier)).result.status).toBe(201);
    const { result, commands } = await read(`/sales/${sale.identifier}/receipt`);
    expect(result).toMatchObject({ status: 200, body: { printType: 'Normal', sale: { identifier: sale.identifier } } });
    expect(commands).toEqual(['BatchGetItem']);
    // v15 names the register by `cashRegisterName`, or leaves it out to mean the caller's own.
    for (const query of ['', '?cashRegisterName=RT1']) {
      const v15 = await invoke(fiscal, 'GET', `/v15/${sellerId}/sales/${sale.identifier}/receipt${query}`, {
        'x-api-key': apiKey,
      });
      expect(v15.result).toMatchObject({ status: 200, body: { printType: 'Normal' } });
      expect(v15.commands).toEqual(['BatchGetItem']);
    }
  });

  it('is refused a receipt with a wrong key before anything is revealed, in one round trip', async () => {
    const sale = saleOf(3_100);
    expect((await postSale(sale)).result.status).toBe(201);
    expect((await print(sale.identifier)).result.status).toBe(201);
    const { result, commands } = await read(`/sales/${sale.identifier}/receipt`, 'not-a-key-of-any-register');
    expect(result).toMatchObject({ status: 403, body: { code: 'WRONG_USERNAME_OR_PASSWORD' } });
    expect(JSON.stringify(result.body)).not.toContain(sale.identifier);
    expect(commands).toEqual(['BatchGetItem']);
  });

  it("reads the register's cash balance in one round trip", async () => {
    const { result, commands } = await read('/balance');
    expect(result).toMatchObject({ status: 200, body: { amount: expect.any(Number) as number } });
    expect(commands).toEqual(['BatchGetItem']);
  });

  it("reads the open day's X report in two round trips: one read, the Query of the day's sales", async () => {
    const days = (await v(33).get(`${base()}/days`, as)).body as { dayNumber: number; opened: boolean }[];
    const open = days.find((day) => day.opened);
    const { result, commands } = await read(`/days/${open?.dayNumber ?? 0}/report`);
    expect(result).toMatchObject({ status: 200, body: { type: 'X' } });
    expect(commands).toEqual(['BatchGetItem', 'Query']);
  });

  it("reads a closed day's Z report in one round trip, in v33 and in v15", async () => {
    const closedDay = await closeDayElsewhere();
    const { result, commands } = await read(`/days/${closedDay}/report`);
    expect(result).toMatchObject({ status: 200, body: { type: 'Z' } });
    expect(commands).toEqual(['BatchGetItem']);
    const v15 = await invoke(fiscal, 'GET', `/v15/${sellerId}/days/${closedDay}/report?cashRegisterName=RT1`, {
      'x-api-key': apiKey,
    });
    expect(v15.result).toMatchObject({ status: 200, body: { type: 'Z' } });
    expect(v15.commands).toEqual(['BatchGetItem']);
  });
});
