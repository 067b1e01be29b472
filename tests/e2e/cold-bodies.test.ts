/**
 * A GET with a body, 8 at a time, on a function that may still be cold: `GET /v15/auth/handshake` takes no body, so
 * the answer is the route's own whatever the body says (200 with no body for the admin, the pinned 401 without
 * credentials). The local stack reads the whole body before the function runs, as API Gateway does, so each request
 * gets its HTTP answer after the client has sent all of it and on a connection kept alive: a stack that answers first
 * and closes with the body unread makes the kernel reset the connection (docs/decisions.md, "A GET with a body").
 * Every body goes in two writes, the first with the headers, the rest once the answer came or 200 ms passed, so a
 * body still on its way when the stack answers is seen whatever the function's start costs.
 */
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { contractViolation } from '../support/contract.ts';
import { type Answer, expectError } from '../support/http.ts';

const PATH = '/v15/auth/handshake';
/** What the first write carries of a body, with the headers. */
const FIRST = 1_000;
/** How long the rest waits for an answer that came before it. */
const REST_AFTER_MS = 200;

interface Outcome {
  answer?: Answer;
  /** The socket's error (ECONNRESET, EPIPE) when the connection was reset. */
  reset?: string;
  /** The answer came while part of the body was still unsent. */
  answeredEarly: boolean;
  /** The answer's `Connection` header: `close` when the stack did not read the whole body. */
  connection?: string;
}

// Keep-alive, as a register app's client: the answer's `Connection` then says whether the stack kept the connection.
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
afterAll(() => agent.destroy());

/** One GET with `body`, its bytes split in two writes, settled once the exchange is over (answered or reset). */
function getWithBody(body: Buffer, credentials: boolean, headers: Record<string, string> = {}): Promise<Outcome> {
  const auth = inject('admin');
  return new Promise((resolve) => {
    let answer: Answer | undefined;
    let connection: string | undefined;
    let bodySent = false;
    let answeredEarly = false;
    let reset: string | undefined;
    let answered: () => void = () => undefined;
    const answerCame = new Promise<void>((resolveAnswer) => (answered = resolveAnswer));
    const req = request(
      new URL(PATH, inject('baseUrl')),
      {
        method: 'GET',
        agent,
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          ...(headers['Transfer-Encoding'] ? {} : { 'Content-Length': String(body.length) }),
          ...(credentials
            ? { Authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` }
            : {}),
          ...headers,
        },
      },
      (res) => {
        answeredEarly = !bodySent;
        connection = res.headers.connection;
        answered();
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const contentType = res.headers['content-type'] ?? '';
          const parsed: unknown = text !== '' && contentType.startsWith('application/json') ? JSON.parse(text) : undefined;
          const answerHeaders = new Headers(
            Object.entries(res.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
          );
          answer = { status: res.statusCode ?? 0, headers: answerHeaders, body: parsed, text };
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => (reset = error.code ?? error.message));
    req.on('close', () => resolve({ answer, reset, answeredEarly, connection }));
    req.write(body.subarray(0, FIRST));
    void Promise.race([answerCame, new Promise((wait) => setTimeout(wait, REST_AFTER_MS))]).then(() => {
      bodySent = true;
      req.end(body.subarray(FIRST));
    });
  });
}

const bodies: [string, Buffer, Record<string, string>?][] = [
  ['broken JSON', Buffer.from('{"name":"Kaf')],
  ['a 100 kB string', Buffer.from(JSON.stringify('x'.repeat(100_000)))],
  ['an array', Buffer.from('[1,2,3]')],
  ['300 kB of broken JSON', Buffer.from(`{"name":"${'y'.repeat(300_000)}`)],
  ['100,000 nested [', Buffer.from('['.repeat(100_000))],
  ['bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
  ['a chunked 200 kB object', Buffer.from(JSON.stringify({ name: 'z'.repeat(200_000) })), { 'Transfer-Encoding': 'chunked' }],
  ['null', Buffer.from('null')],
];

describe('GET /v15/auth/handshake with a body, 8 at once', () => {
  it('answers every request over HTTP, after its whole body, on a connection kept alive: the route’s 200, or 401', async () => {
    // Every other request without credentials: the spec's error shape, beside the route's own answer.
    const outcomes = await Promise.all(bodies.map(([, body, headers], index) => getWithBody(body, index % 2 === 0, headers)));
    const seen = outcomes.map((outcome, index) => ({
      body: bodies[index]?.[0],
      reset: outcome.reset ?? null,
      status: outcome.answer?.status ?? null,
      answeredEarly: outcome.answeredEarly,
      connection: outcome.connection ?? null,
    }));
    console.log(seen.map((item) => JSON.stringify(item)).join('\n'));
    expect(seen).toEqual(
      bodies.map(([name], index) => ({
        body: name,
        reset: null,
        status: index % 2 === 0 ? 200 : 401,
        answeredEarly: false,
        connection: 'keep-alive',
      })),
    );
    for (const [index, { answer }] of outcomes.entries()) {
      if (!answer) continue;
      const contentType = answer.headers.get('content-type') ?? '';
      expect(
        contractViolation({
          method: 'GET',
          path: PATH,
          status: answer.status,
          contentType,
          text: answer.text,
          body: answer.body,
        }),
      ).toBeUndefined();
      if (index % 2 === 0) expect(answer.text).toBe('');
      else expectError(answer, 401, 'Unauthorized');
    }
  }, 180_000);
});
