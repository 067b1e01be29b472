import { readFileSync } from 'node:fs';
import {
  BatchGetItemCommand,
  GetItemCommand,
  QueryCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as catalog } from '#functions/catalog/handler.ts';
import { handler as fallback } from '#functions/fallback/handler.ts';
import { handler as sellers } from '#functions/sellers/handler.ts';
import { createUserIfAbsent, userKeys } from '#shared/auth/users.ts';
import { toAttributes } from '#shared/db/attributes.ts';
import { db } from '#shared/db/client.ts';
import { readItem } from '#shared/db/reads.ts';
import { MAX_ATTEMPTS } from '#shared/db/retry.ts';

/** A real HTTP API (payload 2.0) event, as API Gateway delivers it. */
const fixture = (name: string): APIGatewayProxyEventV2 =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8'));
const context = { awsRequestId: 'test', functionName: 'test' } as Context;
const json = (body: string | undefined) => JSON.parse(body ?? 'null');

let mock: ReturnType<typeof mockClient> | undefined;
let fixtureUser: object | undefined;
afterEach(() => {
  mock?.restore();
  mock = undefined;
});

beforeAll(async () => {
  await createUserIfAbsent({
    username: 'fixture',
    password: 'fixture-password',
    email: 'fixture@example.com',
    role: 'HYPER_ADMIN',
    softwareVendor: null,
    sellers: [],
  });
  fixtureUser = await readItem(userKeys.user('fixture'));
  const sellerBody = { corporateId: '5560360793', country: 'SE', publicAccess: true, workHoursWeek: {} };
  const event = fixture('http-api-v2-post-tax-base64');
  await sellers(
    {
      ...event,
      rawPath: '/v33/sellers/SE5560360793',
      requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method: 'PUT' } },
      body: JSON.stringify(sellerBody),
      isBase64Encoded: false,
    },
    context,
  );
});

