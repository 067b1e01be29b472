import { createHash } from 'node:crypto';
import { insufficientRights, vendorOf } from '#shared/auth/access.ts';
import { hashApiKey, newApiKey } from '#shared/auth/api-keys.ts';
import type { Feature } from '#shared/auth/features.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { type Item, readItem } from '#shared/db/reads.ts';
import { nextNumber, put, reference, type Step, transact } from '#shared/db/transact.ts';
import { checkCorporateId } from '#shared/domain/corporate-id.ts';
import { createActivation, issueConnectionCode } from '#shared/domain/activations.ts';
import { addActivationToRegistration, createRegistration } from '#shared/domain/registrations.ts';
import {
  type Activation,
  type ApplicationDescription,
  type Contact,
  type Registration,
  type Installation,
  applicationKeys,
  registrationKeys,
  vendorKeys,
} from '#shared/domain/records.ts';
import { referenceNotFound, unprocessable } from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { type Seller, sellerFor } from '#shared/domain/seller.ts';
import { type ControlUnitRequest, resolveControlUnit } from './control-units.ts';
import {
  assertCurrent,
  type DeviceInfo,
  findApplication,
  findInstallation,
  newInstallation,
  listDeviceForSeller,
  registerOnInstallation,
  type StoredInstallation,
} from '#shared/domain/installations.ts';
import { checkCodeLength, type Fail, refusal } from './refusals.ts';

/** Everything an activation request says, whichever endpoint and version it came through. */
export interface ActivationPlan {
  version: ApiVersion;
  now: number;
  /** Who asks: an administrator (activations-advanced) or nobody (v15's self-service order). */
  principal: Principal | undefined;
  country: string;
  corporateId: string;
  companyName: string | null;
  cashRegisterName: string;
  features: Feature[];
  validFrom: number;
  validTo: number;
  contact: Contact | null;
  comment: string | null;
  applicationPackage: string | null;
  productionNumber: string | null;
  /** Present when the register installs now (a new production number is made). */
  newInstallation: DeviceInfo | null;
  /** Present when the register will connect later with this code. */
  connectionCode: string | null;
  controlUnit: ControlUnitRequest;
  /** ACTIVE when the hyper admin issues it; AUTO (a register's or a vendor user's order) lets autoActivationCondition decide. */
  status: 'ACTIVE' | 'AUTO';
}

export interface Issued {
  activation: Activation;
  /** Shown once; null when the register will receive its key when it connects. */
  apiKey: string | null;
  installation: Installation | undefined;
  seller: Seller;
}

export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Issues an activation (spec 4.2): finds or creates the installation and the registration, checks
 * the application's rules (corporate id, control unit, auto-activation), creates the seller from
 * the company name when needed, and commits the activation, its API key, the registration and
 * every new record in one transaction.
 */
export async function issueActivation(plan: ActivationPlan): Promise<Issued> {
  const { version, now } = plan;
  const fail: Fail = (code, message) => refusal(version, code, message);
  if (plan.validTo <= plan.validFrom) throw fail('VALID_FROM_AND_VALID_TO_INCONSISTENCY', 'validTo must be after validFrom');
  if (plan.connectionCode !== null) checkCodeLength(plan.connectionCode, version);
  const sellerId = `${plan.country}${plan.corporateId}`;
  const stored = await readItem(registrationKeys.registration(sellerId, plan.cashRegisterName));
  const registration = stored && !stored.deleted ? stored : undefined;

  const target = await findTarget(plan, registration, fail);
  const app = await findApplication(target.applicationPackage);
  const vendor = vendorOf(plan.principal);
  if (vendor !== undefined && vendor !== app.softwareVendor) throw insufficientRights();
  if (target.installation) await assertCurrent(target.installation);
  checkCorporateId(app.corporateIdValidationMethod, plan.corporateId);
  const status = activationStatusOnOrder(plan.status, app, plan.features);
  const unit = await resolveControlUnit(
    app,
    plan.controlUnit,
    { autoActivating: plan.status === 'AUTO' && status === 'ACTIVE', version, now },
    () => ({
      sellerId,
      corporateId: plan.corporateId,
      companyName: plan.companyName,
      cashRegisterName: plan.cashRegisterName,
      application: { name: app.name, applicationPackage: app.applicationPackage },
    }),
  );
  const { seller, steps: sellerSteps } = await sellerFor(
    { country: plan.country, corporateId: plan.corporateId },
    plan.companyName,
    version,
    () => unprocessable('COMPANY_NAME_MUST_BE_SET_IF_NO_SELLER', `Seller ${sellerId} is not registered; give companyName`),
  );

  const fresh = plan.newInstallation
    ? await newInstallation(app, plan.newInstallation, now, { sellerId, cashRegisterName: plan.cashRegisterName })
    : undefined;
  const installation = fresh?.installation ?? target.installation;
  const apiKey = plan.connectionCode === null ? newApiKey() : null;
  const activation: Activation = {
    id: await nextNumber('ACTIVATION'),
    status,
    issued: now,
    sellerId,
    country: plan.country,
    corporateId: plan.corporateId,
    sellerName: seller.name ?? null,
    cashRegisterName: plan.cashRegisterName,
    applicationPackage: app.applicationPackage,
    productionNumber: installation?.productionNumber ?? null,
    validFrom: plan.validFrom,
    validTo: plan.validTo,
    features: plan.features,
    controlUnitLocation: unit.location,
    controlUnitSerial: unit.serial,
    ...(unit.controlServerId === null ? {} : { controlServerId: unit.controlServerId }),
    controlUnitGeolocation: plan.controlUnit.geolocation,
    contact: plan.contact,
    comment: plan.comment,
    keyHash: apiKey === null ? null : hashApiKey(apiKey),
  };
  const steps: Step[] = [
    ...sellerSteps,
    ...(fresh?.steps ?? []),
    ...unit.steps,
    ...(await registrationSteps(activation, stored, installation, app, fresh !== undefined, fail)),
    ...createActivation(activation),
    ...(plan.connectionCode === null ? [] : [issueConnectionCode(hashCode(plan.connectionCode), activation.id, now)]),
    put({ ...vendorKeys.sellerLink(app.softwareVendor, sellerId), linked: now }),
  ];
  await transact(steps);
  return { activation, apiKey, installation, seller };
}

