/**
 * What a register's write keeps under its `Idempotency-Key` (docs/conventions.md §15), in the register's partition,
 * for a day: the request's fingerprint and the first answer, gzipped. The ledger keeps it in the transaction of the
 * write it guards (`keepStep`); an effect outside the table (an e-mail) claims the key first (`claimKept`). What an
 * answer is, and how a repeat is answered, the HTTP side says (shared/http/idempotency.ts).
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { table } from '#shared/db/client.ts';
import { deleteItem, updateItem } from '#shared/db/documents.ts';
import type { Key } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { type Step, writeIf } from '#shared/db/transact.ts';
import { registerPk } from '#shared/domain/records.ts';
import { versionConflict } from '#shared/errors.ts';

/** A key as the pipeline read it, and a digest of the request it came with (method, path, query and body bytes). */
export interface IdempotencyKey {
  key: string;
  fingerprint: string;
}

/** What is kept under a key. */
export interface KeptAnswer {
  fingerprint: string;
  /** The first answer as gzipped JSON; absent for a write whose own record answers a repeat (a kd's claim). */
  answer?: Uint8Array;
  /** Epoch seconds: DynamoDB's TTL removes the item some time after, and a read ignores it from then on. */
  expiresAt: number;
  /** An effect outside the table under way (`claimKept`): whose it is, and until when (epoch ms) no one takes it over. */
  claim?: { id: string; until: number };
}

export const keptAnswerKey = (sellerId: string, cash: string, key: string): Key<KeptAnswer> => ({
  pk: registerPk(sellerId, cash),
  sk: `IDEMPOTENCY#${key}`,
});

/** How long a key is kept: a day, so a register that was offline over lunch still retries safely. */
export const KEPT_SECONDS = 24 * 60 * 60;

/**
 * The largest answer kept, compressed. DynamoDB's item limit is 400 KB; a receipt's or report's JSON compresses to a
 * tenth, so no answer a register gets comes near it.
 */
const MAX_KEPT_BYTES = 350 * 1024;

/** How long an effect outside the table may take before a repeat takes it over: well past a function's timeout. */
const CLAIM_MS = 60_000;

/**
 * What was kept under the key and still counts, or undefined (never used, or expired). The same key with another
 * request is `409 VersionConflict`: the register reused a key, and nothing is done.
 */
export function keptFor(kept: KeptAnswer | undefined, idempotency: IdempotencyKey, now: number): KeptAnswer | undefined {
  if (!kept || kept.expiresAt * 1000 <= now) return undefined;
  if (kept.fingerprint !== idempotency.fingerprint) {
    throw versionConflict('The Idempotency-Key was used with another request; send a new key for a new write');
  }
  return kept;
}

/** The first answer as it was kept; a key kept without one cannot be answered again (`409 VersionConflict`). */
export function keptAnswerOf(kept: KeptAnswer): unknown {
  if (!kept.answer) throw versionConflict('The first answer under this Idempotency-Key was too large to keep; read the record');
  return JSON.parse(gunzipSync(kept.answer).toString('utf8'));
}

/** The answer as kept: gzipped JSON, or undefined above `MAX_KEPT_BYTES`. */
function compressed(answer: unknown): Uint8Array | undefined {
  const bytes = gzipSync(JSON.stringify(answer));
  return bytes.length <= MAX_KEPT_BYTES ? new Uint8Array(bytes) : undefined;
}

/**
 * The write that keeps the key with the answer, in the transaction of the write it guards: it commits over no item
 * or an expired one, so of two requests with one key only one commits, and the other, deciding again, replays.
 */
export function keepStep(key: Key<KeptAnswer>, idempotency: IdempotencyKey, answer: unknown, now: number): Step {
  const kept = answer === undefined ? undefined : compressed(answer);
  const item: KeptAnswer = {
    fingerprint: idempotency.fingerprint,
    ...(kept ? { answer: kept } : {}),
    expiresAt: Math.ceil(now / 1000) + KEPT_SECONDS,
  };
  return {
    write: {
      Put: {
        TableName: table(),
        Item: { ...key, ...item },
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
        ExpressionAttributeValues: { ':now': Math.floor(now / 1000) },
      },
    },
  };
}

/** How a claim on a key went: ours (with its id), kept already (answer it), or lost to a request of the same key. */
export type Claim = { ours: string } | { kept: KeptAnswer } | 'lost';

/**
 * Claims the key for an effect outside the table. What was kept before answers instead; a claim under way is
 * `409 VersionConflict`; a claim whose function died lapses after `CLAIM_MS`, and a repeat then takes it over.
 */
export async function claimKept(key: Key<KeptAnswer>, idempotency: IdempotencyKey): Promise<Claim> {
  const now = Date.now();
  const kept = keptFor(await readItem(key), idempotency, now);
  if (kept && !kept.claim) return { kept };
  if (kept?.claim && kept.claim.until > now) {
    throw versionConflict('A request with this Idempotency-Key is under way; try again when it has been answered');
  }
  const claim = { id: randomUUID(), until: now + CLAIM_MS };
  const claimed = await writeIf(() =>
    updateItem({
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      UpdateExpression: 'SET fingerprint = :fingerprint, expiresAt = :expiresAt, claim = :new REMOVE answer',
      // Never kept, expired, or claimed by a request of this key that lapsed.
      ConditionExpression:
        'attribute_not_exists(pk) OR expiresAt <= :nowSeconds OR (fingerprint = :fingerprint AND attribute_not_exists(answer) AND claim.#until <= :now)',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: {
        ':fingerprint': idempotency.fingerprint,
        ':expiresAt': Math.ceil(now / 1000) + KEPT_SECONDS,
        ':new': claim,
        ':nowSeconds': Math.floor(now / 1000),
        ':now': now,
      },
    }),
  );
  return claimed ? { ours: claim.id } : 'lost';
}

/** Gives a claim up (its effect failed), so a repeat does the effect. */
export async function releaseClaim(key: Key<KeptAnswer>, claimId: string): Promise<void> {
  await writeIf(() =>
    deleteItem({
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      ConditionExpression: 'claim.id = :claim',
      ExpressionAttributeValues: { ':claim': claimId },
    }),
  );
}

/** Ends a claim with the effect's answer, kept for repeats (none above `MAX_KEPT_BYTES`). */
export async function keepClaimed(key: Key<KeptAnswer>, claimId: string, answer: unknown): Promise<void> {
  const kept = compressed(answer);
  const ours = { ':claim': claimId };
  await writeIf(() =>
    updateItem({
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      UpdateExpression: kept ? 'SET answer = :answer REMOVE claim' : 'REMOVE claim',
      ConditionExpression: 'claim.id = :claim',
      ExpressionAttributeValues: kept ? { ...ours, ':answer': kept } : ours,
    }),
  );
}
