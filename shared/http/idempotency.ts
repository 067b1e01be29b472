/**
 * `Idempotency-Key` on the fiscal writes that name no identifier of their own (docs/conventions.md §15): the key a
 * register sends with a write it may retry, what the service keeps under it, and the answer a repeat gets.
 */
import { createHash } from 'node:crypto';
import { patternMismatch } from '#shared/errors.ts';
import {
  claimKept,
  type IdempotencyKey,
  type KeptAnswer,
  keepClaimed,
  keptAnswerOf,
  releaseClaim,
} from '#shared/fiscal/kept-answers.ts';
import { type LedgerWrite, writeLedgerKeyed } from '#shared/fiscal/ledger.ts';
import type { Key } from '#shared/db/keys.ts';
import type { Reply } from './types.ts';

/** 1 to 255 printable ASCII characters: a UUID, a ULID or the register's own request counter all fit. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]{1,255}$';
const KEY_RULE = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export const REPLAYED_HEADER = 'Idempotent-Replayed';
const REPLAYED = { [REPLAYED_HEADER]: 'true' } as const;

/** An answer marked as the repeat of an earlier one. */
export const replayed = (reply: Reply): Reply => ({ ...reply, headers: { ...reply.headers, ...REPLAYED } });

/** The request's `Idempotency-Key` if it sends one that keeps the rule (`idempotencyOf` refuses any other). */
export const wellFormedKey = (headers: Readonly<Record<string, string | undefined>>): string | undefined => {
  const key = headers['idempotency-key'];
  return key !== undefined && KEY_RULE.test(key) ? key : undefined;
};

/** The request's key, or none without the header; a malformed one is `400 ValueNotValid SHOULD_MATCH_PATTERN`. */
export function idempotencyOf(
  headers: Readonly<Record<string, string | undefined>>,
  request: { method: string; rawPath: string; rawQueryString?: string; body: Buffer },
): IdempotencyKey | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!KEY_RULE.test(key)) throw patternMismatch('Idempotency-Key', key, IDEMPOTENCY_KEY_PATTERN);
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.rawPath}?${request.rawQueryString ?? ''}\n`)
    .update(request.body)
    .digest('base64url');
  return { key, fingerprint };
}

/** The kept answer, marked replayed; a key kept without one cannot be answered again (`409 VersionConflict`). */
export const replayOf = (kept: KeptAnswer): Reply => replayed(keptAnswerOf(kept) as Reply);

/**
 * A fiscal write a register may retry under an `Idempotency-Key`: the key is read with the counter and kept with the
 * write's answer in the write's own transaction, so a repeat answers that answer again and writes nothing; without a
 * key, a plain ledger write.
 */
export const writeLedgerOnce = (write: LedgerWrite<Reply>, idempotency: IdempotencyKey | undefined): Promise<Reply> =>
  writeLedgerKeyed(write, idempotency, { keep: (answer) => answer, replay: replayOf });

/**
 * An effect outside the table (an e-mail handed over for delivery) done once per key. The key is claimed before the
 * effect and its answer kept after it; a repeat while the first is under way is `409 VersionConflict`, a repeat after
 * it answers the kept answer. An effect that fails releases its claim, so a repeat does it.
 */
export async function doOnce(key: Key<KeptAnswer>, idempotency: IdempotencyKey, effect: () => Promise<Reply>): Promise<Reply> {
  const claim = await claimKept(key, idempotency);
  if (claim === 'lost') return doOnce(key, idempotency, effect); // another request of this key got in first
  if ('kept' in claim) return replayOf(claim.kept);
  let reply: Reply;
  try {
    reply = await effect();
  } catch (error) {
    await releaseClaim(key, claim.ours);
    throw error;
  }
  await keepClaimed(key, claim.ours, reply);
  return reply;
}
