/**
 * Conditional writes under a burst, over HTTP (docs/conventions.md §5): fifty identical PUTs sent at once, each
 * carrying the same precondition, answer as fifty sent one after another would. A create-only PUT
 * (`If-None-Match: *`) of a new tax creates it once (201) and every other copy is 409 VersionConflict; a PUT with the
 * one current ETag in `If-Match` succeeds once (204) and every other copy is 409. The seller's version shows one write.
 * A request that runs out of its function's time answers 500, never a success (docs/conventions.md §3).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type Answer, expectError, newSeller, v } from '../support/http.ts';

const api = v(33);
const BURST = 50;
/** On two busy cores each request of a cold burst starts a worker of its own: such a burst takes a minute or more. */
const BURST_TIMEOUT = 300_000;

/** The seller's version, read again while the stack is too busy to answer in time (a 500 changes nothing on a GET). */
async function sellerVersion(sellerId: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const answer = await api.get(`/${sellerId}/version`);
    if (answer.status === 200) return (answer.body as { version: number }).version;
    if (answer.status !== 500 || attempt >= 10) throw new Error(`GET version answered ${answer.status}: ${answer.text}`);
    await sleep(1000);
  }
}

/** The version the seller reaches once writes still at work after their answers are done (it moves at most once here). */
async function settledVersion(sellerId: string, before: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  let version = await sellerVersion(sellerId);
  while (version === before && Date.now() < deadline) {
    await sleep(1000);
    version = await sellerVersion(sellerId);
  }
  return version;
}

/**
 * The burst's answers counted by what a client sees: status with exception, or the reason an answer is outside the
 * route's OpenAPI document (a contract violation throws in `call`), so a wrong answer shows in the counts.
 */
async function burst(send: () => Promise<Answer>): Promise<{ answers: Answer[]; counts: Record<string, number> }> {
  const settled = await Promise.allSettled(Array.from({ length: BURST }, send));
  const counts: Record<string, number> = {};
  const answers: Answer[] = [];
  for (const outcome of settled) {
    let key: string;
    if (outcome.status === 'rejected') {
      key = `failed: ${String(outcome.reason).slice(0, 120)}`;
    } else {
      answers.push(outcome.value);
      const exception = (outcome.value.body as { exception?: string } | undefined)?.exception;
      key = [String(outcome.value.status), exception].filter(Boolean).join(' ');
    }
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return { answers, counts };
}

/**
 * serverless-offline starts a worker for every request that finds none idle, and 50 cold workers on two cores can
 * outlast the function's timeout (docs/decisions.md, Tail latency of a sale POST under load). Reads of the catalog
 * function in growing bursts leave it 50 warm workers, so a burst measures the writes, not the workers' start.
 */
async function warmCatalogWorkers(sellerId: string): Promise<void> {
  for (let size = 10; size <= BURST; size += 10) {
    await Promise.all(Array.from({ length: size }, () => api.get(`/${sellerId}/taxes`)));
  }
}

const createOnly = { headers: { 'If-None-Match': '*' } };
const taxBody = { identifier: 'offline-tax', vat: 25, name: 'Moms' };

describe('a burst of identical conditional PUTs', () => {
  // First, while the catalog function has no warm workers (when this file runs alone): requests may run out of time.
  it(
    `${BURST} create-only PUTs on a cold function: no success but one 201, the rest 409 or 500, one write`,
    async () => {
      const sellerId = await newSeller();
      const before = await sellerVersion(sellerId);

      const { answers, counts } = await burst(() => api.put(`/${sellerId}/taxes/offline-tax`, taxBody, createOnly));
      console.log(`create-only burst, cold: ${JSON.stringify(counts)}`);

      // A request out of time answers 500 (its write may or may not be done); no answer but one says "created".
      expect(
        Object.keys(counts).filter((key) => !['201', '409 VersionConflict', '500 InternalServerError'].includes(key)),
      ).toEqual([]);
      expect(counts['201'] ?? 0).toBeLessThanOrEqual(1);
      for (const answer of answers.filter(({ status }) => status === 409)) expectError(answer, 409, 'VersionConflict');
      for (const answer of answers.filter(({ status }) => status === 500)) expectError(answer, 500, 'InternalServerError');
      const after = await settledVersion(sellerId, before);
      expect(after).toBe(before + 1);
      const read = await api.get(`/${sellerId}/taxes/offline-tax`);
      expect(read.headers.get('etag')).toBe(`"${after}"`);
      expect(read.body).toEqual({ ...taxBody, custom: null, deleted: false });
    },
    BURST_TIMEOUT,
  );

  it(
    `${BURST} create-only PUTs (If-None-Match: *) of a new tax: one 201, every other 409 VersionConflict, one write`,
    async () => {
      const sellerId = await newSeller();
      await warmCatalogWorkers(sellerId);
      const before = await sellerVersion(sellerId);

      const { answers, counts } = await burst(() => api.put(`/${sellerId}/taxes/offline-tax`, taxBody, createOnly));
      console.log(`create-only burst, warm: ${JSON.stringify(counts)}`);

      expect(counts).toEqual({ '201': 1, '409 VersionConflict': BURST - 1 });
      for (const answer of answers.filter(({ status }) => status === 409)) expectError(answer, 409, 'VersionConflict');
      const after = await sellerVersion(sellerId);
      expect(after).toBe(before + 1);
      const read = await api.get(`/${sellerId}/taxes/offline-tax`);
      expect(read.headers.get('etag')).toBe(`"${after}"`);
      expect(read.body).toEqual({ ...taxBody, custom: null, deleted: false });
    },
    BURST_TIMEOUT,
  );

  it(
    `${BURST} PUTs with the same If-Match: one 204, every other 409 VersionConflict, one write`,
    async () => {
      const sellerId = await newSeller();
      await warmCatalogWorkers(sellerId);
      expect((await api.put(`/${sellerId}/taxes/t`, { vat: 25, name: 'Moms' })).status).toBe(201);
      const etag = (await api.get(`/${sellerId}/taxes/t`)).headers.get('etag') ?? '';
      const before = await sellerVersion(sellerId);
      const body = { identifier: 't', vat: 12, name: 'Mat' };

      const { answers, counts } = await burst(() => api.put(`/${sellerId}/taxes/t`, body, { headers: { 'If-Match': etag } }));
      console.log(`If-Match burst, warm: ${JSON.stringify(counts)}`);

      expect(counts).toEqual({ '204': 1, '409 VersionConflict': BURST - 1 });
      for (const answer of answers.filter(({ status }) => status === 409)) expectError(answer, 409, 'VersionConflict');
      const after = await sellerVersion(sellerId);
      expect(after).toBe(before + 1);
      const read = await api.get(`/${sellerId}/taxes/t`);
      expect(read.headers.get('etag')).toBe(`"${after}"`);
      expect(read.body).toEqual({ ...body, custom: null, deleted: false });
    },
    BURST_TIMEOUT,
  );
});
