import { put, type Step } from '#shared/db/transact.ts';
import { type ControlUnit, controlUnitKeys } from './records.ts';

/**
 * A unit's directory entries (all units, and its vendor's when it has one): copies of the unit, written with it
 * wherever the unit is written (its first activation, a vendor connected or disconnected).
 */
export function listControlUnit({ refs: _refs, ...unit }: ControlUnit): Step[] {
  const entries = [controlUnitKeys.directoryEntry(unit.serial)];
  if (unit.softwareVendor !== null) entries.push(controlUnitKeys.directoryEntry(unit.serial, unit.softwareVendor));
  return entries.map((key) => put({ ...key, ...unit }));
}
