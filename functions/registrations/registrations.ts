import { insufficientRights } from '#shared/auth/access.ts';
import { type Item, readItem, readItems, readPartition } from '#shared/db/reads.ts';
import { type Step, transact } from '#shared/db/transact.ts';
import { nextIssued, saveActivation } from '#shared/domain/activations.ts';
import { type StoredInstallation, installationKey, unregisterFromInstallation } from '#shared/domain/installations.ts';
import { markRegistrationDeleted } from '#shared/domain/registrations.ts';
import {
  type Activation,
  type ApplicationDescription,
  type Registration,
  activationKeys,
  applicationKeys,
  controlUnitKeys,
  registrationKeys,
} from '#shared/domain/records.ts';
import {
  activationInfo,
  applicationDescriptionInfo,
  buildInfoes,
  installationInfo,
  registersOn,
  registrationInfo,
} from '#shared/domain/views.ts';
import { type ApiError, notFound, referenceNotFound } from '#shared/errors.ts';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { boolParam, listParams } from '#shared/http/query.ts';
import { pageOf } from '#shared/db/paging.ts';
import { noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type Seller, sellerKeys } from '#shared/domain/seller.ts';
import { registerKeys } from '#shared/fiscal/ledger.ts';

export const ORDER_FIELDS = ['id', 'cashRegisterName'] as const;

/** An activation is in use while it is ACTIVE or WORKING within its period. */
const inUse = (activation: Activation | undefined, now: number) =>
  activation !== undefined &&
  (activation.status === 'ACTIVE' || activation.status === 'WORKING') &&
  activation.validFrom <= now &&
  now <= activation.validTo;

/**
 * The seller's live registrations, paged with LIST parameters; `activeOnly` keeps those whose latest
 * activation is in use. The latest activations are read only when `activeOnly` or the caller needs them.
 */
async function registrationsOf(
  request: ApiRequest<unknown, 'sellerId'>,
  withActivations: boolean,
): Promise<{ page: Item<Registration>[]; latest: Map<number, Activation>; stored: Item<Registration>[] }> {
  const sellerId = request.params.sellerId;
  // v15 has no orderBy/orderDesc: LIST parameters there are simply absent.
  const query = listParams(request.query, ORDER_FIELDS);
  const activeOnly = boolParam('activeOnly', request.query.get('activeOnly'), false);
  const stored = await readPartition(registrationKeys.registrations(sellerId));
  const all = stored.filter((registration) => !registration.deleted);
  const latest = activeOnly || withActivations ? await latestActivations(all) : new Map<number, Activation>();
  const now = Date.now();
  const kept = activeOnly ? all.filter((registration) => inUse(latest.get(registration.id), now)) : all;
  const page = pageOf(kept, query, {
    searched: (registration) => [registration.cashRegisterName, registration.productionNumber],
    field: (registration, field) => registration[field],
    tiebreak: (registration) => registration.cashRegisterName,
  });
  return { page, latest, stored };
}

async function latestActivations(registrations: readonly Registration[]): Promise<Map<number, Activation>> {
  const ids = registrations.flatMap((registration) => registration.activationIds.slice(0, 1));
  const activations = await readItems(ids.map((id) => activationKeys.activation(id)));
  const byId = new Map(activations.map((activation) => [activation.id, activation]));
  return new Map(
    registrations.flatMap((registration) => {
      const activation = byId.get(registration.activationIds[0] ?? -1);
      return activation ? [[registration.id, activation] as const] : [];
    }),
  );
}

const installationsOf = async (registrations: readonly Registration[]) =>
  new Map(
    (
      await readItems(
        registrations.flatMap((registration) =>
          registration.productionNumber ? [installationKey(registration.productionNumber)] : [],
        ),
      )
    ).map((installation) => [installation.productionNumber, installation]),
  );

/** GET /{sellerId}/registrations: spec 2.3 Registration per version. */
export async function listRegistrations(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const { page } = await registrationsOf(request, false);
  const installations = request.version === 15 ? await installationsOf(page) : new Map<string, StoredInstallation>();
  return ok(
    page.map((registration) =>
      registrationInfo(registration, request.version, installations.get(registration.productionNumber ?? '')),
    ),
  );
}

/** The seller overview (spec 2.3 SellerOverview) of the registers read: how many are in use, what they took. */
const sellerOverview = (seller: Seller | undefined, active: number, turnover: number) => ({
  name: seller?.name ?? null,
  country: seller?.country ?? null,
  corporateId: seller?.corporateId ?? null,
  currency: seller?.currency ?? null,
  countActiveCashRegisters: active,
  turnover,
});

/**
 * What the registers took since their first days: each one's grand totals (sold brutto less refunds, as its Z
 * reports carry them; training receipts never count), summed. A deleted registration's register counts: its sales
 * were the seller's.
 */
async function turnoverOf(registrations: readonly Registration[]): Promise<number> {
  const counters = await readItems(
    registrations.map((registration) => registerKeys.counter(registration.sellerId, registration.cashRegisterName)),
  );
  return counters.reduce((sum, { ledger }) => sum + (ledger ? ledger.grand.sales - ledger.grand.refunds : 0), 0);
}

