import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type ApiError, serviceBusy } from '#shared/errors.ts';
import { db, table } from './client.ts';
import { type Key, keys } from './keys.ts';
import { backoff, MAX_WRITE_ATTEMPTS, refusalOf, type Step } from './versioned.ts';

export type { Step };

/**
 * Commits the steps together (TransactWriteItems). A failed condition raises the error of the
 * first step that names one; a conflict with a concurrent transaction is retried with a bound.
 */
export async function transact(steps: readonly Step[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: steps.map((step) => step.write) }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const refusal = refusalOf(steps, error);
      if (refusal) throw refusal;
      if (!(error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict')) throw error;
      if (attempt >= MAX_WRITE_ATTEMPTS) throw serviceBusy('Too many concurrent changes; try again');
      await backoff(attempt);
    }
  }
}

/** A put of a new item: refused when the key exists. */
export const create = (item: Key & Record<string, unknown>, refused: () => ApiError): Step => ({
  write: { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
  refused,
});

/** The condition that a versioned item exists and is not a tombstone (`:false` bound to false). */
export const LIVE = 'attribute_exists(pk) AND deleted = :false';

/**
 * Holds the transaction to a versioned item (a seller's profile, a product) being live when it
 * commits, so a concurrent delete cannot slip in between a read and the write; else `refused`.
 */
export const liveCheck = (key: Key, refused: () => ApiError): Step => ({
  write: {
    ConditionCheck: { TableName: table(), Key: key, ConditionExpression: LIVE, ExpressionAttributeValues: { ':false': false } },
  },
  refused,
});

/** A put that replaces whatever is there. */
export const put = (item: Key & Record<string, unknown>): Step => ({ write: { Put: { TableName: table(), Item: item } } });

/**
 * Counts one more (or one fewer) reference to a record, refused when the record does not exist:
 * a referenced record (a vendor, an application) can then only be deleted while its count is zero.
 */
export const reference = (key: Key, refused: () => ApiError, delta: 1 | -1 = 1): Step => ({
  write: {
    Update: {
      TableName: table(),
      Key: key,
      UpdateExpression: 'ADD refs :delta',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':delta': delta },
    },
  },
  refused,
});

/**
 * The next number of a sequence (1, 2, ...): one atomic UpdateItem, never handed out twice. A name
 * is a global sequence; a key is a sequence of its own partition (a seller's orders).
 */
export async function nextNumber(sequence: string | Key): Promise<number> {
  const reply = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: typeof sequence === 'string' ? keys.sequence(sequence) : sequence,
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(reply.Attributes?.n);
}
