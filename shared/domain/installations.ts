import { table } from '#shared/db/client.ts';
import type { Key } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { create, nextNumber, put, reference, type Step } from '#shared/db/transact.ts';
import { type ApplicationDescription, type Installation, applicationKeys, deviceKeys } from '#shared/domain/records.ts';
import { type ApiError, referenceNotFound, serviceBusy, unprocessable } from '#shared/errors.ts';

/** What a device tells about itself when it installs (spec 4.2 installation fields). */
export interface DeviceInfo {
  deviceId: string;
  buildInfo?: Record<string, string> | null;
  gcmRegistrationId?: string | null;
  gcmUnsubscribeDate?: number | null;
  programVersion?: string | null;
}

/** An installation as stored: the record plus the sellers registered on it (seller id -> register name). */
export type StoredInstallation = Installation & { registrations: Record<string, string> };

/** An installation, by its production number. */
export const installationKey = (productionNumber: string): Key<StoredInstallation> => ({
  pk: `I#${productionNumber}`,
  sk: '#INSTALLATION',
});

/** A production number is the application's prefix and a number of at least this many digits. */
const MIN_DIGITS = 6;
const MAX_PRODUCTION_NUMBER = 25;

/**
 * A new installation of `app` on a device: a fresh production number from the prefix's own
 * sequence (one atomic counter, so concurrent installs never collide), the install superseding
 * any earlier one of the same application on that device, and the device listed in the
 * directories. Returns the writes; the caller commits them with its own.
 */
export async function newInstallation(
  app: ApplicationDescription,
  device: DeviceInfo,
  now: number,
  registration?: { sellerId: string; cashRegisterName: string },
): Promise<{ installation: StoredInstallation; steps: Step[] }> {
  const [id, serial] = await Promise.all([nextNumber('INSTALLATION'), nextNumber(`PN#${app.productionNumberPrefix}`)]);
  const productionNumber = `${app.productionNumberPrefix}${String(serial).padStart(MIN_DIGITS, '0')}`;
  if (productionNumber.length > MAX_PRODUCTION_NUMBER)
    throw serviceBusy('The production number range of this application is exhausted');
  const installation: StoredInstallation = {
    id,
    productionNumber,
    deviceId: device.deviceId,
    applicationPackage: app.applicationPackage,
    registrationDate: now,
    gcmRegistrationId: device.gcmRegistrationId ?? null,
    gcmUnsubscribeDate: device.gcmUnsubscribeDate ?? null,
    programVersion: device.programVersion ?? null,
    buildInfo: device.buildInfo ?? {},
    registrations: registration ? { [registration.sellerId]: registration.cashRegisterName } : {},
  };
  const entry = { deviceId: device.deviceId, latestProductionNumber: productionNumber, updated: now };
  return {
    installation,
    steps: [
      create({ ...installationKey(productionNumber), ...installation }, () =>
        serviceBusy('The production number was taken; try again'),
      ),
      put({ ...deviceKeys.install(device.deviceId, app.applicationPackage), productionNumber, installed: now }),
      put({ ...deviceKeys.directoryEntry(device.deviceId), ...entry }),
      put({ ...deviceKeys.directoryEntry(device.deviceId, { vendor: app.softwareVendor }), ...entry }),
      reference(applicationKeys.application(app.applicationPackage), () =>
        referenceNotFound(`Application ${app.applicationPackage} does not exist`),
      ),
    ],
  };
}

/**
 * Records the seller's register on the installation: one registration per seller and installation, so the same
 * name again passes and another name of the same seller is `refused`.
 */
export const registerOnInstallation = (
  productionNumber: string,
  sellerId: string,
  cashRegisterName: string,
  refused: () => ApiError,
): Step => ({
  write: {
    Update: {
      TableName: table(),
      Key: installationKey(productionNumber),
      UpdateExpression: 'SET registrations.#seller = :cash',
      ConditionExpression: 'attribute_not_exists(registrations.#seller) OR registrations.#seller = :cash',
      ExpressionAttributeNames: { '#seller': sellerId },
      ExpressionAttributeValues: { ':cash': cashRegisterName },
    },
  },
  refused,
});

/** The seller's register leaves the installation (its registration is deleted): the seller may register on it again. */
export const unregisterFromInstallation = (productionNumber: string, sellerId: string): Step => ({
  write: {
    Update: {
      TableName: table(),
      Key: installationKey(productionNumber),
      UpdateExpression: 'REMOVE registrations.#seller',
      ExpressionAttributeNames: { '#seller': sellerId },
    },
  },
});

/** The device in the seller's directory of devices, once a register of the seller runs on it. */
export const listDeviceForSeller = (deviceId: string, sellerId: string): Step =>
  put({ ...deviceKeys.directoryEntry(deviceId, { sellerId }), deviceId });

/** The installation behind a production number, or 404 ReferenceNotFound. */
export async function findInstallation(productionNumber: string): Promise<StoredInstallation> {
  const installation = await readItem(installationKey(productionNumber));
  if (!installation) throw referenceNotFound(`No installation has production number ${productionNumber}`);
  return installation;
}

/** A later install of the same application on the same device supersedes this one (422 INSTALLATION_IS_OUT_OF_DATE). */
export async function assertCurrent(installation: Installation): Promise<void> {
  const latest = await readItem(deviceKeys.install(installation.deviceId, installation.applicationPackage));
  if (latest && latest.productionNumber !== installation.productionNumber) {
    throw unprocessable(
      'INSTALLATION_IS_OUT_OF_DATE',
      `Production number ${installation.productionNumber} was superseded by a later install; reinstall`,
    );
  }
}

/** The application behind a package name, or 404 ReferenceNotFound. */
export async function findApplication(applicationPackage: string): Promise<ApplicationDescription> {
  const app = await readItem(applicationKeys.application(applicationPackage));
  if (!app) throw referenceNotFound(`Application ${applicationPackage} does not exist`);
  return app;
}
