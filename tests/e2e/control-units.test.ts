/**
 * Control-unit administration (docs/conventions.md §23) as clients meet it: the list, a unit, its vendor link,
 * its deletion, its bridge's status and removal; who may do what, and a vendor never seeing another's units.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { put, transact } from '#shared/db/transact.ts';
import { type ControlUnit, controlUnitKeys } from '#shared/domain/records.ts';
import { statusItem, bridgeKeys } from '#shared/kd/protocol.ts';
import { listControlUnit } from '#shared/domain/control-units.ts';
import { type CallOptions, detailOf, expectError, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId, userOf } from '../support/identity.ts';

const api = v(33);
const serial = () => `CU${randomUUID().replace(/-/g, '').slice(0, 14).toUpperCase()}`;
const geolocation = { city: 'Malmö', postalCode: '211 20' };

let vendorA: number;
let vendorB: number;
let appA: { applicationPackage: string };
let appB: { applicationPackage: string };
let asVendorA: CallOptions;
let asVendorB: CallOptions;
let asRegular: CallOptions;

/** An activation of `app` naming `unit` (registered with it when new), by the hyper admin; answers its id. */
async function activateOn(app: { applicationPackage: string }, unit: string): Promise<number> {
  const answer = await api.post('/activations-advanced', {
    country: 'SE',
    corporateId: swedishCorporateId(),
    companyName: 'Butiken AB',
    cashRegisterName: 'Kassa 1',
    features: [],
    validFrom: Date.now() - DAY,
    validTo: Date.now() + 30 * DAY,
    applicationPackage: app.applicationPackage,
    controlUnitSerial: unit,
    controlUnitLocation: 'DEVICE',
    controlUnitGeolocation: geolocation,
    installationCreationInfo: { deviceId: randomUUID().replace(/-/g, '').slice(0, 16), buildInfo: { os: 'Android' } },
  });
  if (answer.status !== 201) throw new Error(`not activated: ${answer.status} ${answer.text}`);
  return (answer.body as { activationId: number }).activationId;
}

/** A unit no activation names (units are otherwise registered only by activations), written as the service keeps it. */
async function unreferencedUnit(softwareVendor: number | null = null): Promise<string> {
  const unit: ControlUnit = {
    id: 900_000_000 + Math.floor(Math.random() * 1e8),
    serial: serial(),
    registrationDate: Date.now(),
    controlUnitLocation: 'DEVICE',
    geolocation,
    softwareVendor,
  };
  await transact([put({ ...controlUnitKeys.unit(unit.serial), ...unit }), ...listControlUnit(unit)]);
  return unit.serial;
}

const serialsOf = (answer: { body: unknown }) => (answer.body as { serial: string }[]).map((unit) => unit.serial);

beforeAll(async () => {
  [vendorA, vendorB] = await Promise.all([newVendor('Kassa A AB'), newVendor('Kassa B AB')]);
  [appA, appB] = await Promise.all([
    newApp(vendorA, { controlUnitRequired: true, autoActivationCondition: 'NEVER' }),
    newApp(vendorB, { controlUnitRequired: true, autoActivationCondition: 'NEVER', productionNumberPrefix: 'KB' }),
  ]);
  [asVendorA, asVendorB, asRegular] = await Promise.all([
    userOf('SOFTWARE_VENDOR', vendorA),
    userOf('SOFTWARE_VENDOR', vendorB),
    userOf('REGULAR_USER'),
  ]);
});

