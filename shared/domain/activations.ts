import { type ApiKeyRecord, apiKeyKey } from '#shared/auth/api-keys.ts';
import { table } from '#shared/db/client.ts';
import { readItem } from '#shared/db/reads.ts';
import { put, type Step, transact } from '#shared/db/transact.ts';
import { type Activation, activationKeys } from './records.ts';
import { notFound, versionConflict } from '#shared/errors.ts';

/** The copy of an activation's state that its API key carries (one GetItem authenticates). */
export const keyRecord = (activation: Activation): ApiKeyRecord => ({
  activationId: activation.id,
  sellerId: activation.sellerId,
  cashRegisterName: activation.cashRegisterName,
  status: activation.status,
  validFrom: activation.validFrom,
  validTo: activation.validTo,
  features: activation.features,
});

/** An activation by id, or 404 NotFound. */
export async function findActivation(id: number): Promise<Activation> {
  const activation = await readItem(activationKeys.activation(id));
  if (!activation) throw notFound(`Activation ${id} does not exist`);
  return activation;
}

/**
 * Replaces an activation with its changed form, its API key's copy with it, in one transaction
 * conditioned on the `issued` stamp that was read (every action moves it forward).
 */
export async function saveActivation(previous: Activation, next: Activation, extra: Step[] = []): Promise<void> {
  const steps: Step[] = [
    {
      write: {
        Put: {
          TableName: table(),
          Item: { ...activationKeys.activation(next.id), ...next },
          ConditionExpression: 'issued = :seen',
          ExpressionAttributeValues: { ':seen': previous.issued },
        },
      },
      refused: () => versionConflict(`Activation ${next.id} changed concurrently; read it again`),
    },
    ...(next.keyHash === null ? [] : [put({ ...apiKeyKey(next.keyHash), ...keyRecord(next) })]),
    ...extra,
  ];
  await transact(steps);
}

/** The `issued` stamp of the next action: now, and always after the previous one. */
export const nextIssued = (previous: Activation, now: number) => Math.max(now, previous.issued + 1);
