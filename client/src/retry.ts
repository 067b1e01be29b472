import type { Client } from 'openapi-fetch';
import type { paths as V33, components } from './generated/v33.ts';
import type { Answer } from './etag.ts';

export interface RetryPolicy {
  /** Sends at most this often (default 5). */
  attempts?: number;
  /** The first backoff without `Retry-After`; doubled per attempt, with full jitter (default 200 ms). */
  baseDelayMs?: number;
  /** The longest wait; a `Retry-After` above it ends the retries with that answer (default 30 s). */
  maxDelayMs?: number;
  /** How to wait (tests pass one that records the delays). */
  wait?: (ms: number) => Promise<void>;
}

export type Retried<R> = R & {
  /** How many times the request was sent. */
  attempts: number;
  /** The service had the request already and answered it again (`Idempotent-Replayed: true`). */
  replayed: boolean;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined without a usable one. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('Retry-After');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Sends an idempotent request until it gets an answer the service meant: again after a network error (the request may
 * or may not have arrived) or a 5xx, waiting `Retry-After` when the answer names it, else an exponential backoff. Only
 * for requests the service deduplicates, such as a sale POST with the register's own identifier (docs/conventions.md
 * §15): a repeat of one that arrived answers the same 201 with `Idempotent-Replayed: true`. A 4xx is answered at once;
 * the last error is thrown when every attempt failed in the network.
 */
export async function retryIdempotent<R extends Answer>(send: () => Promise<R>, policy: RetryPolicy = {}): Promise<Retried<R>> {
  const { attempts = 5, baseDelayMs = 200, maxDelayMs = 30_000, wait = sleep } = policy;
  for (let attempt = 1; ; attempt++) {
    let delay: number;
    try {
      const answer = await send();
      const status = answer.response.status;
      const replayed = answer.response.headers.get('Idempotent-Replayed') === 'true';
      if (status < 500 || attempt >= attempts) return { ...answer, attempts: attempt, replayed };
      delay = retryAfterMs(answer.response) ?? backoff(attempt, baseDelayMs, maxDelayMs);
      if (delay > maxDelayMs) return { ...answer, attempts: attempt, replayed };
    } catch (error) {
      if ((error instanceof Error && error.name === 'AbortError') || attempt >= attempts) throw error;
      delay = backoff(attempt, baseDelayMs, maxDelayMs);
    }
    await wait(delay);
  }
}

const backoff = (attempt: number, base: number, max: number) => Math.random() * Math.min(max, base * 2 ** (attempt - 1));

/** The header that makes a fiscal write without an identifier of its own safe to send again (docs/conventions.md §15). */
export type IdempotencyHeaders = Record<'Idempotency-Key', string>;

/**
 * Sends a fiscal write that names no identifier of its own (a deposit, a day close, a receipt or report print, a copy,
 * an e-journal event, a kd, an e-mail) under one new `Idempotency-Key` for every attempt, retried as `retryIdempotent`
 * does: a write that did arrive is made once, and its repeat answers the first answer with `Idempotent-Replayed: true`.
 *
 * ```ts
 * const { data } = await sendOnce((headers) =>
 *   register.POST('/v33/{sellerId}/registrations/{cash}/balance', { params: { path }, body: deposit, headers }),
 * );
 * ```
 */
export function sendOnce<R extends Answer>(
  send: (headers: IdempotencyHeaders) => Promise<R>,
  policy?: RetryPolicy,
  key: string = crypto.randomUUID(),
): Promise<Retried<R>> {
  const headers = { 'Idempotency-Key': key };
  return retryIdempotent(() => send(headers), policy);
}

export type Sale = components['schemas']['saleV33'];

/**
 * Records a sale of register `cash` (v33 `POST /{sellerId}/registrations/{cash}/sales`) safely under retries: a sale
 * without an identifier gets a UUID first, so every attempt names the same sale and the service records it once.
 */
export function postSale(client: Client<V33>, sellerId: string, cash: string, sale: Sale, policy?: RetryPolicy) {
  const body: Sale = { ...sale, identifier: sale.identifier ?? crypto.randomUUID() };
  return retryIdempotent(
    () => client.POST('/v33/{sellerId}/registrations/{cash}/sales', { params: { path: { sellerId, cash } }, body }),
    policy,
  );
}
