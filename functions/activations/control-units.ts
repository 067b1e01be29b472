import { readItem } from '#shared/db/reads.ts';
import { nextNumber, type Step } from '#shared/db/transact.ts';
import { countActivationOnUnit, registerControlUnit } from '#shared/domain/control-units.ts';
import {
  type ApplicationDescription,
  type ControlUnit,
  type ControlUnitLocation,
  type Geolocation,
  controlUnitKeys,
} from '#shared/domain/records.ts';
import { unprocessable } from '#shared/errors.ts';
import { cloudSystemNamed } from '#shared/kd/cloud-system.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { type Enrollee, enrollRegister } from './enrollment.ts';
import { refusal } from './refusals.ts';

/** The control-unit fields of an activation request. */
export interface ControlUnitRequest {
  serial: string | null;
  location: ControlUnitLocation | null;
  geolocation: Geolocation | null;
}

/**
 * The control unit an activation names (spec 4.2), registered with the activation when it is new.
 * The rules are `controlUnitOnActivation`'s; this reads the unit and numbers a new one. A REMOTE order without a
 * serial gets the register's cloud unit (docs/conventions.md §27): enrolled with the stage's cloud system, or the
 * one enrolled for it before; a stage without one refuses it when the application needs a unit.
 */
export async function resolveControlUnit(
  app: ApplicationDescription,
  request: ControlUnitRequest,
  options: ControlUnitOptions,
  enrollee: () => Enrollee,
): Promise<{ serial: string | null; location: ControlUnitLocation | null; controlServerId: string | null; steps: Step[] }> {
  // Without a serial there is no unit to read: the rules alone say whether one is enrolled.
  const decided = request.serial ? undefined : controlUnitOnActivation(app, request, undefined, options);
  if (decided?.enroll) {
    if (!cloudSystemNamed()) {
      if (app.controlUnitRequired) {
        throw unprocessable('CU_IS_MISSING_FOR_ACTIVATION', 'This stage has no cloud control-unit system; name a control unit');
      }
      return { serial: null, location: decided.location, controlServerId: null, steps: [] };
    }
    const enrolled = await enrollRegister(enrollee(), options.now);
    const known = await readItem(controlUnitKeys.unit(enrolled.serial));
    const steps = known
      ? [countActivationOnUnit(enrolled.serial)]
      : registerControlUnit({
          id: await nextNumber('CONTROL_UNIT'),
          serial: enrolled.serial,
          registrationDate: options.now,
          controlUnitLocation: 'REMOTE',
          geolocation: null,
          softwareVendor: app.softwareVendor,
          cloud: enrolled.cloud,
        });
    return { serial: enrolled.serial, location: 'REMOTE', controlServerId: enrolled.cloud.controlServerId, steps };
  }
  const known = request.serial ? await readItem(controlUnitKeys.unit(request.serial)) : undefined;
  const { serial, location, newUnit } = controlUnitOnActivation(app, request, known, options);
  const controlServerId = known?.cloud?.controlServerId ?? null;
  if (!newUnit) return { serial, location, controlServerId, steps: serial ? [countActivationOnUnit(serial)] : [] };
  const unit: ControlUnit = { id: await nextNumber('CONTROL_UNIT'), ...newUnit };
  return { serial: unit.serial, location, controlServerId, steps: registerControlUnit(unit) };
}

export interface ControlUnitOptions {
  /** The activation becomes ACTIVE by the application's autoActivationCondition. */
  autoActivating: boolean;
  version: ApiVersion;
  now: number;
}

/**
 * The control-unit rules of an activation, given the unit as read (undefined: never seen). An
 * application that needs a unit must name one unless it is REMOTE; a known unit must belong to the
 * application's vendor; a unit seen for the first time needs its geolocation unless it is REMOTE (a
 * remote unit is not on the counter: it is registered without one), cannot be activated
 * automatically, and is registered (`newUnit`) for the application's vendor.
 */
export function controlUnitOnActivation(
  app: Pick<ApplicationDescription, 'applicationPackage' | 'controlUnitRequired' | 'softwareVendor'>,
  request: ControlUnitRequest,
  known: ControlUnit | undefined,
  options: ControlUnitOptions,
): { serial: string | null; location: ControlUnitLocation | null; newUnit?: Omit<ControlUnit, 'id'>; enroll?: true } {
  const location = request.location ?? (request.serial ? 'DEVICE' : null);
  if (!request.serial) {
    // Spec 2.3: a REMOTE order's serial is null; its unit is the stage's cloud system's (`resolveControlUnit`).
    if (location === 'REMOTE') return { serial: null, location, enroll: true };
    if (app.controlUnitRequired) {
      throw unprocessable(
        'CU_IS_MISSING_FOR_ACTIVATION',
        `Application ${app.applicationPackage} works with a control unit; name one`,
      );
    }
    return { serial: null, location };
  }
  if (known) {
    if (known.softwareVendor !== app.softwareVendor) {
      throw refusal(options.version, 'SV_MISMATCH_IN_APP_DESC_AND_CU', 'The control unit belongs to another software vendor');
    }
    return { serial: known.serial, location };
  }
  if (!request.geolocation && location !== 'REMOTE') {
    throw unprocessable('CU_LOCATION_MUST_BE_SET', 'A new control unit on the device needs its geolocation');
  }
  if (options.autoActivating) {
    throw unprocessable(
      'AUTO_ACTIVATE_IS_NOT_POSSIBLE_ON_NEW_CU',
      'A control unit must be registered before an activation on it can be automatic',
    );
  }
  return {
    serial: request.serial,
    location,
    newUnit: {
      serial: request.serial,
      registrationDate: options.now,
      controlUnitLocation: location ?? 'DEVICE',
      geolocation: request.geolocation,
      softwareVendor: app.softwareVendor,
    },
  };
}