describe('listing and reading control units', () => {
  it('the hyper admin lists every unit; a vendor user only its own vendor’s, in every version', async () => {
    // Prepare
    const [unitA, unitB] = [serial(), serial()];
    await Promise.all([activateOn(appA, unitA), activateOn(appB, unitB)]);

    // Act
    const all = await api.get('/control-units?maxResults=1000');
    const byVersion = await Promise.all(
      ([15, 26, 33] as const).map((version) => v(version).get('/control-units?maxResults=1000', asVendorA)),
    );
    const ofB = await api.get('/control-units?maxResults=1000', asVendorB);

    // Assess
    expect(all.status).toBe(200);
    expect(serialsOf(all)).toEqual(expect.arrayContaining([unitA, unitB]));
    for (const answer of byVersion) {
      expect(answer.status).toBe(200);
      expect(serialsOf(answer)).toContain(unitA);
      expect((answer.body as { softwareVendor: number }[]).every((unit) => unit.softwareVendor === vendorA)).toBe(true);
    }
    expect(serialsOf(ofB)).toContain(unitB);
    expect(serialsOf(ofB)).not.toContain(unitA);
  });

  it('takes the LIST parameters: like on the serial, orderBy serial descending, paging', async () => {
    // Prepare
    const stem = `LK${randomUUID().slice(0, 6).toUpperCase()}`;
    const units = [`${stem}A`, `${stem}B`, `${stem}C`];
    for (const unit of units) await activateOn(appA, unit);

    // Act
    const page = await api.get(
      `/control-units?like=${stem.toLowerCase()}&orderBy=serial&orderDesc=true&firstResult=1&maxResults=2`,
    );
    const badOrder = await api.get('/control-units?orderBy=password');

    // Assess
    expect(serialsOf(page)).toEqual([`${stem}B`, `${stem}A`]);
    expectError(badOrder, 400, 'TypeMismatch');
  });

  it('reads a unit as controlUnitInfo; another vendor’s unit or an unknown one is 404, a bad serial 400', async () => {
    // Prepare
    const unit = serial();
    await activateOn(appA, unit);

    // Act
    const byAdmin = await api.get(`/control-units/${unit}`);
    const byOwner = await api.get(`/control-units/${unit}`, asVendorA);
    const byOther = await api.get(`/control-units/${unit}`, asVendorB);
    const unknown = await api.get(`/control-units/${serial()}`);
    const tooLong = await api.get(`/control-units/${'X'.repeat(21)}`);

    // Assess
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual({
      id: expect.any(Number),
      registrationDate: expect.any(Number),
      controlUnitLocation: 'DEVICE',
      serial: unit,
      geolocation,
      softwareVendor: vendorA,
    });
    expect(byOwner.body).toEqual(byAdmin.body);
    expectError(byOther, 404, 'NotFound');
    expectError(unknown, 404, 'NotFound');
    expectError(tooLong, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_IN_RANGE');
  });

  it('refuses a regular user (403 INSUFFICIENT_ACCESS_RIGHTS) and no credentials (401) on every route', async () => {
    // Prepare
    const unit = serial();
    await activateOn(appA, unit);
    const calls = [
      (as: CallOptions) => api.get('/control-units', as),
      (as: CallOptions) => api.get(`/control-units/${unit}`, as),
      (as: CallOptions) => api.del(`/control-units/${unit}`, as),
      (as: CallOptions) => api.put(`/control-units/${unit}/software-vendor/${vendorB}`, undefined, as),
      (as: CallOptions) => api.del(`/control-units/${unit}/software-vendor`, as),
      (as: CallOptions) => api.get(`/control-units/${unit}/bridge`, as),
      (as: CallOptions) => api.del(`/control-units/${unit}/bridge`, as),
    ];

    // Act
    const regular = await Promise.all(calls.map((send) => send(asRegular)));
    const anonymous = await Promise.all(calls.map((send) => send({ as: 'none' })));

    // Assess
    for (const answer of regular) expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    for (const answer of anonymous) expectError(answer, 401, 'Unauthorized');
    expect((await api.get(`/control-units/${unit}`)).body).toMatchObject({ softwareVendor: vendorA });
  });
});

describe('changing control units is the hyper admin’s', () => {
  it('a vendor user may not delete, connect, disconnect or remove a bridge, not even of its own unit (403 CU_ARE_NOT_MANAGEABLE_BY_SVA)', async () => {
    // Prepare
    const unit = serial();
    await activateOn(appA, unit);

    // Act
    const answers = await Promise.all([
      api.del(`/control-units/${unit}`, asVendorA),
      api.put(`/control-units/${unit}/software-vendor/${vendorA}`, undefined, asVendorA),
      api.del(`/control-units/${unit}/software-vendor`, asVendorA),
      api.del(`/control-units/${unit}/bridge`, asVendorA),
    ]);

    // Assess
    for (const answer of answers) expectError(answer, 403, 'Forbidden', 'CU_ARE_NOT_MANAGEABLE_BY_SVA');
    expect((await api.get(`/control-units/${unit}`)).body).toMatchObject({ softwareVendor: vendorA });
  });

  it('deletes a unit no activation names (204; then 404), never one an activation names (422 CU_HAS_REFERENCED_DATA)', async () => {
    // Prepare
    const named = serial();
    await activateOn(appA, named);
    const free = await unreferencedUnit();

    // Act
    const refused = await api.del(`/control-units/${named}`);
    const deleted = await api.del(`/control-units/${free}`);
    const again = await api.del(`/control-units/${free}`);

    // Assess
    expectError(refused, 422, 'UnprocessableEntity', 'CU_HAS_REFERENCED_DATA');
    expect(deleted.status).toBe(204);
    expectError(again, 404, 'NotFound');
    expectError(await api.get(`/control-units/${free}`), 404, 'NotFound');
    expect(serialsOf(await api.get('/control-units?maxResults=1000'))).not.toContain(free);
    expect((await api.get(`/control-units/${named}`)).status).toBe(200);
  });

  it('disconnects a unit from its vendor and connects it to another; each move twice is 422; the vendors’ lists follow', async () => {
    // Prepare
    const unit = serial();
    await activateOn(appA, unit);

    // Act
    const disconnected = await api.del(`/control-units/${unit}/software-vendor`);
    const disconnectedAgain = await api.del(`/control-units/${unit}/software-vendor`);
    const afterDisconnect = await api.get(`/control-units/${unit}`);
    const listedForA = serialsOf(await api.get('/control-units?maxResults=1000', asVendorA));
    const connected = await api.put(`/control-units/${unit}/software-vendor/${vendorB}`);
    const connectedAgain = await api.put(`/control-units/${unit}/software-vendor/${vendorA}`);

    // Assess
    expect(disconnected.status).toBe(204);
    expectError(disconnectedAgain, 422, 'UnprocessableEntity', 'CONTROL_UNIT_IS_DISCONNECTED_ALREADY');
    expect(afterDisconnect.body).toMatchObject({ serial: unit, softwareVendor: null });
    expect(listedForA).not.toContain(unit);
    expect(connected.status).toBe(204);
    expectError(connectedAgain, 422, 'UnprocessableEntity', 'CONTROL_UNIT_IS_CONNECTED_ALREADY');
    expect((await api.get(`/control-units/${unit}`, asVendorB)).body).toMatchObject({ softwareVendor: vendorB });
    expect(serialsOf(await api.get('/control-units?maxResults=1000', asVendorB))).toContain(unit);
    expectError(await api.get(`/control-units/${unit}`, asVendorA), 404, 'NotFound');
  });

  it('connecting to an unknown vendor is 404 ReferenceNotFound; a connected unit keeps its vendor from being deleted', async () => {
    // Prepare
    const unit = await unreferencedUnit();
    const vendorC = await newVendor('Kassa C AB');

    // Act
    const unknownVendor = await api.put(`/control-units/${unit}/software-vendor/999999999`);
    const unknownUnit = await api.put(`/control-units/${serial()}/software-vendor/${vendorC}`);
    const connected = await api.put(`/control-units/${unit}/software-vendor/${vendorC}`);
    const vendorKept = await api.del(`/software-vendors/${vendorC}`);
    const disconnected = await api.del(`/control-units/${unit}/software-vendor`);
    const vendorDeleted = await api.del(`/software-vendors/${vendorC}`);

    // Assess
    expectError(unknownVendor, 404, 'ReferenceNotFound');
    expectError(unknownUnit, 404, 'NotFound');
    expect(connected.status).toBe(204);
    expectError(vendorKept, 422, 'UnprocessableEntity', 'SOFTWARE_VENDOR_HAS_REFERENCED_DATA');
    expect(disconnected.status).toBe(204);
    expect(vendorDeleted.status).toBe(204);
  });
});

describe('a unit’s bridge', () => {
  it('shows not provisioned, then provisioned, last seen, online and its version as the records say', async () => {
    // Prepare
    const unit = serial();
    await activateOn(appA, unit);
    const before = await api.get(`/control-units/${unit}/bridge`, asVendorA);
    await transact([
      put({ ...bridgeKeys.bridge(unit), serial: unit, thingName: `cu-${unit}`, provisioned: 1_700_000_000_000 }),
      put(statusItem({ serial: unit, online: true, bridgeVersion: '1.2.3', at: 1_700_000_100_000 })),
    ]);

    // Act
    const after = await api.get(`/control-units/${unit}/bridge`, asVendorA);
    const byOther = await api.get(`/control-units/${unit}/bridge`, asVendorB);

    // Assess
    expect(before.body).toEqual({
      serial: unit,
      thingName: `cu-${unit}`,
      provisioned: false,
      provisionedAt: null,
      lastSeen: null,
      online: false,
      bridgeVersion: null,
    });
    expect(after.body).toEqual({
      serial: unit,
      thingName: `cu-${unit}`,
      provisioned: true,
      provisionedAt: 1_700_000_000_000,
      lastSeen: 1_700_000_100_000,
      online: true,
      bridgeVersion: '1.2.3',
    });
    expectError(byOther, 404, 'NotFound');
  });

  it('the hyper admin sees a bridge provisioned before any activation named its unit; an unknown serial is 404', async () => {
    // Prepare
    const unit = serial();
    await transact([put({ ...bridgeKeys.bridge(unit), serial: unit, thingName: `cu-${unit}`, provisioned: 1_700_000_000_000 })]);

    // Act
    const byAdmin = await api.get(`/control-units/${unit}/bridge`);
    const byVendor = await api.get(`/control-units/${unit}/bridge`, asVendorA);
    const unknown = await api.get(`/control-units/${serial()}/bridge`);

    // Assess
    expect(byAdmin.body).toMatchObject({ provisioned: true, lastSeen: null, online: false });
    expectError(byVendor, 404, 'NotFound');
    expectError(unknown, 404, 'NotFound');
  });

  it('is not removed while the unit serves an activation that is not closed (409 SERVER_CANT_BE_REMOVED); after closing, it is', async () => {
    // Prepare
    const unit = serial();
    const activationId = await activateOn(appA, unit);
    await transact([
      put({ ...bridgeKeys.bridge(unit), serial: unit, thingName: `cu-${unit}`, provisioned: 1_700_000_000_000 }),
      put(statusItem({ serial: unit, online: false, bridgeVersion: '1.2.3', at: 1_700_000_100_000 })),
    ]);

    // Act
    const refused = await api.del(`/control-units/${unit}/bridge`);
    const closed = await api.put(`/activations/${activationId}/status`, { status: 'CLOSED' });
    const removed = await api.del(`/control-units/${unit}/bridge`);
    const again = await api.del(`/control-units/${unit}/bridge`);

    // Assess
    expectError(refused, 409, 'InconsistentData', 'SERVER_CANT_BE_REMOVED');
    expect(detailOf(refused)).toEqual({ field: null, activationIds: [activationId] });
    expect([closed.status, removed.status]).toEqual([204, 204]);
    expectError(again, 404, 'NotFound');
    expect((await api.get(`/control-units/${unit}/bridge`)).body).toMatchObject({ provisioned: false, lastSeen: null });
  });
});
