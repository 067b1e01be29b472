/**
 * Tenant isolation (spec 5.4): on every endpoint that takes a seller, another seller's register,
 * a user not connected to the seller and another vendor's user all get 403 INSUFFICIENT_ACCESS_RIGHTS
 * (public data of the non-public victim: SELLER_IS_NOT_PUBLIC), and nothing changes.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes as fiscal } from '#functions/fiscal/handler.ts';
import type { HttpMethod } from '#shared/http/types.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { fiscalBody, fiscalPath, saleOf } from '../support/fiscal.ts';
import { type CallOptions, call, expectError, v } from '../support/http.ts';
import { DAY, newApp, newVendor, swedishCorporateId, userOf } from '../support/identity.ts';

interface Endpoint {
  method: HttpMethod;
  path: (sellerId: string) => string;
  versions: readonly ApiVersion[];
  body?: (sellerId: string) => unknown;
  /** The 403 code when it is not INSUFFICIENT_ACCESS_RIGHTS. */
  code?: string;
}

const ALL = [15, 26, 33] as const;
const SINCE_26 = [26, 33] as const;
const V15 = [15] as const;
const tax = { vat: 12, name: 'Livsmedel' };
const product = { name: 'Bulle', barcode: '1', netto: 1500, tax: 'moms', salesUnit: 'Piece', countedInPrice: true };
const restaurant = (sellerId: string) => ({
  country: 'SE',
  corporateId: sellerId.slice(2),
  name: 'Intrång',
  city: 'Lund',
  address: 'Gatan 1',
  phone: '112',
  averageBill: 1,
});
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
  { method: 'GET', path: (s) => `/restaurants/${s}`, versions: ALL, code: 'SELLER_IS_NOT_PUBLIC' },
  { method: 'PUT', path: (s) => `/restaurants/${s}`, versions: ALL, body: restaurant },
  { method: 'DELETE', path: (s) => `/restaurants/${s}`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/restaurants-overview/${s}`, versions: SINCE_26, code: 'SELLER_IS_NOT_PUBLIC' },
  { method: 'GET', path: (s) => `/hairdressers/${s}`, versions: SINCE_26 },
  { method: 'PUT', path: (s) => `/hairdressers/${s}`, versions: SINCE_26, body: restaurant },
  { method: 'DELETE', path: (s) => `/hairdressers/${s}`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/${s}/version`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/stats`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/taxes`, versions: ALL },
  { method: 'POST', path: (s) => `/${s}/taxes`, versions: ALL, body: () => tax },
  { method: 'GET', path: (s) => `/${s}/taxes/moms`, versions: ALL },
  { method: 'PUT', path: (s) => `/${s}/taxes/moms`, versions: ALL, body: () => tax },
  { method: 'DELETE', path: (s) => `/${s}/taxes/moms`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/taxes-diff/0/1`, versions: ALL },
  // The rest of the catalog: each entity's six endpoints (spec 4.5), its extras and the sync summary.
  ...[
    { plural: 'categories', versions: ALL, body: { name: 'Bröd' } },
    { plural: 'products', versions: ALL, body: product },
    { plural: 'commodities', versions: ALL, body: { product: 'bun', category: 'bread' } },
    { plural: 'keyboards', versions: V15, body: { name: 'K', width: 1, height: 1, deviceFormFactor: 'PHONE' } },
    {
      plural: 'keyboard-entries',
      versions: V15,
      body: { keyboard: 'k', positionX: 0, positionY: 0, width: 1, height: 1, keyAction: 'Numeric1', label: '1' },
    },
    { plural: 'precepts', versions: SINCE_26, body: { treasurerName: 'A', preceptItems: [], status: 'NEW' } },
    {
      plural: 'bookings',
      versions: SINCE_26,
      body: { bookingDate: 1, persons: 2, contactInfo: { name: 'a', phone: 'b', email: 'c' } },
    },
    { plural: 'treasurers', versions: SINCE_26, body: { name: 'Anna' } },
  ].flatMap(({ plural, versions, body }): Endpoint[] => [
    { method: 'GET', path: (s) => `/${s}/${plural}`, versions },
    { method: 'POST', path: (s) => `/${s}/${plural}`, versions, body: () => body },
    { method: 'GET', path: (s) => `/${s}/${plural}/e1`, versions },
    { method: 'PUT', path: (s) => `/${s}/${plural}/e1`, versions, body: () => body },
    { method: 'DELETE', path: (s) => `/${s}/${plural}/e1`, versions },
    { method: 'GET', path: (s) => `/${s}/${plural}-diff/0/1`, versions },
  ]),
  { method: 'GET', path: (s) => `/${s}/commodities/advanced`, versions: V15 },
  { method: 'GET', path: (s) => `/${s}/commodities-advanced`, versions: SINCE_26 },
  {
    method: 'POST',
    path: (s) => `/${s}/orders`,
    versions: V15,
    body: () => ({ treasurerName: 'A', orderItems: [{ productIdentifier: 'bun', delta: 1 }] }),
  },
  { method: 'GET', path: (s) => `/${s}/orders-diff/0/1`, versions: V15 },
  { method: 'GET', path: (s) => `/${s}/orders/advanced`, versions: V15 },
  { method: 'GET', path: (s) => `/${s}/orders/1/advanced`, versions: V15 },
  { method: 'POST', path: (s) => `/${s}/treasurers/t1/user`, versions: SINCE_26, body: () => ({}) },
  { method: 'DELETE', path: (s) => `/${s}/treasurers/t1/user`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/${s}/modifications?from=0`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/${s}/registrations`, versions: ALL },
  { method: 'GET', path: (s) => `/${s}/registrations-advanced`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/${s}/registrations/Kassa%201`, versions: SINCE_26 },
  { method: 'DELETE', path: (s) => `/${s}/registrations/Kassa%201`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/${s}/registrations/Kassa%201/version`, versions: SINCE_26 },
  { method: 'GET', path: (s) => `/devices-overview?seller=${s}`, versions: SINCE_26 },
  // Image uploads are refused before their body is read, so these carry none.
  ...[
    { base: (s: string) => `/${s}/images`, diff: 'seller-images-diff', versions: ALL },
    { base: (s: string) => `/${s}/categories/bread/images`, diff: 'category-images-diff', versions: SINCE_26 },
    { base: (s: string) => `/${s}/products/bun/images`, diff: 'product-images-diff', versions: ALL },
  ].flatMap(({ base, diff, versions }): Endpoint[] => [
    { method: 'POST', path: base, versions: SINCE_26 },
    { method: 'GET', path: base, versions },
    { method: 'GET', path: (s) => `${base(s)}/current/logo.png`, versions },
    { method: 'PUT', path: (s) => `${base(s)}/current/logo.png`, versions },
    { method: 'DELETE', path: (s) => `${base(s)}/current/logo.png`, versions },
    { method: 'GET', path: (s) => `${base(s)}/${versions === ALL ? 'version' : '1'}/logo.png`, versions },
    { method: 'GET', path: (s) => `/${s}/${diff}/0/1`, versions },
  ]),
  { method: 'GET', path: (s) => `/devices?seller=${s}`, versions: SINCE_26 },
  // The register's trading day: every fiscal route, from its table, about the victim's register. A digital receipt's
  // link is open to anyone who holds its unguessable token (tests/e2e/receipt-document.test.ts).
  ...fiscal
    .filter((route) => !route.path.startsWith('/noauth/'))
    .map((route): Endpoint => ({
      method: route.method,
      path: (s) => fiscalPath(route.path, s, 'Kassa 1'),
      versions: route.versions,
      body: () => fiscalBody(route),
    })),
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
  const [version, taxes, registrations, restaurant, hairdresser, register, journal] = await Promise.all([
    v(33).get(`/${victim}/version`),
    v(33).get(`/${victim}/taxes`),
    v(33).get(`/${victim}/registrations-advanced`),
    // Restaurants and hairdressers carry revisions, not seller versions: their ETags show a change.
    v(33).get(`/restaurants/${victim}`),
    v(33).get(`/hairdressers/${victim}`),
    // Every fiscal write moves the register's version and appends to its journal.
    v(33).get(`/${victim}/registrations/Kassa%201/version`),
    v(33).get(`/${victim}/e-journals/Kassa%201`),
  ]);
  return {
    version: version.body,
    taxes: taxes.body,
    registrations: registrations.body,
    restaurant: [restaurant.body, restaurant.headers.get('etag')],
    hairdresser: [hairdresser.body, hairdresser.headers.get('etag')],
    register: register.body,
    journal: journal.body,
  };
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
  await v(33).put(`/restaurants/${victim}`, restaurant(victim));
  await v(33).put(`/hairdressers/${victim}`, { corporateId: victim.slice(2) });
  // The victim's register has a day with sale s1 and its receipt.
  const sale = saleOf(1000, { identifier: 's1', prints: [{ printType: 'Normal', receiptNumber: null }] });
  const recorded = await v(33).post(`/${victim}/registrations/Kassa%201/sales`, sale, { as: { apiKey: victimKey } });
  if (recorded.status !== 201) throw new Error(`no sale: ${recorded.text}`);
  outsiders = {
    "another seller's register": { as: { apiKey: other.apiKey } },
    'a regular user connected to another seller': await userOf('REGULAR_USER', null, [other.sellerId]),
    "another vendor's user": await userOf('SOFTWARE_VENDOR', otherVendor),
  };
});

describe.each(ENDPOINTS.flatMap((endpoint) => endpoint.versions.map((api) => ({ ...endpoint, api }))))(
  '$method /v$api $path',
  (endpoint) => {
    it('refuses every outsider with 403 and changes nothing', async () => {
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
      for (const { answer } of answers) expectError(answer, 403, 'Forbidden', endpoint.code ?? 'INSUFFICIENT_ACCESS_RIGHTS');
      expect(await snapshot()).toEqual(before);
    });
  },
);

it("the seller's own register still reads what the outsiders could not", async () => {
  expect((await v(33).get(`/${victim}/taxes/moms`, { as: { apiKey: victimKey } })).status).toBe(200);
  expect((await v(33).get(`/${victim}/registrations/Kassa%201`, { as: { apiKey: victimKey } })).status).toBe(200);
  expect((await v(33).get(`/${victim}/registrations/Kassa%201/sales/s1/receipt`, { as: { apiKey: victimKey } })).status).toBe(
    200,
  );
});
