/**
 * Tenant isolation (spec 5.4): on every endpoint that takes a seller, another seller's register,
 * a user not connected to the seller and another vendor's user all get 403 INSUFFICIENT_ACCESS_RIGHTS,
 * and nothing changes.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiVersion } from '#shared/versions.ts';
import { type CallOptions, call, expectError, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId, userOf } from '../support/identity.ts';

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: (sellerId: string) => string;
  versions: readonly ApiVersion[];
  body?: (sellerId: string) => unknown;
}

const ALL = [15, 26, 33] as const;
const SINCE_26 = [26, 33] as const;
const tax = { vat: 12, name: 'Livsmedel' };
const seller = (sellerId: string) => ({
  corporateId: sellerId.slice(2),
  country: 'SE',
  name: 'Intrång',
  publicAccess: true,
  workHoursWeek: {},
});

/** Every endpoint of this service that names a seller. */
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: (s) => `/sellers/${s}`, versions: ALL },
  { method: 'PUT', path: (s) => `/sellers/${s}`, versions: ALL, body: seller },
  { method: 'DELETE', path: (s) => `/sellers/${s}`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/version`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/taxes`, versions: ALL },
  { method: 'POST', path: (s) => `/${s}/taxes`, versions: ALL, body: () => tax },
  { method: 'GET', path: (s) => `/${s}/taxes/moms`, versions: ALL },
  { method: 'PUT', path: (s) => `/${s}/taxes/moms`, versions: ALL, body: () => tax },
  { method: 'DELETE', path: (s) => `/${s}/taxes/moms`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/taxes-diff/0/1`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/registrations`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/registrations-advanced`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/${s}/registrations/Kassa%201`, versions: SINCE_26 },
  { method: 'DELETE', path: (s) => `/${s}/registrations/Kassa%201`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/${s}/registrations/Kassa%201/version`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/devices-overview?seller=${s}`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/devices?seller=${s}`, versions: SINCE_26 },
];

let victim: string;
let victimKey: string;
let outsiders: Record<string, CallOptions>;

async function activatedSeller(app: { applicationPackage: string }): Promise<{ sellerId: string; apiKey: string }> {
  const corporateId = swedishCorporateId();
  const answer = await v(33).post('/activations-advanced', {
    country: 'SE',
    corporateId,
    companyName: 'Butik',
    cashRegisterName: 'Kassa 1',
    features: ['SYNCHRONIZATION'],
    validFrom: Date.now() - DAY,
    validTo: Date.now() + DAY,
    applicationPackage: app.applicationPackage,
    installationCreationInfo: { deviceId: randomUUID().slice(0, 16) },
  });
  if (answer.status !== 201) throw new Error(`not activated: ${answer.text}`);
  return { sellerId: `SE${corporateId}`, apiKey: (answer.body as { apiKey: string }).apiKey };
}

/** What a client could see of the victim's data: a change anywhere shows here. */
async function snapshot() {
  const [version, taxes, registrations] = await Promise.all([
    v(33).get(`/${victim}/version`),
    v(33).get(`/${victim}/taxes`),
    v(33).get(`/${victim}/registrations-advanced`),
  ]);
  return { version: version.body, taxes: taxes.body, registrations: registrations.body };
}

beforeAll(async () => {
  const [vendor, otherVendor] = await Promise.all([newVendor(), newVendor('Annan')]);
  const [app, otherApp] = await Promise.all([
    newApp(vendor, { controlUnitRequired: false, corporateIdValidationMethod: 'NONE' }),
    newApp(otherVendor, { controlUnitRequired: false, corporateIdValidationMethod: 'NONE' }),
  ]);
  const [target, other] = await Promise.all([activatedSeller(app), activatedSeller(otherApp)]);
  victim = target.sellerId;
  victimKey = target.apiKey;
  await v(33).put(`/${victim}/taxes/moms`, { vat: 25, name: 'Moms' });
  outsiders = {
    "another seller's register": { as: { apiKey: other.apiKey } },
    'a regular user connected to another seller': await userOf('REGULAR_USER', null, [other.sellerId]),
    "another vendor's user": await userOf('SOFTWARE_VENDOR', otherVendor),
  };
});

describe.each(ENDPOINTS.flatMap((endpoint) => endpoint.versions.map((api) => ({ ...endpoint, api }))))(
  '$method /v$api $path',
  (endpoint) => {
    it('refuses every outsider with 403 INSUFFICIENT_ACCESS_RIGHTS and changes nothing', async () => {
      // Prepare
      const before = await snapshot();
      // Act
      const answers = [];
      for (const [who, as] of Object.entries(outsiders)) {
        const body = endpoint.body?.(victim);
        const answer = await call(endpoint.method, `/v${endpoint.api}${endpoint.path(victim)}`, {
          ...as,
          ...(body ? { body } : {}),
        });
        answers.push({ who, answer });
      }
      // Assess
      for (const { answer } of answers) expectError(answer, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
      expect(await snapshot()).toEqual(before);
    });
  },
);

it("the seller's own register still reads what the outsiders could not", async () => {
  expect((await v(33).get(`/${victim}/taxes/moms`, { as: { apiKey: victimKey } })).status).toBe(200);
  expect((await v(33).get(`/${victim}/registrations/Kassa%201`, { as: { apiKey: victimKey } })).status).toBe(200);
});
