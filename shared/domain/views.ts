import { featuresIn } from '#shared/auth/features.ts';
import type { StoredInstallation } from './installations.ts';
import type { Activation, ApplicationDescription, ControlUnit, Geolocation, Installation, Registration } from './records.ts';
import { signActivationCode } from '#shared/signing/activation-code.ts';
import { activationSigner } from '#shared/signing/signer.ts';
import type { ApiVersion } from '#shared/versions.ts';

/** The signed activation code as a version shows it (v15 has no publicKeyFileName). Signed afresh on each call. */
export async function signedCode(activation: Activation, version: ApiVersion) {
  const code = await signActivationCode(
    {
      activationId: activation.id,
      status: activation.status,
      issued: activation.issued,
      country: activation.country,
      corporateId: activation.corporateId,
      sellerName: activation.sellerName,
      cashRegisterName: activation.cashRegisterName,
      applicationPackage: activation.applicationPackage,
      productionNumber: activation.productionNumber,
      validFrom: activation.validFrom,
      validTo: activation.validTo,
      features: featuresIn(activation.features, version),
      controlUnitLocation: activation.controlUnitLocation,
      controlUnitSerial: activation.controlUnitSerial,
    },
    activationSigner(),
  );
  if (version !== 15) return code;
  const { activationInfoVersion, activationDescriptorInfo, signature } = code;
  return { activationInfoVersion, activationDescriptorInfo, signature };
}

/** activationInfo (spec 2.3 Activation). */
export const activationInfo = (activation: Activation, version: ApiVersion, unit?: ControlUnit) => ({
  id: activation.id,
  status: activation.status,
  issued: activation.issued,
  controlUnitLocation: activation.controlUnitLocation,
  validFrom: activation.validFrom,
  validTo: activation.validTo,
  sellerName: activation.sellerName,
  controlUnitId: unit?.id ?? null,
  controlUnitGeolocation: geolocationIn(activation.controlUnitGeolocation, version),
  contact: activation.contact,
  comment: activation.comment,
  features: featuresIn(activation.features, version),
});

/**
 * A geolocation as a version shows it: `address` is v15's alone, so v26 and v33 never show one that a v15 request
 * wrote (v15 shows it where one was written; one written through v26 or v33 has none).
 */
export function geolocationIn(geolocation: Geolocation | null, version: ApiVersion): Geolocation | null {
  if (geolocation === null || version === 15) return geolocation;
  const { address: _v15Only, ...shown } = geolocation;
  return shown;
}

/** controlUnitInfo (spec 2.3 Activation). */
export const controlUnitInfo = (unit: ControlUnit, version: ApiVersion) => ({
  id: unit.id,
  registrationDate: unit.registrationDate,
  controlUnitLocation: unit.controlUnitLocation,
  serial: unit.serial,
  geolocation: geolocationIn(unit.geolocation, version),
  softwareVendor: unit.softwareVendor,
});

/** Installation (spec 2.3); programVersion from v33. */
export const installationInfo = (installation: Installation, version: ApiVersion) => ({
  id: installation.id,
  registrationDate: installation.registrationDate,
  deviceId: installation.deviceId,
  applicationPackage: installation.applicationPackage,
  productionNumber: installation.productionNumber,
  gcmRegistrationId: installation.gcmRegistrationId,
  gcmUnsubscribeDate: installation.gcmUnsubscribeDate,
  ...(version === 33 ? { programVersion: installation.programVersion } : {}),
});

/** BuildInfo records (spec 2.3) of an installation. */
export const buildInfoes = (installation: Installation) =>
  Object.entries(installation.buildInfo).map(([name, value]) => ({ name, value, installation: installation.productionNumber }));

/** Registration (spec 2.3): v15 names the installation by id, v26/v33 by production number. */
export const registrationInfo = (registration: Registration, version: ApiVersion, installation?: Installation) => ({
  id: registration.id,
  cashRegisterName: registration.cashRegisterName,
  country: registration.country,
  corporateId: registration.corporateId,
  ...(version === 15 ? { installationId: installation?.id ?? null } : { productionNumber: registration.productionNumber }),
});

/** ApplicationDescription (spec 2.3) as the overviews show it. */
export const applicationDescriptionInfo = (app: ApplicationDescription) => ({
  applicationPackage: app.applicationPackage,
  productionNumberPrefix: app.productionNumberPrefix,
  controlUnitRequired: app.controlUnitRequired,
  name: app.name,
  softwareVendor: app.softwareVendor,
  autoActivationCondition: app.autoActivationCondition,
  corporateIdValidationMethod: app.corporateIdValidationMethod,
});

/** The registers of every seller on an installation (its seller id -> register name map). */
export const registersOn = (installation: StoredInstallation) =>
  Object.entries(installation.registrations).map(([sellerId, cashRegisterName]) => ({
    country: sellerId.slice(0, 2),
    corporateId: sellerId.slice(2),
    cashRegisterName,
    productionNumber: installation.productionNumber,
  }));
