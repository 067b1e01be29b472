import { newApiKey, hashApiKey } from '#shared/auth/api-keys.ts';
import { mergeFeatures } from '#shared/auth/features.ts';
import { readItem } from '#shared/db/reads.ts';
import { type Step, transact } from '#shared/db/transact.ts';
import { forbidden, nonUnique, notFound, referenceNotFound, registerNameTaken, unprocessable } from '#shared/errors.ts';
import { ok, okText } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import type { ActivationOrderBody, ConnectionBody, NameExistenceBody, ProductionNumberOrderBody } from '#schemas/types.ts';
import { publicKeyPemFor } from '#shared/signing/signer.ts';
import { type Seller, sellerKeys } from '#shared/domain/seller.ts';
import {
  claimConnectionCode,
  connectionCodeUnusable,
  findActivation,
  nextIssued,
  saveActivation,
} from '#shared/domain/activations.ts';
import {
  assertCurrent,
  findApplication,
  findInstallation,
  listDeviceForSeller,
  newInstallation,
} from '#shared/domain/installations.ts';
import { connectRegistration } from '#shared/domain/registrations.ts';
import { hashCode, issueActivation, joinInstallation } from './issue.ts';
import { checkCodeLength, type Fail, refusal } from './refusals.ts';
import { signedCode } from '#shared/domain/views.ts';
import { activationKeys, registrationKeys } from '#shared/domain/records.ts';

/** v33 dropped `country` from some bodies (spec 4.2); a body without one means the service's home market. */
export const HOME_COUNTRY = 'SE';

/** The seller's address fields v33 returns with a new key. */
export const sellerContact = (seller: Seller | undefined) => ({
  address: seller?.address ?? null,
  zip: seller?.zip ?? null,
  city: seller?.city ?? null,
  phone: seller?.phone ?? null,
});

/** POST /noauth/activations/generate-production-number (v15): a new installation of a known application. */
export async function generateProductionNumber(request: ApiRequest<ProductionNumberOrderBody>): Promise<Reply> {
  const app = await findApplication(request.body.applicationPackage);
  const { installation, steps } = await newInstallation(app, request.body, Date.now());
  await transact(steps);
  return { status: 201, body: { productionNumber: installation.productionNumber } };
}

/**
 * POST /noauth/activations/order-activation (v15): a register orders its own activation. It is
 * ACTIVE at once when the application's autoActivationCondition allows, otherwise ISSUED until an
 * administrator activates it; the token returned is the register's API key either way.
 */
export async function orderActivation(request: ApiRequest<ActivationOrderBody>): Promise<Reply> {
  const { body } = request;
  const order = body.installationOrderInfo;
  const details = body.activationDetailsInfo;
  const now = Date.now();
  if (body.productionNumber) {
    const installation = await findInstallation(body.productionNumber);
    if (installation.deviceId !== order.deviceId) {
      throw refusal(15, 'PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH', 'The production number belongs to another device');
    }
  }
  const existing = await readItem(registrationKeys.registration(`${body.country}${body.corporateId}`, body.cashRegisterName));
  if (existing && !existing.deleted && existing.productionNumber !== (body.productionNumber ?? null)) {
    throw registerNameTaken(`Register name ${body.cashRegisterName} is taken for this seller`);
  }
  const issued = await issueActivation({
    version: 15,
    now,
    principal: undefined,
    country: body.country,
    corporateId: body.corporateId,
    companyName: body.companyName ?? null,
    cashRegisterName: body.cashRegisterName,
    features: mergeFeatures([], details.features ?? [], 15),
    validFrom: details.validFrom,
    validTo: details.validTo,
    contact: body.contactInfo ?? null,
    comment: body.comment ?? null,
    applicationPackage: order.applicationPackage,
    productionNumber: body.productionNumber ?? null,
    newInstallation: body.productionNumber ? null : order,
    connectionCode: null,
    controlUnit: {
      serial: details.controlUnitSerial ?? null,
      location: details.controlUnitLocation ?? null,
      geolocation: body.deviceLocation ?? null,
    },
    status: 'AUTO',
  });
  return { status: 201, body: { activationSecurityToken: issued.apiKey } };
}

/** GET (v15) / POST (v26, v33) /activations/activation-code: the register's signed activation. */
export async function activationCode(request: ApiRequest): Promise<Reply> {
  if (request.principal?.kind !== 'activation') throw forbidden('INSUFFICIENT_ACCESS_RIGHTS', 'A register API key is needed');
  const activation = await findActivation(request.principal.activationId);
  const code = await signedCode(activation, request.version);
  return request.method === 'POST' ? { status: 201, body: code } : ok(code);
}

