import { queryAll, withPrefix } from '#shared/db/reads.ts';
import { put, type Step } from '#shared/db/transact.ts';
import { CONTROL_UNIT_ACTIVATION_PREFIX, type ControlUnit, controlUnitKeys, controlUnitPk } from './records.ts';

/**
 * A unit's directory entries (all units, and its vendor's when it has one): copies of the unit, written with it
 * wherever the unit is written (its first activation, a vendor connected or disconnected).
 */
export function listControlUnit({ refs: _refs, ...unit }: ControlUnit): Step[] {
  const entries = [controlUnitKeys.directoryEntry(unit.serial)];
  if (unit.softwareVendor !== null) entries.push(controlUnitKeys.directoryEntry(unit.serial, unit.softwareVendor));
  return entries.map((key) => put({ ...key, ...unit }));
}

/** The ids of the activations that ever named the unit, read from its partition. */
export async function activationsNaming(serial: string): Promise<number[]> {
  const named = await queryAll<{ activationId: number }>(withPrefix(controlUnitPk(serial), CONTROL_UNIT_ACTIVATION_PREFIX));
  return named.map(({ activationId }) => activationId);
}
