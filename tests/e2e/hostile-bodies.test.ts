/**
 * A schema-blind fuzz of the write routes (docs/conventions.md §3): bodies nested 100,000 levels deep, bodies just above
 * the size limit, bodies that are not UTF-8, and JSON values of the wrong shape from a seeded generator. Whatever the
 * route, every answer is a 4xx in the pinned error shape (and its route's OpenAPI document: tests/support/http.ts), it
 * is small (nothing of the body comes back), and the register's and the seller's records are what they were.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { activateRegister, registerApp, registerVersion } from '../support/fiscal.ts';
import { type Answer, type CallOptions, v } from '../support/http.ts';
import { swedishCorporateId } from '../support/identity.ts';

/** The JSON body limit (docs/decisions.md, HTTP layer: 1 MiB) and `POST /email`'s (docs/conventions.md §21: 7 MiB). */
const BODY_LIMIT = 1_048_576;
const EMAIL_BODY_LIMIT = 7 * 1_048_576;
/** An error body is a few hundred bytes; an echo of the body would be kilobytes at least. */
const SMALL_ANSWER = 1_000;
const DEEP = 100_000;

/** A deterministic generator (mulberry32): the same values on every run, no clock, no Math.random. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A JSON value of no route's shape: never an object at the top, where every write route takes one. */
function wrongShape(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth < 3 ? 7 : 5));
  const text = () =>
    String.fromCodePoint(...Array.from({ length: Math.floor(random() * 12) }, () => 32 + Math.floor(random() * 0x2fff)));
  if (pick === 0) return null;
  if (pick === 1) return random() < 0.5;
  if (pick === 2) return Math.floor((random() - 0.5) * 2 ** 40) / (random() < 0.5 ? 1 : 100);
  if (pick === 3) return text();
  if (pick === 4 || depth === 0) return Array.from({ length: Math.floor(random() * 4) }, () => wrongShape(random, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [text(), wrongShape(random, depth + 1)]));
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

/** Bodies that must never be read: each a name and the raw bytes sent. */
function hostileBodies(limit: number): [string, Buffer][] {
  return [
    ['100,000 nested [ closed', Buffer.from(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`)],
    ['100,000 nested [ left open', Buffer.from('['.repeat(DEEP))],
    ['100,000 nested {"a": closed', Buffer.from(`${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`)],
    ['one byte over the size limit', Buffer.from(`{"name":"${'x'.repeat(limit - 10)}"}`)],
    ['a stray 0xFF byte', bytes('{"name":"Kaf', [0xff], 'e"}')],
    ['a truncated sequence', bytes('{"name":"Caf', [0xc3], '"}')],
    ['an overlong slash', bytes('{"name":"a', [0xc0, 0xaf], 'b"}')],
    ['an encoded surrogate', bytes('{"name":"a', [0xed, 0xa0, 0x80], 'b"}')],
  ];
}

interface Write {
  name: string;
  method: 'POST' | 'PUT';
  path: string;
  as: CallOptions;
  limit: number;
}

let sellerId: string;
let register: CallOptions;
let writes: Write[];

/** What a refused write must leave as it was: the register's stream, journal, sales, balance and days, the seller's catalog. */
async function records(): Promise<unknown> {
  const reads = [
    `/${sellerId}/e-journals/K1`,
    `/${sellerId}/registrations/K1/sales-minified`,
    `/${sellerId}/registrations/K1/balance`,
    `/${sellerId}/registrations/K1/days`,
    `/${sellerId}/categories`,
    `/sellers/${sellerId}`,
    `/${sellerId}/version`,
  ];
  const answers = await Promise.all(reads.map((path) => v(33).get(path)));
  return {
    registerVersion: await registerVersion(sellerId, 'K1'),
    reads: answers.map((answer, index) => ({ path: reads[index], status: answer.status, text: answer.text })),
    vendors: (await v(33).get('/software-vendors')).text,
  };
}

beforeAll(async () => {
  const corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  register = await activateRegister(33, await registerApp(), corporateId, 'K1');
  const fiscal = (method: Write['method'], path: string, limit = BODY_LIMIT): Write => ({
    name: `${method} ${path}`,
    method,
    path: `/${sellerId}${path}`,
    as: register,
    limit,
  });
  const admin = (method: Write['method'], path: string): Write => ({
    name: `${method} ${path}`,
    method,
    path,
    as: {},
    limit: BODY_LIMIT,
  });
  writes = [
    fiscal('POST', '/registrations/K1/sales'),
    fiscal('PUT', '/sales'),
    fiscal('POST', '/registrations/K1/balance'),
    fiscal('POST', '/days'),
    fiscal('PUT', '/days/1'),
    fiscal('POST', '/registrations/K1/days/current'),
    fiscal('POST', '/registrations/K1/sales/s1/receipt'),
    fiscal('POST', '/registrations/K1/days/1/report'),
    fiscal('POST', '/e-journals/K1'),
    fiscal('POST', '/registration/K1/kd'),
    { name: 'POST /email', method: 'POST', path: '/email', as: register, limit: EMAIL_BODY_LIMIT },
    admin('POST', `/${sellerId}/categories`),
    admin('PUT', `/${sellerId}/categories/c1`),
    admin('POST', '/software-vendors'),
    admin('PUT', `/sellers/${sellerId}`),
  ];
});

const send = (write: Write, raw: Buffer) =>
  v(33)[write.method === 'POST' ? 'post' : 'put'](write.path, undefined, { ...write.as, raw });

function expectRefused(answer: Answer, what: string): void {
  const body = answer.body as
    { error?: unknown; exception?: unknown; code?: unknown; message?: unknown; details?: unknown } | undefined;
  expect(
    {
      clientError: answer.status >= 400 && answer.status < 500,
      contentType: answer.headers.get('content-type'),
      shape: [
        body?.error === `${String(body?.exception)}JsonException`,
        typeof body?.exception,
        body?.code === null ? 'null' : typeof body?.code,
        typeof body?.message,
        Array.isArray(body?.details),
      ],
      small: answer.text.length < SMALL_ANSWER,
    },
    `${what}: ${answer.status} ${answer.text.slice(0, 300)}`,
  ).toEqual({
    clientError: true,
    contentType: 'application/json;charset=UTF-8',
    shape: [true, 'string', expect.stringMatching(/^(string|null)$/), 'string', true],
    small: true,
  });
}

describe('hostile bodies on the write routes', () => {
  it('deep, oversized and non-UTF-8 bodies are 4xx in the pinned shape, small, and store nothing', async () => {
    const before = await records();
    for (const write of writes) {
      for (const [name, raw] of hostileBodies(write.limit)) expectRefused(await send(write, raw), `${write.name}, ${name}`);
    }
    expect(await records()).toEqual(before);
  }, 120_000);

  it('JSON values of the wrong shape from a seeded generator are 4xx in the pinned shape, small, and store nothing', async () => {
    const random = seeded(24);
    const before = await records();
    for (const write of writes) {
      for (let round = 0; round < 12; round += 1) {
        const value = wrongShape(random);
        expectRefused(await send(write, Buffer.from(JSON.stringify(value))), `${write.name}, ${JSON.stringify(value)}`);
      }
    }
    expect(await records()).toEqual(before);
  }, 120_000);
});
