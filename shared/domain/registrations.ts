import { table } from '#shared/db/client.ts';
import { updateRevised } from '#shared/db/revisions.ts';
import type { Step } from '#shared/db/transact.ts';
import { versionConflict } from '#shared/errors.ts';
import { type Registration, registrationKeys } from './records.ts';

/*
 * The writes of a registration (a seller's named register). Each is conditioned on the registration as it was
 * read: its revision is the registration's ETag, and rises on every change.
 */

const keyOf = (registration: Registration) => registrationKeys.registration(registration.sellerId, registration.cashRegisterName);

/**
 * A new registration, or one replacing the deleted registration of the name that was read (`replaced`): its revision
 * goes on rising so old ETags never match. A registration of the name made meanwhile refuses it.
 */
export function createRegistration(fields: Omit<Registration, 'revision' | 'deleted'>, replaced: Registration | undefined): Step {
  const registration: Registration = { ...fields, revision: (replaced?.revision ?? 0) + 1, deleted: false };
  return {
    write: {
      Put: {
        TableName: table(),
        Item: { ...keyOf(registration), ...registration },
        ConditionExpression: replaced ? 'revision = :seen' : 'attribute_not_exists(pk)',
        ...(replaced ? { ExpressionAttributeValues: { ':seen': replaced.revision } } : {}),
      },
    },
    refused: () => versionConflict(`Register ${registration.cashRegisterName} was registered concurrently; try again`),
  };
}

/** A new activation of the registered register: it comes first in the list, with the installation it names. */
export const addActivationToRegistration = (
  registration: Registration,
  activation: { id: number; productionNumber: string | null },
): Step =>
  updateRevised(
    keyOf(registration),
    { activationIds: [activation.id, ...registration.activationIds], productionNumber: activation.productionNumber },
    registration.revision,
  );

/** The register connected (with its connection code) on the installation of `productionNumber`. */
export const connectRegistration = (registration: Registration, productionNumber: string): Step =>
  updateRevised(keyOf(registration), { productionNumber }, registration.revision);

/** The registration deleted: kept, marked, so that the name can be registered again and old ETags never match. */
export const markRegistrationDeleted = (registration: Registration): Step =>
  updateRevised(keyOf(registration), { deleted: true }, registration.revision);