describe('handlers fed real API Gateway v2 events', () => {
  it('the $default route answers 404 ENDPOINT_NOT_FOUND in the pinned shape', async () => {
    const result = await fallback(fixture('http-api-v2-default-route'), context);
    expect(result.statusCode).toBe(404);
    expect(result.headers?.['Content-Type']).toBe('application/json;charset=UTF-8');
    expect(json(result.body)).toEqual({
      error: 'NotFoundJsonException',
      exception: 'NotFound',
      code: 'ENDPOINT_NOT_FOUND',
      message: 'No endpoint GET /v33/no-such/endpoint',
      details: [],
    });
  });

  it('a base64-encoded JSON body is decoded, validated and stored', async () => {
    const created = await catalog(fixture('http-api-v2-post-tax-base64'), context);
    expect(created.statusCode).toBe(201);
    const { identifier } = json(created.body) as { identifier: string };

    const read = fixture('http-api-v2-get-tax');
    const result = await catalog({ ...read, rawPath: `/v26/SE5560360793/taxes/${identifier}` }, context);
    expect(result.statusCode).toBe(200);
    expect(json(result.body)).toEqual({ identifier, deleted: false, vat: 25, name: 'Moms', custom: null });
  });

  /** The tax fixture carrying these bytes as its body, base64-encoded as API Gateway sends them. */
  const taxWithBytes = (name: Buffer) => {
    const bytes = Buffer.concat([Buffer.from('{"vat":25,"name":"'), name, Buffer.from('"}')]);
    const event = fixture('http-api-v2-post-tax-base64');
    return { ...event, headers: { ...event.headers, 'content-length': String(bytes.length) }, body: bytes.toString('base64') };
  };

  it.each([
    ['a stray 0xFF', [0x4d, 0xff, 0x73]],
    ['a truncated sequence', [0x4d, 0xc3]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('a body with %s is not UTF-8: 400 MessageNotReadable, not U+FFFD', async (_, bytes) => {
    const result = await catalog(taxWithBytes(Buffer.from(bytes)), context);
    expect(result.statusCode).toBe(400);
    expect(json(result.body)).toEqual({
      error: 'MessageNotReadableJsonException',
      exception: 'MessageNotReadable',
      code: null,
      message: 'The body is not valid UTF-8',
      details: [],
    });
  });

  it('a body nested 100,000 levels deep is 400 MessageNotReadable naming the depth limit, and echoes nothing', async () => {
    const event = fixture('http-api-v2-post-tax-base64');
    const deep = Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const result = await catalog({ ...event, body: deep.toString('base64') }, context);
    expect({ status: result.statusCode, body: json(result.body) }).toEqual({
      status: 400,
      body: {
        error: 'MessageNotReadableJsonException',
        exception: 'MessageNotReadable',
        code: null,
        message: 'The body nests arrays and objects deeper than 32 levels',
        details: [
          {
            field: null,
            code: null,
            message: 'The body nests arrays and objects deeper than 32 levels',
            params: { depthMax: 32 },
          },
        ],
      },
    });
  });

  it('a body of multi-byte UTF-8 is read as sent', async () => {
    const created = await catalog(taxWithBytes(Buffer.from('Moms ÅÄÖ 😀', 'utf8')), context);
    expect(created.statusCode).toBe(201);
    const { identifier } = json(created.body) as { identifier: string };
    const read = fixture('http-api-v2-get-tax');
    const result = await catalog({ ...read, rawPath: `/v26/SE5560360793/taxes/${identifier}` }, context);
    expect(json(result.body)).toMatchObject({ name: 'Moms ÅÄÖ 😀' });
  });

  it('a body without Content-Type is 400 HttpHeaderMissing naming the header', async () => {
    const event = fixture('http-api-v2-post-tax-base64');
    const headers = { ...event.headers };
    delete headers['content-type'];
    const result = await catalog({ ...event, headers }, context);
    expect(result.statusCode).toBe(400);
    expect(json(result.body)).toMatchObject({
      error: 'HttpHeaderMissingJsonException',
      exception: 'HttpHeaderMissing',
      code: null,
      details: [{ field: 'Content-Type', code: null, params: {} }],
    });
  });

  it('an unexpected failure is 500 InternalServerError without internals', async () => {
    mock = mockClient(db());
    mock.on(GetItemCommand).rejects(new Error('socket hang up at 10.0.0.12:443 (secret-table-name)'));
    const result = await catalog(fixture('http-api-v2-get-tax'), context);
    expect(result.statusCode).toBe(500);
    expect(json(result.body)).toEqual({
      error: 'InternalServerErrorJsonException',
      exception: 'InternalServerError',
      code: null,
      message: 'The request could not be completed; it has been logged',
      details: [],
    });
    expect(result.body).not.toMatch(/socket|secret|10\.0\.0|at /);
  });
});

describe('writes under contention (DynamoDB Local never conflicts, so conflicts are injected at the client)', () => {
  const conflict = () =>
    new TransactionCanceledException({
      message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]',
      $metadata: {},
      CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
    });
  /** A client whose reads show the fixture user and a live seller at version 4; writes are set by each test. */
  const clientWithLiveSeller = () => {
    const client = mockClient(db());
    const counter = { pk: 'S#SE5560360793', sk: '#VERSION', ver: 4, live: true };
    // The caller's user is read with its wrong-password counter in one Query of its partition (shared/auth/credentials.ts).
    client.on(QueryCommand).resolves({ Items: [toAttributes(fixtureUser ?? {})] });
    client.on(GetItemCommand).resolves({});
    client
      .on(GetItemCommand, { Key: toAttributes({ pk: counter.pk, sk: counter.sk }) })
      .resolves({ Item: toAttributes(counter) });
    client.on(BatchGetItemCommand).resolves({ Responses: { [inject('tableName')]: [toAttributes(counter)] } });
    return client;
  };

  it('a write that meets a conflicting transaction is retried and succeeds', async () => {
    mock = clientWithLiveSeller();
    mock.on(TransactWriteItemsCommand).rejectsOnce(conflict()).rejectsOnce(conflict()).resolves({});

    const result = await catalog(fixture('http-api-v2-post-tax-base64'), context);

    expect(result.statusCode).toBe(201);
    expect(mock.commandCalls(TransactWriteItemsCommand)).toHaveLength(3);
    // The pipeline's read ahead, then a read for each attempt: a retry decides on a fresh read, not on what was read ahead.
    expect(mock.commandCalls(BatchGetItemCommand)).toHaveLength(4);
  });

  it('a write that keeps conflicting gives up after a bound with 503 ServiceUnavailable', async () => {
    mock = clientWithLiveSeller();
    mock.on(TransactWriteItemsCommand).rejects(conflict());

    const result = await catalog(fixture('http-api-v2-post-tax-base64'), context);

    expect(result.statusCode).toBe(503);
    expect(result.headers?.['Retry-After']).toBe('1');
    expect(json(result.body)).toMatchObject({ exception: 'ServiceUnavailable', code: null });
    expect(mock.commandCalls(TransactWriteItemsCommand)).toHaveLength(MAX_ATTEMPTS);
  });
});
