import { keys } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { create, nextNumber, reference, type Step } from '#shared/db/transact.ts';
import type { ApplicationDescription, ControlUnit, ControlUnitLocation, Geolocation } from '#shared/domain/records.ts';
import { referenceNotFound, unprocessable, versionConflict } from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { refusal } from './refusals.ts';

/** The control-unit fields of an activation request. */
export interface ControlUnitRequest {
  serial: string | null;
  location: ControlUnitLocation | null;
  geolocation: Geolocation | null;
}

/**
 * The control unit an activation names (spec 4.2). An application that needs one must name one
 * unless it is REMOTE; a unit seen for the first time is registered for the application's vendor
 * and needs its geolocation; a known unit must belong to the same vendor.
 */
export async function resolveControlUnit(
  app: ApplicationDescription,
  request: ControlUnitRequest,
  options: { autoActivating: boolean; version: ApiVersion; now: number },
): Promise<{ serial: string | null; location: ControlUnitLocation | null; steps: Step[] }> {
  const location = request.location ?? (request.serial ? 'DEVICE' : null);
  if (!request.serial) {
    if (app.controlUnitRequired && location !== 'REMOTE') {
      throw unprocessable(
        'CU_IS_MISSING_FOR_ACTIVATION',
        `Application ${app.applicationPackage} works with a control unit; name one`,
      );
    }
    return { serial: null, location, steps: [] };
  }
  const known = await readItem(keys.controlUnit(request.serial));
  if (known) {
    if (known.softwareVendor !== app.softwareVendor) {
      throw refusal(options.version, 'SV_MISMATCH_IN_APP_DESC_AND_CU', 'The control unit belongs to another software vendor');
    }
    return { serial: known.serial, location, steps: [] };
  }
  if (!request.geolocation) throw unprocessable('CU_LOCATION_MUST_BE_SET', 'A new control unit needs its geolocation');
  if (options.autoActivating) {
    throw unprocessable(
      'AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU',
      'A control unit must be registered before an activation on it can be automatic',
    );
  }
  const unit: ControlUnit = {
    id: await nextNumber('CONTROL_UNIT'),
    serial: request.serial,
    registrationDate: options.now,
    controlUnitLocation: location ?? 'DEVICE',
    geolocation: request.geolocation,
    softwareVendor: app.softwareVendor,
  };
  return {
    serial: unit.serial,
    location,
    steps: [
      create({ ...keys.controlUnit(unit.serial), ...unit }, () =>
        versionConflict('The control unit was registered concurrently; try again'),
      ),
      reference(keys.vendor(app.softwareVendor), () => referenceNotFound(`Software vendor ${app.softwareVendor} does not exist`)),
    ],
  };
}