/**
 * The status a new activation starts in: ACTIVE when the hyper admin issues it; on an AUTO order (the
 * register's own, or a software-vendor user's), ACTIVE when the application's autoActivationCondition
 * is ALWAYS, or NO_FEATURES and none are asked for; otherwise ISSUED until an administrator activates it.
 */
export function activationStatusOnOrder(
  requested: ActivationPlan['status'],
  app: Pick<ApplicationDescription, 'autoActivationCondition'>,
  features: readonly Feature[],
): 'ACTIVE' | 'ISSUED' {
  if (requested === 'ACTIVE' || app.autoActivationCondition === 'ALWAYS') return 'ACTIVE';
  if (app.autoActivationCondition === 'NO_FEATURES' && features.length === 0) return 'ACTIVE';
  return 'ISSUED';
}

/**
 * The installation lookup rules of spec 4.2: a new installation; or the one behind the production
 * number; or the registration's (seller + register name); or none yet (a connection code follows,
 * or the application needs no installation).
 */
async function findTarget(
  plan: ActivationPlan,
  registration: Registration | undefined,
  fail: Fail,
): Promise<{ installation: StoredInstallation | undefined; applicationPackage: string }> {
  const named = plan.applicationPackage;
  const packageMismatch = () =>
    fail('ACTIVATION_APPLICATION_PACKAGE_MUST_BE_NULL_OR_EQUAL', 'applicationPackage differs from the stored one');
  if (plan.newInstallation) {
    if (plan.productionNumber !== null) {
      throw fail('ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL', 'A new installation gets its production number from the service');
    }
    if (registration) {
      throw fail('REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION', `Register ${plan.cashRegisterName} is registered already`);
    }
    if (named === null) throw referenceNotFound('A new installation needs its applicationPackage');
    return { installation: undefined, applicationPackage: named };
  }
  if (plan.productionNumber !== null) {
    const installation = await findInstallation(plan.productionNumber);
    if (named !== null && named !== installation.applicationPackage) throw packageMismatch();
    if (registration && registration.productionNumber !== null && registration.productionNumber !== plan.productionNumber) {
      throw fail('ACTIVATION_PRODUCTION_NUMBER_SHOULD_BE_NULL_OR_EQUAL', "productionNumber differs from the registration's");
    }
    return { installation, applicationPackage: installation.applicationPackage };
  }
  if (registration) {
    if (named !== null && registration.applicationPackage !== null && named !== registration.applicationPackage) {
      throw packageMismatch();
    }
    const installation = registration.productionNumber ? await findInstallation(registration.productionNumber) : undefined;
    const applicationPackage = registration.applicationPackage ?? named;
    if (applicationPackage === null) throw referenceNotFound('The registration names no application; give applicationPackage');
    return { installation, applicationPackage };
  }
  if (named === null) {
    throw fail(
      'ACTIVATION_MUST_HAVE_INSTALLATION_OR_ACTIVATION_CODE',
      'Name an installation (productionNumber or installationCreationInfo), a registered register, or a connection code with its application',
    );
  }
  return { installation: undefined, applicationPackage: named };
}

/**
 * The registration the activation belongs to: created (with the installation's seller list and the
 * seller's device entry) or updated with the new activation, conditioned on what was read.
 */
async function registrationSteps(
  activation: Activation,
  existing: Item<Registration> | undefined,
  installation: StoredInstallation | undefined,
  app: ApplicationDescription,
  installationIsNew: boolean,
  fail: Fail,
): Promise<Step[]> {
  if (existing && !existing.deleted) return [addActivationToRegistration(existing, activation)];
  const steps: Step[] = [
    createRegistration(
      {
        id: await nextNumber('REGISTRATION'),
        sellerId: activation.sellerId,
        country: activation.country,
        corporateId: activation.corporateId,
        cashRegisterName: activation.cashRegisterName,
        productionNumber: installation?.productionNumber ?? null,
        applicationPackage: app.applicationPackage,
        activationIds: [activation.id],
        created: activation.issued,
      },
      existing,
    ),
  ];
  if (!installation) {
    steps.push(
      reference(applicationKeys.application(app.applicationPackage), () =>
        referenceNotFound(`Application ${app.applicationPackage} does not exist`),
      ),
    );
    return steps;
  }
  steps.push(listDeviceForSeller(installation.deviceId, activation.sellerId));
  if (!installationIsNew) steps.push(joinInstallation(installation, activation.sellerId, activation.cashRegisterName, fail));
  return steps;
}

/** The register joins an installation it was not created with; another name of the seller there is refused. */
export const joinInstallation = (installation: Installation, sellerId: string, cashRegisterName: string, fail: Fail): Step =>
  registerOnInstallation(installation.productionNumber, sellerId, cashRegisterName, () =>
    fail(
      'REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION',
      `The installation ${installation.productionNumber} is registered for this seller under another name`,
    ),
  );
