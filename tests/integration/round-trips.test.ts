/**
 * What a register's calls cost in DynamoDB round trips (docs/conventions.md §27): the functions' handlers run in-process
 * on API Gateway events against DynamoDB Local, and every command their client sends is recorded. A round trip is a
 * register's wait in AWS, so the count is part of the contract; the guarantees it must keep (credentials checked first,
 * a deleted seller's data 404) are asserted beside it.
 */
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as catalog } from '#functions/catalog/handler.ts';
import { handler as fiscal } from '#functions/fiscal/handler.ts';
import { db } from '#shared/db/client.ts';
import { newFiscalSeller } from '../support/fiscal-load.ts';
import { saleOf } from '../support/fiscal.ts';
import { type CallOptions, v } from '../support/http.ts';

const RECORDER = 'recordCommands';
afterEach(() => {
  db().middlewareStack.remove(RECORDER);
});

/** The DynamoDB commands sent while `work` runs, by name, in order. */
async function commandsOf<T>(work: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const commands: string[] = [];
  db().middlewareStack.add(
    (next, context) => (args) => {
      commands.push((context.commandName ?? '').replace(/Command$/, ''));
      return next(args);
    },
    { step: 'initialize', name: RECORDER },
  );
  try {
    return { result: await work(), commands };
  } finally {
    db().middlewareStack.remove(RECORDER);
  }
}

const fixture: APIGatewayProxyEventV2 = JSON.parse(
  readFileSync(new URL('../fixtures/http-api-v2-post-tax-base64.json', import.meta.url), 'utf8'),
);
const context = { awsRequestId: 'round-trips', functionName: 'round-trips' } as Context;
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** A request as API Gateway delivers it, answered in-process by `handler`, with the commands it sent. */
function invoke(handler: Handler, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return commandsOf(async () => {
    const result = await handler(
      {
        ...fixture,
        rawPath: path,
        rawQueryString: '',
        headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
        requestContext: { ...fixture.requestContext, http: { ...fixture.requestContext.http, method, path } },
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
    const { result, commands } = await invoke(catalog, 'GET', `/v33/${sellerId}/taxes/${TAX.identifier}`, { 'x-api-key': apiKey });
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
  it('posts a sale', async () => {
    const sale = saleOf(12_500);
    const { result, commands } = await invoke(fiscal, 'POST', `/v33/${sellerId}/registrations/RT1/sales`, { 'x-api-key': apiKey }, sale);
    expect(result).toMatchObject({ status: 201, body: { identifier: sale.identifier } });
    console.log(commands);
    const printed = await invoke(
      fiscal,
      'POST',
      `/v33/${sellerId}/registrations/RT1/sales/${sale.identifier}/receipt`,
      { 'x-api-key': apiKey },
    );
    expect(printed.result).toMatchObject({ status: 201 });
    console.log(printed.commands);
  });
});
