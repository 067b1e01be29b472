/**
 * GET /{sellerId}/stats (spec 4.4, 2.3 seller stats) as a client observes it: each live register's
 * latest activation counted by the UTC day of its validTo, closed ones and deleted registers left out.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS } from '#shared/versions.ts';
import { type CallOptions, call, expectError, newSeller, uniqueCorporateId, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId, userOf } from '../support/identity.ts';

const deviceId = () => randomUUID().replace(/-/g, '').slice(0, 16);
const key = (apiKey: string): CallOptions => ({ as: { apiKey } });
const statsOf = (api: number, sellerId: string, as?: CallOptions) => call('GET', `/v${api}/${sellerId}/stats`, as);

const stats = (fields: { hasLocalControlUnits?: boolean; expiredActivations?: number; expireSoonActivations?: number }) => ({
  hasLocalControlUnits: false,
  expiredActivations: 0,
  expireSoonActivations: 0,
  hasTables: false,
  hasAdditives: false,
  hasAdditiveClasses: false,
  ...fields,
});

/** Works with a control unit (DEVICE with a serial, or REMOTE without one). */
let app: { applicationPackage: string };

interface Activated {
  apiKey: string;
  activationId: number;
}

/** A register of the seller on a new installation, its latest activation ending at `validTo`. */
async function register(
  corporateId: string,
  cashRegisterName: string,
  validTo: number,
  unit: 'DEVICE' | 'REMOTE' = 'REMOTE',
): Promise<Activated> {
  const answer = await v(33).post('/activations-advanced', {
    country: 'SE',
    corporateId,
    companyName: 'Statistikbutiken',
    cashRegisterName,
    features: [],
    // Begun already, so the register's key works while its period lasts.
    validFrom: Math.min(Date.now(), validTo) - 30 * DAY,
    validTo,
    applicationPackage: app.applicationPackage,
    controlUnitLocation: unit,
    ...(unit === 'DEVICE'
      ? { controlUnitSerial: `CU${randomUUID().slice(0, 10)}`, controlUnitGeolocation: { city: 'Lund', postalCode: '222 22' } }
      : {}),
    installationCreationInfo: { deviceId: deviceId() },
  });
  if (answer.status !== 201) throw new Error(`not activated: ${answer.status} ${answer.text}`);
  return answer.body as Activated;
}

const close = async (activationId: number) => {
  const answer = await v(33).put(`/activations/${activationId}/status`, { status: 'CLOSED' });
  if (answer.status !== 204) throw new Error(`not closed: ${answer.status} ${answer.text}`);
};

/** Expired, expiring, far away, closed, deleted and renewed registers, all REMOTE. */
let busy: { sellerId: string; apiKey: string };
/** One register with a control unit on the device. */
let local: { sellerId: string; activationId: number; apiKey: string };

beforeAll(async () => {
  const vendor = await newVendor('Statistik AB');
  app = await newApp(vendor, { controlUnitRequired: true, corporateIdValidationMethod: 'NONE' });
  const now = Date.now();

  const corporateId = swedishCorporateId();
  await register(corporateId, 'Utgången', now - DAY);
  const soon = await register(corporateId, 'Snart', now + 10 * DAY);
  await register(corporateId, 'Långt bort', now + 365 * DAY);
  // Closed while it would have counted as expired: nothing to renew.
  await close((await register(corporateId, 'Stängd', now - DAY)).activationId);
  // Deleted while it would have counted as expiring soon.
  await register(corporateId, 'Borttagen', now + 10 * DAY);
  const deleted = await v(33).del(`/SE${corporateId}/registrations/Borttagen`);
  if (deleted.status !== 204) throw new Error(`not deleted: ${deleted.status} ${deleted.text}`);
  // Expired, then renewed for a year (body 5): only the latest activation counts.
  await register(corporateId, 'Förnyad', now - DAY);
  const renewed = await v(33).post('/activations-advanced', {
    country: 'SE',
    corporateId,
    cashRegisterName: 'Förnyad',
    features: [],
    validFrom: now,
    validTo: now + 365 * DAY,
    controlUnitLocation: 'REMOTE',
  });
  if (renewed.status !== 201) throw new Error(`not renewed: ${renewed.status} ${renewed.text}`);
  busy = { sellerId: `SE${corporateId}`, apiKey: soon.apiKey };

  const localId = swedishCorporateId();
  const unit = await register(localId, 'Kassa 1', now + 365 * DAY, 'DEVICE');
  local = { sellerId: `SE${localId}`, ...unit };
});

describe.each(API_VERSIONS)('GET /v%i/{sellerId}/stats', (api) => {
  it('a seller without registers: nothing expired or expiring, no local control units', async () => {
    const sellerId = await newSeller();
    const answer = await statsOf(api, sellerId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(answer.body).toEqual(stats({}));
  });

  it("counts each live register's latest activation: yesterday expired, in 10 days soon; a year away, closed and deleted do not count", async () => {
    expect((await statsOf(api, busy.sellerId)).body).toEqual(stats({ expiredActivations: 1, expireSoonActivations: 1 }));
  });

  it("the seller's own register and a connected user read it", async () => {
    const expected = stats({ expiredActivations: 1, expireSoonActivations: 1 });
    const connected = await userOf('REGULAR_USER', null, [busy.sellerId]);
    expect((await statsOf(api, busy.sellerId, connected)).body).toEqual(expected);
    expect((await statsOf(api, busy.sellerId, key(busy.apiKey))).body).toEqual(expected);
  });

  it('hasLocalControlUnits: a control unit on the device, not a REMOTE one', async () => {
    expect((await statsOf(api, local.sellerId)).body).toEqual(stats({ hasLocalControlUnits: true }));
    expect((await statsOf(api, busy.sellerId)).body).toMatchObject({ hasLocalControlUnits: false });
  });

  it('an unknown or deleted seller is 404 NotFound', async () => {
    expectError(await statsOf(api, `SE${uniqueCorporateId()}`), 404, 'NotFound');
    const sellerId = await newSeller();
    expect((await v(33).del(`/sellers/${sellerId}`)).status).toBe(204);
    expectError(await statsOf(api, sellerId), 404, 'NotFound');
  });

  it("another seller's register and a user of another seller are 403 INSUFFICIENT_ACCESS_RIGHTS; no credentials 401", async () => {
    const stranger = await userOf('REGULAR_USER', null, [local.sellerId]);
    expectError(await statsOf(api, busy.sellerId, key(local.apiKey)), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(await statsOf(api, busy.sellerId, stranger), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expect((await statsOf(api, busy.sellerId, { as: 'none' })).status).toBe(401);
  });
});

it('a closed DEVICE register no longer counts as a local control unit (the last test: it closes the register)', async () => {
  await close(local.activationId);
  for (const api of API_VERSIONS) expect((await statsOf(api, local.sellerId)).body).toEqual(stats({}));
});
