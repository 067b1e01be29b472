/**
 * The maintenance switch over HTTP (docs/conventions.md §24), flipped with `npm run maintenance` as an operator
 * does. On a stack of its own: the switch holds for every route of a stack, and the other test files share theirs.
 * That stack keeps the switch for 0 s (MAINTENANCE_CACHE_SECONDS), so a flip holds from the next request.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startStack } from '../../infra/local/stack.ts';
import { root } from '../../scripts/build.ts';

const admin = { username: 'operator', password: 'operator-password' };
let stack: LocalStack;

beforeAll(async () => {
  process.env.MAINTENANCE_CACHE_SECONDS = '0';
  stack = await startStack({ admin, logRequests: false, lambdaTimeouts: false });
});
afterAll(() => stack?.stop());

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

async function http(method: string, path: string, body?: unknown, credentials = true): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (credentials) headers.Authorization = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text ? JSON.parse(text) : undefined };
}

/** `npm run maintenance -- <args>` against the stack's DynamoDB Local (stage `local`). */
function maintenance(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/maintenance.ts', ...args],
      { cwd: root, env: { ...process.env, DYNAMODB_ENDPOINT: stack.dynamoEndpoint } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    );
  });
}

const SELLER = 'SE5561234567';
const seller = { corporateId: SELLER.slice(2), country: 'SE', publicAccess: true, workHoursWeek: {} };
const serverIsDown = (retryAfter: string) => ({
  status: 503,
  retryAfter,
  body: {
    error: 'ServiceUnavailableJsonException',
    exception: 'ServiceUnavailable',
    code: 'SERVER_IS_DOWN',
    message: expect.any(String),
    details: [],
  },
});

describe('the maintenance switch (npm run maintenance)', () => {
  it('on: every route answers 503 SERVER_IS_DOWN with Retry-After and changes nothing; GET /health stays up; off: as before', async () => {
    // Prepare
    expect((await http('PUT', `/v33/sellers/${SELLER}`, seller)).status).toBe(201);

    // Act: on
    const on = await maintenance('on', '--stage', 'local', '--retry-after', '120');
    const whileOn = {
      write: await http('PUT', `/v33/${SELLER}/taxes/food`, { vat: 12, name: 'Mat' }),
      read: await http('GET', `/v26/${SELLER}/taxes`),
      v15: await http('GET', '/v15/sellers'),
      anonymous: await http('GET', '/v33/sellers', undefined, false),
      health: await http('GET', '/health', undefined, false),
    };
    const status = await maintenance('status', '--stage', 'local');

    // Act: off
    const off = await maintenance('off', '--stage', 'local');
    const afterOff = {
      unchanged: await http('GET', `/v33/${SELLER}/taxes/food`),
      write: await http('PUT', `/v33/${SELLER}/taxes/food`, { vat: 12, name: 'Mat' }),
      health: await http('GET', '/health', undefined, false),
    };

    // Assess
    expect(on).toEqual({ code: 0, output: expect.stringContaining('cash-register-local-2 is ON since') });
    expect(whileOn).toEqual({
      write: serverIsDown('120'),
      read: serverIsDown('120'),
      v15: serverIsDown('120'),
      anonymous: serverIsDown('120'),
      health: { status: 200, retryAfter: null, body: { status: 'UP' } },
    });
    expect(status.output).toContain('Retry-After 120');
    expect(off).toEqual({ code: 0, output: expect.stringContaining('cash-register-local-2 is OFF') });
    expect(afterOff).toMatchObject({
      unchanged: { status: 404, body: { exception: 'NotFound' } },
      write: { status: 201 },
      health: { status: 200, body: { status: 'UP' } },
    });
  });

  it('refuses a command line it does not understand (exit 2), changing nothing', async () => {
    // Act
    const answers = [
      await maintenance('on'),
      await maintenance('maybe', '--stage', 'local'),
      await maintenance('on', '--stage', 'local', '--retry-after', '0'),
    ];
    const after = await http('GET', `/v33/${SELLER}/taxes`);

    // Assess
    expect(answers.map(({ code, output }) => ({ code, usage: output.includes('usage: npm run maintenance') }))).toEqual([
      { code: 2, usage: true },
      { code: 2, usage: true },
      { code: 2, usage: true },
    ]);
    expect(after.status).toBe(200);
  });
});
