import { insufficientRights, isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import { mergeFeatures } from '#shared/auth/features.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { readItem } from '#shared/db/reads.ts';
import {
  type Activation,
  type ActivationStatus,
  applicationKeys,
  controlUnitKeys,
  registrationKeys,
} from '#shared/domain/records.ts';
import { inconsistentData, unprocessable } from '#shared/errors.ts';
import { noContent, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import type { ApiVersion } from '#shared/versions.ts';
import type { ActivationAdvancedBody, ActivationStatusChangeBody, ActivationUpdateBody } from '#schemas/types.ts';
import { findActivation, nextIssued, saveActivation } from '#shared/domain/activations.ts';
import { type ActivationPlan, issueActivation } from './issue.ts';
import { refusal } from './refusals.ts';
import { HOME_COUNTRY, sellerContact } from './register.ts';
import { activationInfo, buildInfoes, controlUnitInfo, installationInfo, registrationInfo } from '#shared/domain/views.ts';
import { sellerKeys } from '#shared/domain/seller.ts';
import { installationKey } from '#shared/domain/installations.ts';

/**
 * POST /activations-advanced (v26, v33): an administrator issues an activation, in the status
 * `advancedOrderStatus` decides. The five bodies of spec 4.2 are one schema; the fields sent choose
 * the case (see `issue.ts`).
 */
export async function activateAdvanced(request: ApiRequest<ActivationAdvancedBody>): Promise<Reply> {
  const { body, version } = request;
  const installation = body.installationCreationInfo;
  const now = Date.now();
  const issued = await issueActivation({
    version,
    now,
    principal: request.principal,
    country: body.country ?? HOME_COUNTRY,
    corporateId: body.corporateId,
    // Apps written for srv4pos name the company in the registration's geolocation (docs/compatibility.md).
    companyName:
      body.companyName ?? ('registrationGeolocation' in body ? body.registrationGeolocation?.companyName : null) ?? null,
    cashRegisterName: body.cashRegisterName,
    features: mergeFeatures([], body.features ?? [], version),
    ...advancedPeriod(body, now),
    contact: body.contactInfo ?? null,
    comment: body.comment ?? null,
    applicationPackage: body.applicationPackage ?? null,
    productionNumber: body.productionNumber ?? null,
    newInstallation: installation ?? null,
    connectionCode: body.connectionCode ?? null,
    controlUnit: {
      serial: body.controlUnitSerial ?? null,
      location: body.controlUnitLocation ?? null,
      geolocation: body.controlUnitGeolocation ?? null,
    },
    status: advancedOrderStatus(request.principal),
  });
  const reply = {
    apiKey: issued.apiKey,
    productionNumber: issued.activation.productionNumber,
    activationId: issued.activation.id,
  };
  return { status: 201, body: version === 33 ? { ...reply, ...sellerContact(issued.seller) } : reply };
}

/** The last millisecond of 9999 (UTC): the end of an open-ended period, a Date every Java and .NET client can hold. */
export const OPEN_END = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The period of an activations-advanced order. A null or absent `validFrom` is the moment of issue; a null or absent
 * `validTo` is open-ended (`OPEN_END`): register apps written for srv4pos leave both null and expect an activation that
 * runs until an administrator closes it. A period given is taken as it is (and checked by `issueActivation`).
 */
export function advancedPeriod(
  body: Pick<ActivationAdvancedBody, 'validFrom' | 'validTo'>,
  now: number,
): { validFrom: number; validTo: number } {
  return { validFrom: body.validFrom ?? now, validTo: body.validTo ?? OPEN_END };
}

/**
 * The hyper admin's order is ACTIVE at once; a software-vendor user's follows its application's
 * autoActivationCondition (AUTO), as a register's own order does (spec 4.2's ACTIVATION_STILL_ISSUED).
 */
export const advancedOrderStatus = (principal: Principal | undefined): ActivationPlan['status'] =>
  isHyperAdmin(principal) ? 'ACTIVE' : 'AUTO';

/** The activation, if the caller administers its application (hyper admin, or that application's vendor). */
async function administered(principal: Principal | undefined, id: number): Promise<Activation> {
  const activation = await findActivation(id);
  if (isHyperAdmin(principal)) return activation;
  const app = activation.applicationPackage
    ? await readItem(applicationKeys.application(activation.applicationPackage))
    : undefined;
  if (app === undefined || app.softwareVendor !== vendorOf(principal)) throw insufficientRights();
  return activation;
}

const idOf = (request: ApiRequest<unknown, 'activationId'>) => Number(request.params.activationId);

/** GET /activations/{activationId}: the admin view of spec 2.3 (v15 lists it; v26 and v33 have it too). */
export async function getActivation(request: ApiRequest<unknown, 'activationId'>): Promise<Reply> {
  const { version } = request;
  const activation = await administered(request.principal, idOf(request));
  const [unit, registration, seller, installation] = await Promise.all([
    activation.controlUnitSerial ? readItem(controlUnitKeys.unit(activation.controlUnitSerial)) : undefined,
    readItem(registrationKeys.registration(activation.sellerId, activation.cashRegisterName)),
    readItem(sellerKeys.profile(activation.sellerId)),
    activation.productionNumber ? readItem(installationKey(activation.productionNumber)) : undefined,
  ]);
  const registrationAdvancedInfo = {
    // A deleted registration is gone for its seller (its name may be registered again): the activation names none.
    registrationInfo: registration && !registration.deleted ? registrationInfo(registration, version, installation) : null,
    sellerInfo: seller ? { name: seller.name ?? null, country: seller.country, corporateId: seller.corporateId } : null,
    installationAdvancedInfo: installation
      ? { ...installationInfo(installation, version), buildInfoes: buildInfoes(installation) }
      : null,
  };
  return ok({
    activationInfo: activationInfo(activation, version, unit),
    controlUnitInfo: unit ? controlUnitInfo(unit, version) : null,
    registrationAdvancedInfo,
    issued: activation.issued,
    registrationAdvanced: registrationAdvancedInfo,
  });
}

/**
 * PUT /activations/{activationId}: an administrator changes the period, features, contact or
 * comment. The status moves only through `/status` (409 ACTIVATION_STATUS_IS_NOT_MODIFIABLE_BY_PUT).
 */
export async function updateActivation(request: ApiRequest<ActivationUpdateBody, 'activationId'>): Promise<Reply> {
  const activation = await administered(request.principal, idOf(request));
  await saveActivation(activation, updatedActivation(activation, request.body, request.version, Date.now()));
  return noContent();
}

/**
 * The activation after an administrator's PUT: the period, the features the version shows, contact
 * and comment (kept when the body leaves them out). Refused: another status (409), a closed
 * activation (422), a period that ends before it starts.
 */
export function updatedActivation(
  activation: Activation,
  body: ActivationUpdateBody,
  version: ApiVersion,
  now: number,
): Activation {
  if (body.status && body.status !== activation.status) {
    throw inconsistentData('ACTIVATION_STATUS_IS_NOT_MODIFIABLE_BY_PUT', 'Change the status with PUT /activations/{id}/status');
  }
  if (activation.status === 'CLOSED') throw unprocessable('ACTIVATION_IS_CLOSED_ALREADY', 'A closed activation cannot change');
  if (body.validTo <= body.validFrom)
    throw refusal(version, 'VALID_FROM_AND_VALID_TO_INCONSISTENCY', 'validTo must be after validFrom');
  return {
    ...activation,
    validFrom: body.validFrom,
    validTo: body.validTo,
    features: body.features ? mergeFeatures(activation.features, body.features, version) : activation.features,
    contact: body.contactInfo === undefined ? activation.contact : body.contactInfo,
    comment: body.comment === undefined ? activation.comment : body.comment,
    issued: nextIssued(activation, now),
  };
}

const ALREADY = {
  ACTIVE: 'ACTIVATION_IS_ACTIVE_ALREADY',
  WORKING: 'ACTIVATION_IS_WORKING_ALREADY',
  CLOSED: 'ACTIVATION_IS_CLOSED_ALREADY',
} as const;

/**
 * PUT /activations/{activationId}/status (docs/conventions.md §10). The API key's copy changes in the
 * same transaction, so a closed key is refused on its next call.
 */
export async function changeStatus(request: ApiRequest<ActivationStatusChangeBody, 'activationId'>): Promise<Reply> {
  const activation = await administered(request.principal, idOf(request));
  const status = nextActivationStatus(activation.status, request.body.status);
  await saveActivation(activation, { ...activation, status, issued: nextIssued(activation, Date.now()) });
  return noContent();
}

/**
 * Where an administrator may move an activation: ISSUED -> ACTIVE; any open state -> CLOSED, which is
 * final. A move to where it is (or to ACTIVE once WORKING) is 422 with the current state's code.
 */
export function nextActivationStatus(
  current: ActivationStatus,
  wanted: ActivationStatusChangeBody['status'],
): ActivationStatusChangeBody['status'] {
  if (current === 'CLOSED' || current === wanted || (wanted === 'ACTIVE' && current === 'WORKING')) {
    throw unprocessable(ALREADY[current], `The activation is ${current} already`);
  }
  return wanted;
}
