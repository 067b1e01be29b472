import { type ApiKeyRecord, apiKeyKey } from '#shared/auth/api-keys.ts';
import { table } from '#shared/db/client.ts';
import { readItem } from '#shared/db/reads.ts';
import { create, put, type Step, transact } from '#shared/db/transact.ts';
import { type Activation, activationKeys } from './records.ts';
import { nameActivationOnUnit } from './control-units.ts';
import { notFound, referenceNotFound, versionConflict } from '#shared/errors.ts';

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

/**
 * A new activation, with its entry in the partition of the unit it names and, when its key is issued now (not on a
 * connection), the key. Each is created, never replaced: a taken id or key is a conflict to try again.
 */
export const createActivation = (activation: Activation): Step[] => [
  create({ ...activationKeys.activation(activation.id), ...activation }, () => versionConflict('Activation id taken; try again')),
  ...(activation.controlUnitSerial === null ? [] : [nameActivationOnUnit(activation.controlUnitSerial, activation.id)]),
  ...(activation.keyHash === null
    ? []
    : [
        create({ ...apiKeyKey(activation.keyHash), ...keyRecord(activation) }, () => versionConflict('Key collision; try again')),
      ]),
];

/** How long a connection code stays usable. */
const CONNECTION_CODE_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** A connection code of a new activation, by the code's hash; a code another activation holds is refused. */
export const issueConnectionCode = (hash: string, activationId: number, now: number): Step =>
  create({ ...activationKeys.connectionCode(hash), activationId, expires: now + CONNECTION_CODE_LIFETIME_MS, used: false }, () =>
    versionConflict('This connection code is in use by another activation; choose another'),
  );

/** A connection code that cannot be spent: none by that hash, used already, or expired. */
export const connectionCodeUnusable = () => referenceNotFound('The activation code is unknown, used or expired');

/** Spends a connection code: it serves once, so a concurrent connection with the same code is refused. */
export const claimConnectionCode = (hash: string): Step => ({
  write: {
    Update: {
      TableName: table(),
      Key: activationKeys.connectionCode(hash),
      UpdateExpression: 'SET used = :true',
      ConditionExpression: 'used = :false',
      ExpressionAttributeValues: { ':true': true, ':false': false },
    },
  },
  refused: connectionCodeUnusable,
});
