import { randomInt } from 'node:crypto';
import { request } from 'node:http';
import { expect, inject } from 'vitest';
import type { ApiVersion } from '#shared/versions.ts';
import { contractViolation } from './contract.ts';

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty or non-JSON body. */
  body: unknown;
  text: string;
}

type Credentials = { basic: [string, string] } | { apiKey: string } | 'none';

export interface CallOptions {
  body?: unknown;
  /** Raw text (or bytes, with their own Content-Type header) sent as is instead of JSON-encoding `body`. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  as?: Credentials;
  /**
   * The local address the request leaves from, e.g. `127.0.0.2`: the stack sees it as the request's source
   * (`requestContext.http.sourceIp`), and every 127.0.0.0/8 address is this machine's. Without it, fetch's (127.0.0.1).
   */
  from?: string;
}

/**
 * One HTTP call to the local stack, as a register app would make it (admin credentials unless told otherwise). An answer
 * its route's OpenAPI document does not allow fails the test (tests/support/contract.ts).
 */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const as = options.as ?? { basic: [inject('admin').username, inject('admin').password] };
  if (as !== 'none' && 'basic' in as) headers.Authorization = `Basic ${Buffer.from(as.basic.join(':')).toString('base64')}`;
  if (as !== 'none' && 'apiKey' in as) headers['X-Api-Key'] = as.apiKey;
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  const url = `${inject('baseUrl')}${path}`;
  const response = options.from
    ? await sendFrom(options.from, url, { method, headers, body: payload })
    : await fetch(url, { method, headers, body: payload });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const body: unknown = text !== '' && contentType.startsWith('application/json') ? JSON.parse(text) : undefined;
  const violation = contractViolation({ method, path, status: response.status, contentType, text, body });
  if (violation !== undefined) throw new Error(`Contract (docs/openapi): ${violation}`);
  return { status: response.status, headers: response.headers, body, text };
}

/**
 * One request through node:http bound to `localAddress` (fetch cannot choose its local address), answered as fetch's
 * Response is: its status, headers and text.
 */
function sendFrom(
  localAddress: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | Buffer | undefined },
): Promise<Pick<Response, 'status' | 'headers' | 'text'>> {
  return new Promise((resolve, reject) => {
    // IPv4, so a 127.x local address can reach `localhost` (the stack listens on 127.0.0.1).
    const outgoing = request(url, { method: init.method, headers: init.headers, localAddress, family: 4 }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: incoming.statusCode ?? 0, headers, text: () => Promise.resolve(text) });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

/** A versioned client: `v(33).get('/sellers')`. */
export const v = (version: ApiVersion) => ({
  get: (path: string, options?: CallOptions) => call('GET', `/v${version}${path}`, options),
  post: (path: string, body?: unknown, options?: CallOptions) => call('POST', `/v${version}${path}`, { body, ...options }),
  put: (path: string, body?: unknown, options?: CallOptions) => call('PUT', `/v${version}${path}`, { body, ...options }),
  del: (path: string, options?: CallOptions) => call('DELETE', `/v${version}${path}`, options),
});

/** One item of an error body's `details` list (docs/conventions.md §3). */
export interface ErrorDetail {
  field: string | null;
  code: string | null;
  message: string;
  params: Record<string, unknown>;
}

/**
 * Asserts the pinned error body (docs/conventions.md §3) and status, as a client observes them: `error` names the
 * exception with the suffix `JsonException`, and `details` is a list of at most one item that repeats the code and the
 * message.
 */
export function expectError(answer: Answer, status: number, exception: string, code: string | null = null): void {
  const body = answer.body as
    { error?: unknown; exception?: unknown; code?: unknown; message?: unknown; details?: unknown } | undefined;
  const details = Array.isArray(body?.details) ? (body.details as ErrorDetail[]) : undefined;
  expect({
    status: answer.status,
    contentType: answer.headers.get('content-type'),
    error: body?.error,
    exception: body?.exception,
    code: body?.code,
    message: typeof body?.message,
    details: details?.map((item) => ({ code: item.code, message: item.message })) ?? typeof body?.details,
  }).toEqual({
    status,
    contentType: 'application/json;charset=UTF-8',
    error: `${exception}JsonException`,
    exception,
    code,
    message: 'string',
    details: details?.length ? [{ code, message: body?.message }] : [],
  });
}

/**
 * What an error answer tells of the value at fault: its one `details` item's `field` (null for none) beside the item's
 * `params`, e.g. `{ field: 'name', actualValue: 0, sizeMin: 1, sizeMax: 32 }`. Fails unless there is exactly one item.
 */
export function detailOf(answer: Answer): Record<string, unknown> {
  const details = (answer.body as { details?: unknown } | undefined)?.details;
  if (!Array.isArray(details) || details.length !== 1) throw new Error(`Not one error detail: ${answer.status} ${answer.text}`);
  const [item] = details as ErrorDetail[];
  return { field: item?.field, ...item?.params };
}

/** A corporate id no other test uses. */
export const uniqueCorporateId = () => `55${randomInt(1e9, 1e10 - 1)}`;

/** Creates a seller through v33 PUT (as the hyper admin) and answers its path id. */
export async function newSeller(fields: Record<string, unknown> = {}): Promise<string> {
  const corporateId = uniqueCorporateId();
  const answer = await v(33).put(`/sellers/SE${corporateId}`, {
    corporateId,
    country: 'SE',
    publicAccess: true,
    workHoursWeek: {},
    name: 'Test shop',
    ...fields,
  });
  if (answer.status !== 201) throw new Error(`seller not created: ${answer.status} ${answer.text}`);
  return `SE${corporateId}`;
}

/** The body without the named fields. */
export const omit = <T extends object>(body: T, ...fields: string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(body).filter(([name]) => !fields.includes(name)));

/**
 * An answer that says nothing of whether the write happened (docs/conventions.md §3): the function's own 500 when it ran
 * out of time (shared/http/api.ts), or the gateway's 500 for a function that failed. A register sends such a write
 * again, which its idempotence makes safe; on 2 busy cores a burst of cold workers can outlast the 10 s timeout.
 */
export function answerLost(answer: Answer): boolean {
  if (answer.status !== 500) return false;
  const body = answer.body as { exception?: unknown; message?: unknown } | undefined;
  return body?.exception === 'InternalServerError' || body?.message === 'Internal Server Error';
}
