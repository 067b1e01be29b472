import { isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { pageOf } from '#shared/db/paging.ts';
import { type Item, readItem, readPartition } from '#shared/db/reads.ts';
import { commit, remove, type Step } from '#shared/db/transact.ts';
import { type ControlUnit, controlUnitKeys } from '#shared/domain/records.ts';
import { controlUnitInfo } from '#shared/domain/views.ts';
import { forbidden, notFound, unprocessable } from '#shared/errors.ts';
import { listParams } from '#shared/http/query.ts';
import { noContent, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { connectControlUnit, deleteControlUnit, disconnectControlUnit } from '#shared/domain/control-units.ts';
import { bridgeKeys } from '#shared/kd/protocol.ts';

const missing = (serial: string) => notFound(`Control unit ${serial} does not exist`);

/** Changes are the hyper admin's: a software-vendor user only reads its own vendor's units. */
export function checkManager(principal: Principal | undefined): void {
  if (!isHyperAdmin(principal)) forbiddenToVendor();
}
const forbiddenToVendor = (): never => {
  throw forbidden('CU_ARE_NOT_MANAGEABLE_BY_SVA', 'Control units are managed by the hyper admin only');
};

/** Whether the principal may see the unit: the hyper admin every unit, a vendor user those connected to its vendor. */
export const canSee = (principal: Principal | undefined, unit: ControlUnit): boolean =>
  isHyperAdmin(principal) || (unit.softwareVendor !== null && unit.softwareVendor === vendorOf(principal));

/** The unit the principal may see, or 404 (another vendor's unit is as missing as an unknown one). */
export async function visibleUnit(principal: Principal | undefined, serial: string): Promise<Item<ControlUnit>> {
  const unit = await readItem(controlUnitKeys.unit(serial));
  if (!unit || !canSee(principal, unit)) throw missing(serial);
  return unit;
}

export const UNIT_ORDER = ['id', 'serial', 'registrationDate', 'softwareVendor'] as const;

/** GET /control-units: every unit for the hyper admin, its vendor's for a vendor user; LIST parameters, by id by default. */
export async function listUnits(request: ApiRequest): Promise<Reply> {
  const query = listParams(request.query, UNIT_ORDER);
  const vendor = vendorOf(request.principal);
  const units = await readPartition(
    isHyperAdmin(request.principal) ? controlUnitKeys.directory() : controlUnitKeys.directory(vendor),
  );
  const listed = pageOf(units, query, {
    searched: (unit) => [unit.serial, unit.geolocation?.city, unit.geolocation?.postalCode],
    field: (unit, field) => unit[field],
    tiebreak: (unit) => String(unit.id).padStart(15, '0'),
  });
  return ok(listed.map((unit) => controlUnitInfo(unit, request.version)));
}

/** GET /control-units/{serial} */
export async function getUnit(request: ApiRequest<unknown, 'serial'>): Promise<Reply> {
  return ok(controlUnitInfo(await visibleUnit(request.principal, request.params.serial), request.version));
}

/** A change of the unit, decided on each attempt on the unit as read (404 when there is none). */
const decideOnUnit = (serial: string, decide: (unit: Item<ControlUnit>) => Step[]): Promise<Reply> =>
  commit(async () => {
    const unit = await readItem(controlUnitKeys.unit(serial));
    if (!unit) throw missing(serial);
    return { steps: decide(unit), result: noContent() };
  }, 'retry-all');

/**
 * DELETE /control-units/{serial}: the hyper admin's, while no activation names the unit (422
 * CU_HAS_REFERENCED_DATA; activations are never deleted, so a unit once activated stays). Its directory
 * entries, its vendor's count and its bridge's records go with it.
 */
export function deleteUnit(request: ApiRequest<unknown, 'serial'>): Promise<Reply> {
  checkManager(request.principal);
  const { serial } = request.params;
  return decideOnUnit(serial, (unit) => {
    if ((unit.refs ?? 0) > 0) throw unprocessable('CU_HAS_REFERENCED_DATA', `Activations name control unit ${serial}`);
    return [...deleteControlUnit(unit), remove(bridgeKeys.bridge(serial)), remove(bridgeKeys.status(serial))];
  });
}

/**
 * PUT /control-units/{serial}/software-vendor/{vendorId}: connects a disconnected unit to a vendor (204); a
 * connected one is 422 CONTROL_UNIT_IS_CONNECTED_ALREADY (disconnect it first), an unknown vendor 404
 * ReferenceNotFound. The vendor counts the unit, so it cannot be deleted while connected.
 */
export function connectUnit(request: ApiRequest<unknown, 'serial' | 'vendorId'>): Promise<Reply> {
  checkManager(request.principal);
  const { serial } = request.params;
  const vendor = Number(request.params.vendorId);
  return decideOnUnit(serial, (unit) => {
    if (unit.softwareVendor !== null) {
      throw unprocessable(
        'CONTROL_UNIT_IS_CONNECTED_ALREADY',
        `Control unit ${serial} is connected to vendor ${unit.softwareVendor}`,
      );
    }
    return connectControlUnit(unit, vendor);
  });
}

/** DELETE /control-units/{serial}/software-vendor: disconnects the unit from its vendor (204); 422 CONTROL_UNIT_IS_DISCONNECTED_ALREADY. */
export function disconnectUnit(request: ApiRequest<unknown, 'serial'>): Promise<Reply> {
  checkManager(request.principal);
  const { serial } = request.params;
  return decideOnUnit(serial, (unit) => {
    if (unit.softwareVendor === null) {
      throw unprocessable('CONTROL_UNIT_IS_DISCONNECTED_ALREADY', `Control unit ${serial} is connected to no vendor`);
    }
    return disconnectControlUnit(unit);
  });
}
