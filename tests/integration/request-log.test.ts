/**
 * The request log line (shared/http/log.ts) as CloudWatch Logs receives it: one JSON line on stdout per request,
 * which is also the request's metrics in Embedded Metric Format, fed real API Gateway v2 events against DynamoDB
 * Local. What it must say, and what it must never say (bodies, credentials, seller ids, user names).
 */
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// Every request's line, not only 5xx ones (the test run sets LOG_REQUESTS=false); read when log.ts loads.
vi.hoisted(() => {
  process.env.LOG_REQUESTS = 'true';
});

const { handler: catalog } = await import('#functions/catalog/handler.ts');
const { handler: fallback } = await import('#functions/fallback/handler.ts');
const { handler: sellers } = await import('#functions/sellers/handler.ts');
const { createUserIfAbsent } = await import('#shared/auth/users.ts');
const { count, NAMESPACE } = await import('#shared/http/metrics.ts');

const fixture = (name: string): APIGatewayProxyEventV2 =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8'));
const contextOf = (awsRequestId: string) => ({ awsRequestId, functionName: 'cash-register-test-catalog' }) as Context;

const USERNAME = 'log-probe-operator';
const PASSWORD = 'log-probe-password-4711';
const SELLER = 'SE5569912345';
const BODY_MARKER = 'Probe-Tax-Name-Quux';
const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