/** GET /{sellerId}/registrations-advanced (v26, v33): each registration with its seller, installation, device and application. */
export async function listRegistrationsAdvanced(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const { version } = request;
  const { page, latest, stored } = await registrationsOf(request, true);
  const now = Date.now();
  const [installations, seller, apps, turnover] = await Promise.all([
    installationsOf(page),
    readItem(sellerKeys.profile(request.params.sellerId)),
    readItems(
      [...new Set(page.flatMap((r) => (r.applicationPackage ? [r.applicationPackage] : [])))].map((p) =>
        applicationKeys.application(p),
      ),
    ),
    turnoverOf(stored),
  ]);
  const appsByPackage = new Map(apps.map((app) => [app.applicationPackage, app]));
  const active = [...latest.values()].filter((activation) => inUse(activation, now)).length;
  return ok(
    page.map((registration) => {
      const installation = installations.get(registration.productionNumber ?? '');
      return {
        ...registrationInfo(registration, version, installation),
        sellerInfo: sellerOverview(seller, active, turnover),
        installationInfo: installation ? installationInfo(installation, version) : null,
        deviceInfo: installation ? { deviceId: installation.deviceId } : null,
        applicationDescriptionInfo: applicationInfoOf(appsByPackage.get(registration.applicationPackage ?? '')),
        buildInfoes: installation ? buildInfoes(installation) : null,
        registrationOverviewInfoes: installation ? registersOn(installation) : [],
      };
    }),
  );
}

const applicationInfoOf = (app: ApplicationDescription | undefined) => (app ? applicationDescriptionInfo(app) : null);

/** The live registration named by the path, or 404 (NotFound, or ReferenceNotFound where the spec says so). */
async function findRegistration(
  request: ApiRequest<unknown, 'cash' | 'sellerId'>,
  missing: (message: string) => ApiError = notFound,
): Promise<Item<Registration>> {
  const { sellerId, cash } = request.params;
  const registration = await readItem(registrationKeys.registration(sellerId, cash));
  if (!registration || registration.deleted) throw missing(`Register ${cash} is not registered for seller ${sellerId}`);
  return registration;
}

/** GET /{sellerId}/registrations/{cash} (v26, v33): the registration detail, with its ETag. */
export async function getRegistration(request: ApiRequest<unknown, 'cash' | 'sellerId'>): Promise<Reply> {
  const { version } = request;
  const registration = await findRegistration(request);
  if (unchangedSince(request.headers, registration.revision)) return notModified(registration.revision);
  const [seller, installation, activations, app, turnover] = await Promise.all([
    readItem(sellerKeys.profile(registration.sellerId)),
    registration.productionNumber ? readItem(installationKey(registration.productionNumber)) : undefined,
    readItems(registration.activationIds.map((id) => activationKeys.activation(id))),
    registration.applicationPackage ? readItem(applicationKeys.application(registration.applicationPackage)) : undefined,
    turnoverOf([registration]),
  ]);
  const [latest, ...earlier] = activations;
  const unit = latest?.controlUnitSerial ? await readItem(controlUnitKeys.unit(latest.controlUnitSerial)) : undefined;
  const now = Date.now();
  return ok(
    {
      cashRegisterName: registration.cashRegisterName,
      sellerOverviewInfo: sellerOverview(seller, inUse(latest, now) ? 1 : 0, turnover),
      applicationName: app?.name ?? null,
      installationInfo: installation ? installationInfo(installation, version) : null,
      deviceInfo: installation ? { deviceId: installation.deviceId } : null,
      buildInfoes: installation ? buildInfoes(installation) : null,
      sellersAtSameInstallation: installation ? registersOn(installation) : [],
      controlUnitSerial: latest?.controlUnitSerial ?? null,
      activationInfo: latest ? activationInfo(latest, version, unit) : null,
      activationsAtSameRegistration: earlier.map((activation) => activationInfo(activation, version)),
    },
    registration.revision,
  );
}

/**
 * DELETE /{sellerId}/registrations/{cash} (v26, v33): closes the register's open activations (their
 * keys are refused from the next call) and removes the registration; its sales and days are kept.
 * The name can then be registered again. `If-Match` takes the registration's ETag.
 */
export async function deleteRegistration(request: ApiRequest<unknown, 'cash' | 'sellerId'>): Promise<Reply> {
  // A register may not remove itself; the people who run the shop may.
  if (request.principal?.kind !== 'user') throw insufficientRights();
  const registration = await findRegistration(request);
  checkPreconditions(preconditions(request.headers), registration.revision);
  const activations = await readItems(registration.activationIds.map((id) => activationKeys.activation(id)));
  const now = Date.now();
  for (const activation of activations.filter((a) => a.status !== 'CLOSED')) {
    await saveActivation(activation, { ...activation, status: 'CLOSED', issued: nextIssued(activation, now) });
  }
  const steps: Step[] = [markRegistrationDeleted(registration)];
  if (registration.productionNumber) steps.push(unregisterFromInstallation(registration.productionNumber, registration.sellerId));
  await transact(steps);
  return noContent();
}

/** GET /{sellerId}/registrations/{cash}/version (v26, v33): the register's own data version (its sales and days). */
export async function getRegisterVersion(request: ApiRequest<unknown, 'cash' | 'sellerId'>): Promise<Reply> {
  const registration = await findRegistration(request, (message) => referenceNotFound(message));
  const counter = await readItem(registerKeys.counter(registration.sellerId, registration.cashRegisterName));
  return ok({ version: counter?.ver ?? 0 });
}
