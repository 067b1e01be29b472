import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type ApiError, serviceBusy } from '#shared/errors.ts';
import { table } from './client.ts';
import { putItem, transactWrite, updateItem } from './documents.ts';
import { type Key, sequenceKey } from './keys.ts';
import { backoff, MAX_ATTEMPTS } from './retry.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction and the domain error to raise when its condition fails. */
export interface Step {
  write: TransactItem;
  /** Raised when the step's condition fails; without it a failed condition means "changed: decide again". */
  refused?: () => ApiError;
}

/** What to do with a cancelled transaction that no step's refusal explains. */
export type OnCancelled = 'retry-conflicts' | 'retry-all';

/**
 * Commits the steps together (TransactWriteItems). A failed condition raises the error of the
 * first step that names one. A conflict with a concurrent transaction is retried with a bound;
 * `retry-all` also retries a failed condition that names no error (a counter that moved).
 * `plan` is called again before every attempt, so a retry decides on a fresh read. A plan without
 * steps (nothing to change) commits nothing.
 */
export async function commit<R>(
  plan: () => Promise<{ steps: readonly Step[]; result: R }>,
  onCancelled: OnCancelled,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const { steps, result } = await plan();
    if (steps.length === 0) return result;
    try {
      await transactWrite({ TransactItems: steps.map((step) => step.write) });
      return result;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const refusal = refusalOf(steps, error);
      if (refusal) throw refusal;
      // A conflict with another transaction, or throttling of one of its items: both pass, so try again.
      const conflict = (error.CancellationReasons ?? []).some(
        (reason) => reason.Code === 'TransactionConflict' || reason.Code === 'ThrottlingError',
      );
      if (onCancelled === 'retry-conflicts' && !conflict) throw error;
      if (attempt >= MAX_ATTEMPTS) throw serviceBusy('Too many concurrent changes; try again', { cause: error });
      await backoff(attempt);
    }
  }
}

/** Commits fixed steps together; a conflict with a concurrent transaction is retried with a bound. */
export function transact(steps: readonly Step[]): Promise<void> {
  return commit(async () => ({ steps, result: undefined }), 'retry-conflicts');
}

/** The domain error of the first step whose condition failed and that names one. */
function refusalOf(steps: readonly Step[], error: TransactionCanceledException): ApiError | undefined {
  for (const [index, reason] of (error.CancellationReasons ?? []).entries()) {
    const refused = steps[index]?.refused;
    if (reason.Code === 'ConditionalCheckFailed' && refused) return refused();
  }
  return undefined;
}

/**
 * Sends one conditional write outside a transaction; false when its condition failed (the item was
 * changed first by someone else, which the caller takes as "nothing to do").
 */
export async function writeIf(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Puts a new item outside a transaction; false when the key exists (the caller reads what is there). */
export async function putIfAbsent(item: Key & Record<string, unknown>): Promise<boolean> {
  try {
    await putItem({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' });
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A put of a new item: when the key exists, `refused`, or without it the plan decides again (`commit`). */
export const create = (item: Key & Record<string, unknown>, refused?: () => ApiError): Step => ({
  write: { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
  ...(refused ? { refused } : {}),
});

/** A put that replaces whatever is there. */
export const put = (item: Key & Record<string, unknown>): Step => ({ write: { Put: { TableName: table(), Item: item } } });

/** A delete of whatever is there. */
export const remove = (key: Key): Step => ({ write: { Delete: { TableName: table(), Key: { pk: key.pk, sk: key.sk } } } });

/** The condition that a versioned item exists and is not a tombstone (`:false` bound to false). */
export const LIVE = 'attribute_exists(pk) AND deleted = :false';

/**
 * Holds the transaction to a versioned item (a product) being live when it commits, so a
 * concurrent delete cannot slip in between a read and the write; else `refused`.
 */
export const liveCheck = (key: Key, refused: () => ApiError): Step => ({
  write: {
    ConditionCheck: {
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      ConditionExpression: LIVE,
      ExpressionAttributeValues: { ':false': false },
    },
  },
  refused,
});

/**
 * Counts one more (or one fewer) reference to a record, refused when the record does not exist:
 * a referenced record (a vendor, an application) can then only be deleted while its count is zero.
 */
export const reference = (key: Key, refused: () => ApiError, delta: 1 | -1 = 1): Step => ({
  write: {
    Update: {
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
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
export async function nextNumber(sequence: string | Key<{ n: number }>): Promise<number> {
  const key = typeof sequence === 'string' ? sequenceKey(sequence) : sequence;
  const reply = await updateItem({
    TableName: table(),
    Key: { pk: key.pk, sk: key.sk },
    UpdateExpression: 'ADD n :one',
    ExpressionAttributeValues: { ':one': 1 },
    ReturnValues: 'UPDATED_NEW',
  });
  return Number(reply.Attributes?.n);
}
