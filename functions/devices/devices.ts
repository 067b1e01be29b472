import { canAccessSeller, insufficientRights, isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { readItem, readItems, readPartition } from '#shared/db/reads.ts';
import { type StoredInstallation, installationKey } from '#shared/domain/installations.ts';
import { type DeviceEntry, applicationKeys, deviceKeys } from '#shared/domain/records.ts';
import { requireLiveSeller, sellerReferenceMissing } from '#shared/domain/seller.ts';
import { applicationDescriptionInfo, buildInfoes, installationInfo, registersOn } from '#shared/domain/views.ts';
import { notFound } from '#shared/errors.ts';
import { parseSellerId } from '#shared/http/params.ts';
import { pageParams } from '#shared/http/query.ts';
import { ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import type { ApiVersion } from '#shared/versions.ts';

/**
 * The devices the caller may see: with `seller`, that seller's (any caller with access to it);
 * otherwise the hyper admin sees all, a vendor user those running its applications.
 */
async function visibleDevices(principal: Principal | undefined, seller: string | null): Promise<DeviceEntry[]> {
  if (seller !== null) {
    parseSellerId(seller, 'seller');
    if (!(await canAccessSeller(principal, seller))) throw insufficientRights();
    await requireLiveSeller(seller, sellerReferenceMissing);
    return readPartition(deviceKeys.directory({ sellerId: seller }));
  }
  if (isHyperAdmin(principal)) return readPartition(deviceKeys.directory());
  const vendor = vendorOf(principal);
  if (vendor === undefined) throw insufficientRights();
  return readPartition(deviceKeys.directory({ vendor }));
}

/** PAGE over device entries, by device id; `like` searches the id. */
function page(entries: DeviceEntry[], query: URLSearchParams): DeviceEntry[] {
  const { firstResult, maxResults, like } = pageParams(query);
  const needle = like?.toLowerCase();
  return entries
    .filter((entry) => needle === undefined || entry.deviceId.toLowerCase().includes(needle))
    .sort((a, b) => a.deviceId.localeCompare(b.deviceId))
    .slice(firstResult, firstResult + maxResults);
}

/** GET /devices (v26, v33). */
export async function listDevices(request: ApiRequest): Promise<Reply> {
  const entries = page(await visibleDevices(request.principal, request.query.get('seller')), request.query);
  return ok(entries.map((entry) => ({ deviceId: entry.deviceId })));
}

/** The latest installation of each device with its application and the registers on it. */
async function overviews(entries: readonly DeviceEntry[], version: ApiVersion) {
  // Seller-scoped entries name only the device; its latest installation is in the global entry.
  const unnamed = entries.filter((entry) => entry.latestProductionNumber === undefined);
  const globals = await readItems(unnamed.map((entry) => deviceKeys.directoryEntry(entry.deviceId)));
  const latest = new Map<string, string>();
  for (const entry of [...entries, ...globals]) {
    if (entry.latestProductionNumber) latest.set(entry.deviceId, entry.latestProductionNumber);
  }
  const installations = await readItems([...latest.values()].map((pn) => installationKey(pn)));
  const byNumber = new Map(installations.map((installation) => [installation.productionNumber, installation]));
  const apps = await readItems(
    [...new Set(installations.map((installation) => installation.applicationPackage))].map((p) => applicationKeys.application(p)),
  );
  const appsByPackage = new Map(apps.map((app) => [app.applicationPackage, app]));
  return entries.map((entry) => {
    const installation = byNumber.get(latest.get(entry.deviceId) ?? '');
    const app = installation ? appsByPackage.get(installation.applicationPackage) : undefined;
    return {
      deviceId: entry.deviceId,
      latestInstallationInfo: installation ? installationInfo(installation, version) : null,
      deviceInfo: { deviceId: entry.deviceId },
      applicationDescriptionInfo: app ? applicationDescriptionInfo(app) : null,
      buildInfoes: installation ? buildInfoes(installation) : [],
      registrationOverviewInfoes: installation ? registersOn(installation) : [],
    };
  });
}

/** GET /devices-overview (v26, v33; PAGE plus `seller`). */
export async function listDeviceOverviews(request: ApiRequest): Promise<Reply> {
  const entries = page(await visibleDevices(request.principal, request.query.get('seller')), request.query);
  return ok(await overviews(entries, request.version));
}

/** GET /devices-overview/{deviceId} (v26, v33): one device the caller may see, or 404. */
export async function getDeviceOverview(request: ApiRequest<unknown, 'deviceId'>): Promise<Reply> {
  const deviceId = request.params.deviceId;
  const vendor = vendorOf(request.principal);
  const entry = await readItem(
    isHyperAdmin(request.principal)
      ? deviceKeys.directoryEntry(deviceId)
      : deviceKeys.directoryEntry(deviceId, { vendor: vendor ?? -1 }),
  );
  if (!entry) throw notFound(`No device ${deviceId}`);
  const [overview] = await overviews([entry], request.version);
  return ok(overview);
}

/**
 * GET /installations/{productionNumber}/build-infoes: the hyper admin, the application's vendor,
 * and whoever may access a seller registered on the installation (its registers, their users).
 */
export async function listBuildInfoes(request: ApiRequest<unknown, 'productionNumber'>): Promise<Reply> {
  const productionNumber = request.params.productionNumber;
  const installation = await readItem(installationKey(productionNumber));
  if (!installation) throw notFound(`No installation ${productionNumber}`);
  if (!(await mayRead(request.principal, installation))) throw insufficientRights();
  return ok(buildInfoes(installation));
}

async function mayRead(principal: Principal | undefined, installation: StoredInstallation): Promise<boolean> {
  if (isHyperAdmin(principal)) return true;
  const vendor = vendorOf(principal);
  if (vendor !== undefined) {
    const app = await readItem(applicationKeys.application(installation.applicationPackage));
    if (app?.softwareVendor === vendor) return true;
  }
  for (const sellerId of Object.keys(installation.registrations)) {
    if (await canAccessSeller(principal, sellerId)) return true;
  }
  return false;
}
