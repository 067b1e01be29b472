import { ApiError, serviceBusy } from '#shared/errors.ts';
import { table } from './client.ts';
import type { Key } from './keys.ts';
import { type Item, readItem } from './reads.ts';
import { backoff, MAX_ATTEMPTS } from './retry.ts';
import { create, type Step, transact } from './transact.ts';

/**
 * Global records that administrators edit (software vendors, application descriptions) belong to
 * no version stream; instead each carries a revision that rises on every change of its data. The
 * revision is its ETag, and every write is conditioned on the revision it was decided on, so a
 * write that moves a reference (an application to another vendor) never counts from a stale read.
 * Reference counts (`refs`, `transact.ts`) change without a revision: others' writes keep them.
 */
export interface Revised {
  revision: number;
  refs?: number;
}

export type RevisedRecord<T> = Item<T & Revised>;

/** A step's record changed after it was read: `writeRevised` decides again on a fresh read. */
class Changed extends ApiError {
  constructor() {
    super('VersionConflict', null, 'The record changed while it was being written');
  }
}

const changed = () => new Changed();

/** What a write decided from the record it read: the steps to commit together and the caller's answer. */
export interface RevisedDecision<R> {
  steps: readonly Step[];
  result: R;
}

/**
 * Reads the record, lets `decide` choose the steps (throwing the domain's error to refuse), and
 * commits them; when a step built by `updateRevised` or `deleteRevised` finds the record changed,
 * it reads and decides again, with a bound.
 */
export async function writeRevised<T extends Revised, R>(
  key: Key<T>,
  decide: (current: Item<T> | undefined) => RevisedDecision<R>,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const decision = decide(await readItem(key));
    try {
      await transact(decision.steps);
      return decision.result;
    } catch (error) {
      if (!(error instanceof Changed)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw serviceBusy('Too many concurrent changes; try again', { cause: error });
      await backoff(attempt);
    }
  }
}

/** A new record at revision 1, refused (`refused`) when its key exists. */
export const createRevised = (item: Key & Record<string, unknown>, refused: () => ApiError): Step =>
  create({ ...item, revision: 1 }, refused);

/** Sets `fields` (undefined stored as null) on the record read at revision `seen`, and raises its revision. */
export function updateRevised(key: Key, fields: Readonly<Record<string, unknown>>, seen: number): Step {
  const entries = Object.entries(fields);
  // Placeholders for every name: `name` and others are DynamoDB reserved words.
  const names = Object.fromEntries(entries.map(([field], index) => [`#f${index}`, field]));
  const values = Object.fromEntries(entries.map(([, value], index) => [`:f${index}`, value ?? null]));
  const assignments = entries.map((_, index) => `#f${index} = :f${index}`);
  return {
    write: {
      Update: {
        TableName: table(),
        Key: { pk: key.pk, sk: key.sk },
        UpdateExpression: `SET ${[...assignments, 'revision = :next'].join(', ')}`,
        ConditionExpression: 'revision = :seen',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':seen': seen, ':next': seen + 1 },
      },
    },
    refused: changed,
  };
}

/**
 * Deletes the record read at revision `seen`, provided nothing references it. The caller has
 * refused a referenced record from its read; a reference counted since then makes it decide again.
 */
export const deleteRevised = (key: Key, seen: number): Step => ({
  write: {
    Delete: {
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      ConditionExpression: 'revision = :seen AND (attribute_not_exists(refs) OR refs = :zero)',
      ExpressionAttributeValues: { ':seen': seen, ':zero': 0 },
    },
  },
  refused: changed,
});