/** GET /noauth/activations/public-keys/{publicKeyFileName}: the PEM that verifies activation codes (docs/conventions.md §11). */
export async function publicKey(request: ApiRequest<unknown, 'publicKeyFileName'>): Promise<Reply> {
  const name = request.params.publicKeyFileName;
  const pem = await publicKeyPemFor(name);
  if (pem === undefined) throw notFound(`No public key ${name}`);
  return okText(pem, 'application/x-pem-file');
}

/**
 * POST /noauth/activations/cash-register-name/existance: whether the seller has a register of that
 * name. v26 answers an existing name with 400 NonUnique, as its spec lists.
 */
export async function nameExists(request: ApiRequest<NameExistenceBody>): Promise<Reply> {
  const { body } = request;
  const sellerId = `${body.country ?? HOME_COUNTRY}${body.corporateId}`;
  const registration = await readItem(registrationKeys.registration(sellerId, body.cashRegisterName));
  const exists = registration !== undefined && !registration.deleted;
  if (exists && request.version === 26) {
    throw nonUnique(`Register name ${body.cashRegisterName} is taken for this seller`);
  }
  return { status: 201, body: { exists } };
}

/**
 * POST /activations/connection (v26, v33): a register redeems the connection code an administrator
 * issued with the activation, with its installation (an existing production number, or a new
 * install), and receives its API key (shown once) and, in v26, its signed activation.
 */
export async function connect(request: ApiRequest<ConnectionBody>): Promise<Reply> {
  const { version } = request;
  const { installation: device, activationCode: code } = request.body;
  const fail: Fail = (reason, message) => refusal(version, reason, message);
  const now = Date.now();
  checkCodeLength(code, version);
  const hash = hashCode(code);
  const entry = await readItem(activationKeys.connectionCode(hash));
  if (!entry || entry.used || entry.expires < now) throw connectionCodeUnusable();
  const activation = await findActivation(entry.activationId);
  if (activation.status === 'CLOSED') throw forbidden('ACTIVATION_CLOSED_ALREADY', 'The activation is closed');
  if (device.applicationPackage !== activation.applicationPackage) {
    throw unprocessable('APPLICATION_PACKAGES_MISMATCH', "The application differs from the activation's");
  }
  const registration = await readItem(registrationKeys.registration(activation.sellerId, activation.cashRegisterName));
  if (!registration || registration.deleted)
    throw referenceNotFound(`Register ${activation.cashRegisterName} is no longer registered`);

  const steps: Step[] = [];
  let productionNumber: string;
  if (device.productionNumber) {
    const installation = await findInstallation(device.productionNumber);
    if (installation.deviceId !== device.deviceId) {
      throw fail('PRODUCTION_NUMBER_AND_DEVICE_ID_MISMATCH', 'The production number belongs to another device');
    }
    if (installation.applicationPackage !== device.applicationPackage) {
      throw unprocessable('APPLICATION_PACKAGES_MISMATCH', 'The production number belongs to another application');
    }
    if (registration.productionNumber !== null && registration.productionNumber !== installation.productionNumber) {
      throw fail('PRODUCTION_NUMBER_AND_CONNECTION_MISMATCH', 'The register is connected to another installation');
    }
    await assertCurrent(installation);
    productionNumber = installation.productionNumber;
    if (registration.productionNumber === null) {
      steps.push(joinInstallation(installation, activation.sellerId, activation.cashRegisterName, fail));
    }
  } else {
    if (registration.productionNumber !== null) {
      throw fail(
        'PRODUCTION_NUMBER_AND_CONNECTION_MISMATCH',
        'The register is connected to an installation; send its productionNumber',
      );
    }
    const app = await findApplication(device.applicationPackage);
    const fresh = await newInstallation(app, device, now, {
      sellerId: activation.sellerId,
      cashRegisterName: activation.cashRegisterName,
    });
    steps.push(...fresh.steps);
    productionNumber = fresh.installation.productionNumber;
  }

  const apiKey = newApiKey();
  const connected = { ...activation, productionNumber, keyHash: hashApiKey(apiKey), issued: nextIssued(activation, now) };
  steps.push(
    claimConnectionCode(hash),
    connectRegistration(registration, productionNumber),
    listDeviceForSeller(device.deviceId, activation.sellerId),
  );
  // The key is created by saveActivation's copy; the activation must not have one yet.
  await saveActivation(activation, connected, steps);
  if (version === 26) {
    const activationCodeInfo = await signedCode(connected, 26);
    return { status: 201, body: { activationCodeInfo, activationSecurityToken: apiKey, activationId: activation.id } };
  }
  const seller = await readItem(sellerKeys.profile(activation.sellerId));
  return { status: 201, body: { apiKey, productionNumber, activationId: activation.id, ...sellerContact(seller) } };
}
