import { table } from '#shared/db/client.ts';
import { type Item, queryAll, withPrefix } from '#shared/db/reads.ts';
import { create, put, reference, remove, type Step } from '#shared/db/transact.ts';
import { referenceNotFound, versionConflict } from '#shared/errors.ts';
import { CONTROL_UNIT_ACTIVATION_PREFIX, type ControlUnit, controlUnitKeys, controlUnitPk, vendorKeys } from './records.ts';

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

/*
 * A vendor counts the units connected to it, so it cannot be deleted while one is. The two refusals keep the
 * messages clients have always had.
 */
const vendorCountsUnit = (vendor: number) =>
  reference(vendorKeys.vendor(vendor), () => referenceNotFound(`Software vendor ${vendor} does not exist`));
const vendorReleasesUnit = (vendor: number) =>
  reference(vendorKeys.vendor(vendor), () => referenceNotFound('The software vendor does not exist'), -1);

/**
 * A unit seen for the first time, registered with the activation that names it: the unit, counted once by that
 * activation (so it cannot be deleted while an activation names it), its directory entries and its vendor's count.
 */
export const registerControlUnit = (unit: ControlUnit): Step[] => [
  create({ ...controlUnitKeys.unit(unit.serial), ...unit, refs: 1 }, () =>
    versionConflict('The control unit was registered concurrently; try again'),
  ),
  ...listControlUnit(unit),
  ...(unit.softwareVendor === null ? [] : [vendorCountsUnit(unit.softwareVendor)]),
];

/** One more activation names a known unit: it counts on the unit, so the unit cannot be deleted under it. */
export const countActivationOnUnit = (serial: string): Step =>
  reference(controlUnitKeys.unit(serial), () => versionConflict('The control unit was removed concurrently; try again'));

/** The activation's entry in the unit's partition: the unit's activations are one Query, never a Scan. */
export const nameActivationOnUnit = (serial: string, activationId: number): Step =>
  put({ ...controlUnitKeys.activation(serial, activationId), activationId });

/**
 * The condition that the unit is as read: its vendor link unchanged and, for a delete, no activation counted
 * on it. These steps name no refusal: a failed condition means the unit changed meanwhile, and the caller
 * decides again on a fresh read (`commit` with 'retry-all').
 */
function asRead(unit: ControlUnit, options: { unreferenced: boolean }) {
  const vendorSame = unit.softwareVendor === null ? 'attribute_type(softwareVendor, :null)' : 'softwareVendor = :vendor';
  const parts = [
    'attribute_exists(pk)',
    vendorSame,
    ...(options.unreferenced ? ['(attribute_not_exists(refs) OR refs = :zero)'] : []),
  ];
  const values: Record<string, unknown> = unit.softwareVendor === null ? { ':null': 'NULL' } : { ':vendor': unit.softwareVendor };
  if (options.unreferenced) values[':zero'] = 0;
  return { ConditionExpression: parts.join(' AND '), ExpressionAttributeValues: values };
}

/** Deletes the unit as read, provided no activation counts on it, with its directory entries and its vendor's count. */
export function deleteControlUnit(unit: ControlUnit): Step[] {
  const { pk, sk } = controlUnitKeys.unit(unit.serial);
  return [
    { write: { Delete: { TableName: table(), Key: { pk, sk }, ...asRead(unit, { unreferenced: true }) } } },
    remove(controlUnitKeys.directoryEntry(unit.serial)),
    ...(unit.softwareVendor === null
      ? []
      : [remove(controlUnitKeys.directoryEntry(unit.serial, unit.softwareVendor)), vendorReleasesUnit(unit.softwareVendor)]),
  ];
}

/** The unit's new vendor link: the unit, conditioned on the link read, and its directory entries. */
function relink(unit: Item<ControlUnit>, softwareVendor: number | null): Step[] {
  const { pk, sk } = controlUnitKeys.unit(unit.serial);
  const { refs: _refs, pk: _pk, sk: _sk, ...data } = unit;
  const condition = asRead(unit, { unreferenced: false });
  return [
    {
      write: {
        Update: {
          TableName: table(),
          Key: { pk, sk },
          UpdateExpression: 'SET softwareVendor = :new',
          ...condition,
          ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':new': softwareVendor },
        },
      },
    },
    ...listControlUnit({ ...data, softwareVendor }),
    ...(unit.softwareVendor === null ? [] : [remove(controlUnitKeys.directoryEntry(unit.serial, unit.softwareVendor))]),
  ];
}

/** Connects the unit as read (connected to no vendor) to `vendor`, which counts it. */
export const connectControlUnit = (unit: Item<ControlUnit>, vendor: number): Step[] => [
  ...relink(unit, vendor),
  vendorCountsUnit(vendor),
];

/** Disconnects the unit as read from its vendor, which stops counting it. */
export const disconnectControlUnit = (unit: Item<ControlUnit>): Step[] => [
  ...relink(unit, null),
  ...(unit.softwareVendor === null ? [] : [vendorReleasesUnit(unit.softwareVendor)]),
];
