/**
 * A request still at work when its function's time runs out (shared/http/api.ts): answered with the pinned 500 before
 * Lambda stops the function, never with a thrown function error (which the local stack answered 200). No I/O: the
 * route is a plain one, answered after a wait.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { httpApi } from '#shared/http/api.ts';
import { ok } from '#shared/http/response.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/http-api-v2-get-tax.json', import.meta.url), 'utf8'),
) as APIGatewayProxyEventV2;

/** A GET of `path`, as API Gateway sends it. */
const eventFor = (path: string): APIGatewayProxyEventV2 => ({
  ...fixture,
  rawPath: path,
  requestContext: { ...fixture.requestContext, http: { ...fixture.requestContext.http, method: 'GET', path } },
});

/** A Lambda context whose function has `remainingMs` left when the request starts. */
const contextWith = (remainingMs: number): Context => {
  const ends = performance.now() + remainingMs;
  return {
    awsRequestId: 'unit',
    functionName: 'unit',
    getRemainingTimeInMillis: () => Math.max(0, Math.floor(ends - performance.now())),
  } as Context;
};

/** A function whose one route answers after `waitMs`. */
const slowFunction = (waitMs: number) =>
  httpApi([], {
    '/slow': async () => {
      await sleep(waitMs);
      return ok({ done: true });
    },
  });

describe('a request that outlives its function', () => {
  it('is answered 500 InternalServerError with the pinned body before the function times out', async () => {
    // Prepare
    const handler = slowFunction(5_000);
    const started = performance.now();

    // Act
    const result = await handler(eventFor('/slow'), contextWith(800));

    // Assess
    const elapsed = performance.now() - started;
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(String(result.body))).toEqual({
      error: 'InternalServerErrorJsonException',
      exception: 'InternalServerError',
      code: null,
      message: 'The request could not be completed; it has been logged',
      details: [],
    });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(800);
  });

  it('that answers in time is answered as ever', async () => {
    // Prepare
    const handler = slowFunction(50);

    // Act
    const result = await handler(eventFor('/slow'), contextWith(800));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(String(result.body))).toEqual({ done: true });
  });

  it('without a Lambda context (a call in process) has no deadline', async () => {
    // Prepare
    const handler = slowFunction(700);

    // Act
    const result = await handler(eventFor('/slow'), { awsRequestId: 'unit', functionName: 'unit' } as Context);

    // Assess
    expect(result.statusCode).toBe(200);
  });
});