let requests = 0;
/** An event of the GET fixture with another method, path, credentials and body, and a request id of its own. */
function request(
  method: string,
  rawPath: string,
  options: { authorization?: string; body?: unknown } = {},
): APIGatewayProxyEventV2 {
  const event = fixture('http-api-v2-get-tax');
  const headers: Record<string, string> = { ...event.headers, authorization: options.authorization ?? basic(USERNAME, PASSWORD) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return {
    ...event,
    rawPath,
    headers,
    requestContext: {
      ...event.requestContext,
      requestId: `api-request-${++requests}`,
      http: { ...event.requestContext.http, method },
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  };
}

let written: string[] = [];
beforeEach(() => {
  written = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void written.push(String(line)));
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The request lines written since the test began, parsed. */
const requestLines = () =>
  written.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => 'requestId' in line);

beforeAll(async () => {
  await createUserIfAbsent({
    username: USERNAME,
    password: PASSWORD,
    email: 'probe@example.com',
    role: 'HYPER_ADMIN',
    softwareVendor: null,
    sellers: [],
  });
});

/** What makes a line a valid EMF document: every metric a number beside `_aws`, every dimension a string. */
function expectEmf(line: Record<string, unknown>): void {
  const aws = line._aws as {
    Timestamp: unknown;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  expect(typeof aws.Timestamp).toBe('number');
  expect(aws.CloudWatchMetrics.length).toBeGreaterThan(0);
  for (const directive of aws.CloudWatchMetrics) {
    expect(directive.Namespace).toBe(NAMESPACE);
    for (const dimension of directive.Dimensions.flat())
      expect({ dimension, type: typeof line[dimension] }).toEqual({ dimension, type: 'string' });
    for (const { Name } of directive.Metrics) expect({ Name, type: typeof line[Name] }).toEqual({ Name, type: 'number' });
  }
}

const metricNames = (line: Record<string, unknown>) =>
  (line._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }).CloudWatchMetrics.flatMap(({ Metrics }) =>
    Metrics.map(({ Name }) => Name),
  );

describe('the request log line', () => {
  it('names both request ids, the cold start, version, route pattern, caller kind, status, time and DynamoDB cost', async () => {
    // Act: the process's first request, then a second one.
    const created = await sellers(
      request('PUT', `/v33/sellers/${SELLER}`, {
        body: { corporateId: SELLER.slice(2), country: 'SE', publicAccess: true, workHoursWeek: {} },
      }),
      contextOf('lambda-1'),
    );
    const read = await catalog(request('GET', `/v26/${SELLER}/taxes/absent`), contextOf('lambda-2'));

    // Assess
    expect([created.statusCode, read.statusCode]).toEqual([201, 404]);
    const [first, second] = requestLines();
    expect(first).toMatchObject({
      level: 'info',
      requestId: 'api-request-1',
      lambdaRequestId: 'lambda-1',
      function: 'cash-register-test-catalog',
      coldStart: true,
      version: 'v33',
      method: 'PUT',
      route: 'PUT /v33/sellers/{sellerId}',
      caller: 'user',
      status: 201,
      Requests: 1,
      Faults: 0,
    });
    expect(first?.ms).toEqual(expect.any(Number));
    expect(first?.Latency).toBe(first?.ms);
    const usage = first?.dynamodb as { roundTrips: number; waitMs: number };
    expect(usage.roundTrips).toBeGreaterThan(0);
    expect(usage.waitMs).toEqual(expect.any(Number));
    expect(first?.WriteCapacity).toBeGreaterThan(0);
    expect(second).toMatchObject({
      lambdaRequestId: 'lambda-2',
      coldStart: false,
      version: 'v26',
      route: 'GET /v26/{sellerId}/taxes/{identifier}',
      caller: 'user',
      status: 404,
      exception: 'NotFound',
      code: null,
      Errors: 1,
    });
    for (const line of [first, second]) expectEmf(line ?? {});
    expect(metricNames(first ?? {})).not.toContain('Errors');
    expect(metricNames(second ?? {})).toContain('Errors');
  });

  it('never holds the body, the credentials, the seller id or the user name', async () => {
    // Act: a write with a body, a refused login, and a request that fails on its body.
    await catalog(request('POST', `/v26/${SELLER}/taxes`, { body: { vat: 25, name: BODY_MARKER } }), contextOf('a'));
    const refused = await catalog(
      request('GET', `/v26/${SELLER}/taxes`, { authorization: basic(USERNAME, `${PASSWORD}-wrong`) }),
      contextOf('b'),
    );
    await catalog(request('POST', `/v26/${SELLER}/taxes`, { body: { vat: 'x', name: BODY_MARKER } }), contextOf('c'));

    // Assess
    expect(refused.statusCode).toBe(403);
    const lines = requestLines();
    expect(lines.map(({ status, caller, exception, code }) => ({ status, caller, exception, code }))).toEqual([
      { status: 201, caller: 'user', exception: undefined, code: undefined },
      { status: 403, caller: 'anonymous', exception: 'Forbidden', code: 'WRONG_USERNAME_OR_PASSWORD' },
      { status: 400, caller: 'user', exception: 'MessageNotReadable', code: null },
    ]);
    const text = written.join('\n');
    for (const secret of [
      BODY_MARKER,
      SELLER,
      SELLER.slice(2),
      USERNAME,
      PASSWORD,
      basic(USERNAME, PASSWORD).slice('Basic '.length),
    ]) {
      expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
    }
  });

  it('names no route for a path no endpoint has, and answers GET /health without credentials', async () => {
    // Act
    const unknown = await fallback(fixture('http-api-v2-default-route'), contextOf('d'));
    const health = await fallback(request('GET', '/health', { authorization: '' }), contextOf('e'));
    const healthPost = await fallback(request('POST', '/health', { authorization: '' }), contextOf('f'));

    // Assess
    expect([unknown.statusCode, health.statusCode, JSON.parse(health.body ?? 'null')]).toEqual([404, 200, { status: 'UP' }]);
    expect([healthPost.statusCode, healthPost.headers?.Allow]).toEqual([405, 'GET']);
    expect(requestLines().map(({ version, route, caller, status }) => ({ version, route, caller, status }))).toEqual([
      { version: 'v33', route: 'GET unmatched', caller: 'anonymous', status: 404 },
      { version: 'none', route: 'GET /health', caller: 'anonymous', status: 200 },
      { version: 'none', route: 'POST /health', caller: 'anonymous', status: 405 },
    ]);
  });
});

describe('count (shared/http/metrics.ts)', () => {
  it('writes one EMF line: the metric at 1 under its dimension, in the namespace of the stage', () => {
    // Act
    count('KdOutcome', { outcome: 'ControlUnitUnavailable' });

    // Assess
    const [line] = written.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(written).toHaveLength(1);
    expect(line).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [{ Namespace: NAMESPACE, Dimensions: [['outcome']], Metrics: [{ Name: 'KdOutcome', Unit: 'Count' }] }],
      },
      outcome: 'ControlUnitUnavailable',
      KdOutcome: 1,
    });
    expectEmf(line ?? {});
  });
});
