/**
 * `Idempotency-Key` on the fiscal writes that name no identifier of their own (docs/conventions.md §15): the key a
 * register sends with a write it may retry, what the service keeps under it, and the answer a repeat gets.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { table } from '#shared/db/client.ts';
import { deleteItem, updateItem } from '#shared/db/documents.ts';
import type { Key } from '#shared/db/keys.ts';
import { registerPk } from '#shared/domain/records.ts';
import { readItem } from '#shared/db/reads.ts';
import { type Step, writeIf } from '#shared/db/transact.ts';
import { patternMismatch, versionConflict } from '#shared/errors.ts';
import type { Reply } from './types.ts';

/** A key as the pipeline read it, and a digest of the request it came with (method, path, query and body bytes). */
export interface IdempotencyKey {
  key: string;
  fingerprint: string;
}

/** What is kept under a key, in the register's partition. */
export interface KeptAnswer {
  fingerprint: string;
  /** The first answer as gzipped JSON; absent for a write whose own record answers a repeat (a kd's claim). */
  answer?: Uint8Array;
  /** Epoch seconds: DynamoDB's TTL removes the item some time after, and a read ignores it from then on. */
  expiresAt: number;
  /** An effect outside the table under way (`doOnce`): whose it is, and until when (epoch ms) no one takes it over. */
  claim?: { id: string; until: number };
}

/** What a register's write kept under its `Idempotency-Key` (docs/conventions.md §15), for a day. */
export const keptAnswerKey = (sellerId: string, cash: string, key: string): Key<KeptAnswer> => ({
  pk: registerPk(sellerId, cash),
  sk: `IDEMPOTENCY#${key}`,
});

/** 1 to 255 printable ASCII characters: a UUID, a ULID or the register's own request counter all fit. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]{1,255}$';
const KEY_RULE = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** How long a key is kept: a day, so a register that was offline over lunch still retries safely. */
export const KEPT_SECONDS = 24 * 60 * 60;

/**
 * The largest answer kept, compressed. DynamoDB's item limit is 400 KB; a receipt's or report's JSON compresses to a
 * tenth, so no answer a register gets comes near it.
 */
const MAX_KEPT_BYTES = 350 * 1024;

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

/** The kept answer, marked replayed; a key kept without one cannot be answered again (`409 VersionConflict`). */
export function replayOf(kept: KeptAnswer): Reply {
  if (!kept.answer) throw versionConflict('The first answer under this Idempotency-Key was too large to keep; read the record');
  return replayed(JSON.parse(gunzipSync(kept.answer).toString('utf8')) as Reply);
}

/** The answer as kept: gzipped JSON, or undefined above `MAX_KEPT_BYTES`. */
function compressed(answer: Reply): Uint8Array | undefined {
  const bytes = gzipSync(JSON.stringify(answer));
  return bytes.length <= MAX_KEPT_BYTES ? new Uint8Array(bytes) : undefined;
}

/**
 * The write that keeps the key with the answer, in the transaction of the write it guards: it commits over no item
 * or an expired one, so of two requests with one key only one commits, and the other, deciding again, replays.
 */
export function keepStep(key: Key<KeptAnswer>, idempotency: IdempotencyKey, answer: Reply | undefined, now: number): Step {
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

/** How long an effect outside the table may take before a repeat takes it over: well past a function's timeout. */
const CLAIM_MS = 60_000;

/**
 * An effect outside the table (an e-mail handed over for delivery) done once per key. The key is claimed before the
 * effect and its answer kept after it; a repeat while the first is under way is `409 VersionConflict`, a repeat after
 * it answers the kept answer. An effect that fails releases its claim; a claim whose function died lapses after
 * `CLAIM_MS`, and a repeat then does the effect.
 */
export async function doOnce(key: Key<KeptAnswer>, idempotency: IdempotencyKey, effect: () => Promise<Reply>): Promise<Reply> {
  const now = Date.now();
  const kept = keptFor(await readItem(key), idempotency, now);
  if (kept && !kept.claim) return replayOf(kept);
  if (kept?.claim && kept.claim.until > now) {
    throw versionConflict('A request with this Idempotency-Key is under way; try again when it has been answered');
  }
  const claim = { id: randomUUID(), until: now + CLAIM_MS };
  const ours = { ':claim': claim.id };
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
  // Another request of this key got in first: answer as if it had been read before.
  if (!claimed) return doOnce(key, idempotency, effect);
  let reply: Reply;
  try {
    reply = await effect();
  } catch (error) {
    await writeIf(() =>
      deleteItem({
        TableName: table(),
        Key: { pk: key.pk, sk: key.sk },
        ConditionExpression: 'claim.id = :claim',
        ExpressionAttributeValues: ours,
      }),
    );
    throw error;
  }
  const answer = compressed(reply);
  await writeIf(() =>
    updateItem({
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      UpdateExpression: answer ? 'SET answer = :answer REMOVE claim' : 'REMOVE claim',
      ConditionExpression: 'claim.id = :claim',
      ExpressionAttributeValues: answer ? { ...ours, ':answer': answer } : ours,
    }),
  );
  return reply;
}
