/**
 * A deleted seller's data answers 404 on every read (docs/conventions.md §13): the walk takes every GET
 * route whose path names a `{sellerId}`, in every version that has it, straight from the function
 * groups' route tables, so a route added later is walked too. Before the delete each one answers.
 */
import { describe, expect, it } from 'vitest';
import { routes as activations } from '#functions/activations/handler.ts';
import { routes as catalog } from '#functions/catalog/handler.ts';
import { routes as devices } from '#functions/devices/handler.ts';
import { routes as fiscal } from '#functions/fiscal/handler.ts';
import { routes as images } from '#functions/images/handler.ts';
import { routes as registrations } from '#functions/registrations/handler.ts';
import { routes as restaurants } from '#functions/restaurants/handler.ts';
import { routes as sellers } from '#functions/sellers/handler.ts';
import { routes as stats } from '#functions/stats/handler.ts';
import { routes as users } from '#functions/users/handler.ts';
import { routes as vendors } from '#functions/vendors/handler.ts';
import { access } from '#shared/auth/access.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { saleOf } from '../support/fiscal.ts';
import { type Answer, expectError, newSeller, v } from '../support/http.ts';
import { DAY, newApp, newVendor } from '../support/identity.ts';

const ALL_ROUTES = [
  activations,
  catalog,
  devices,
  fiscal,
  images,
  registrations,
  restaurants,
  sellers,
  stats,
  users,
  vendors,
].flat();
/**
 * A GET only the register itself may call is a write (the v26/v33 receipt copy records a Copy print):
 * it is no read of the seller's data, and a user calling it is refused with 403 whatever the seller.
 */
const SELLER_READS = ALL_ROUTES.filter(
  (route) => route.method === 'GET' && route.path.includes('{sellerId}') && route.access !== access.ownRegister,
);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

/** A seller with one of everything a seller-scoped read can show, and the path parameters that name them. */
async function stockedSeller(): Promise<{ sellerId: string; pathOf: (template: string, api: ApiVersion) => string }> {
  const sellerId = await newSeller();
  const created = (answer: Answer, what: string) => {
    if (answer.status !== 201) throw new Error(`${what}: ${answer.status} ${answer.text}`);
    return answer;
  };
  const put = async (api: ApiVersion, path: string, body: unknown) =>
    created(await v(api).put(`/${sellerId}${path}`, body), path);
  await put(33, '/taxes/x1', { vat: 25, name: 'Moms' });
  await put(33, '/categories/x1', { name: 'Drinks' });
  await put(33, '/products/x1', {
    name: 'Coffee',
    barcode: '7310001',
    netto: 2000,
    tax: 'x1',
    salesUnit: 'Piece',
    countedInPrice: true,
  });
  await put(33, '/commodities/x1', { product: 'x1', category: 'x1' });
  await put(15, '/keyboards/x1', { name: 'Main', width: 4, height: 5, deviceFormFactor: 'PHONE' });
  await put(15, '/keyboard-entries/x1', {
    product: 'x1',
    keyboard: 'x1',
    subKeyboard: null,
    positionX: 0,
    positionY: 1,
    width: 1,
    height: 1,
    keyAction: 'Product',
    label: 'Coffee',
  });
  await put(33, '/precepts/x1', { treasurerName: 'Anna', preceptItems: [], table: '4', created: 1, status: 'NEW' });
  await put(33, '/bookings/x1', {
    bookingDate: 1_800_000_000_000,
    persons: 2,
    description: 'Window',
    contactInfo: { name: 'Eva', phone: '+4670000000', email: 'eva@example.com' },
  });
  await put(33, '/treasurers/x1', { name: 'Anna', ssn: '198001011234', pin: '1234' });
  const order = created(
    await v(15).post(`/${sellerId}/orders`, { treasurerName: 'Anna', orderItems: [{ productIdentifier: 'x1', delta: 1 }] }),
    'order',
  );
  // Each owner's image, and the version its PUT gave it (the ETag), for GET by version.
  const imageVersions = new Map<string, string>();
  for (const owner of ['', '/categories/x1', '/products/x1']) {
    const path = `/v33/${sellerId}${owner}/images/current/logo.png`;
    const answer = created(
      await v(33).put(`/${sellerId}${owner}/images/current/logo.png`, undefined, {
        raw: PNG,
        headers: { 'Content-Type': 'image/png' },
      }),
      path,
    );
    imageVersions.set(owner, (answer.headers.get('etag') ?? '').replaceAll('"', ''));
  }
  created(
    await v(33).put(`/restaurants/${sellerId}`, {
      country: 'SE',
      corporateId: sellerId.slice(2),
      name: 'Blå',
      averageBill: 20000,
      workHoursWeek: {},
    }),
    'restaurant',
  );
  created(await v(33).put(`/hairdressers/${sellerId}`, { country: 'SE', corporateId: sellerId.slice(2) }), 'hairdresser');
  const app = await newApp(await newVendor(), {
    controlUnitRequired: false,
    autoActivationCondition: 'ALWAYS',
    corporateIdValidationMethod: 'NONE',
  });
  const activation = created(
    await v(33).post('/activations-advanced', {
      country: 'SE',
      corporateId: sellerId.slice(2),
      cashRegisterName: 'Kassa 1',
      features: [],
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      applicationPackage: app.applicationPackage,
      installationCreationInfo: { deviceId: `dev-${sellerId.slice(-8)}` },
    }),
    'activation',
  );
  // The register's day: sale x1 with its printed receipt; the day stays open, so its balance reads.
  created(
    await v(33).post(
      `/${sellerId}/registrations/Kassa%201/sales`,
      saleOf(1000, { identifier: 'x1', prints: [{ printType: 'Normal' }] }),
      {
        as: { apiKey: (activation.body as { apiKey: string }).apiKey },
      },
    ),
    'sale',
  );
  // An export of each kind (docs/conventions.md §28), read by its id.
  const started = async (path: string, body: unknown) => {
    const answer = await v(33).post(`/${sellerId}${path}`, body);
    if (answer.status !== 202) throw new Error(`${path}: ${answer.status} ${answer.text}`);
    return (answer.body as { id: string }).id;
  };
  const journalExport = await started('/registrations/Kassa%201/journal-exports', {});
  const csvExport = await started('/sales/stats/csv-exports', {});
  const version = String(((await v(33).get(`/${sellerId}/version`)).body as { version: number }).version);
  const registerVersion = String(
    ((await v(33).get(`/${sellerId}/registrations/Kassa%201/version`)).body as { version: number }).version,
  );
  const ownerOf = (template: string) =>
    template.includes('/categories/') ? '/categories/x1' : template.includes('/products/') ? '/products/x1' : '';
  const values: Record<string, (api: ApiVersion, template: string) => string> = {
    sellerId: () => sellerId,
    identifier: () => 'x1',
    categoryIdentifier: () => 'x1',
    productIdentifier: () => 'x1',
    cash: () => 'Kassa%201',
    orderId: () => String((order.body as { id: number }).id),
    pictureFilename: () => 'logo.png',
    dayId: () => '1',
    dayIdentifier: () => '1',
    exportId: (_, template) => (template.includes('journal-exports') ? journalExport : csvExport),
    versionFrom: () => '0',
    // A register's diffs run on its own version (docs/conventions.md §14), the catalog's on the seller's.
    versionTo: (_, template) => (template.includes('{cash}') ? registerVersion : version),
    // v15 names the current record; v26/v33 a stored version of the owner's image.
    pictureVersion: (api, template) => (api === 15 ? 'version' : (imageVersions.get(ownerOf(template)) ?? '')),
  };
  const fill = (template: string, api: ApiVersion) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = values[name];
      if (!value) throw new Error(`No value for {${name}} of ${template}`);
      return value(api, template);
    });
  // `from` for the reads that need it; v15's fiscal reads without {cash} name the register for a user.
  return { sellerId, pathOf: (template, api) => `${fill(template, api)}?from=0&cashRegisterName=Kassa%201` };
}

describe('a deleted seller', () => {
  it('answers 404 on every seller-scoped read in every version, where each answered before the delete', async () => {
    const { sellerId, pathOf } = await stockedSeller();
    const reads = SELLER_READS.flatMap((route) => route.versions.map((api) => ({ api, path: pathOf(route.path, api) })));
    // A few at a time: a burst of a hundred calls would start a hundred local Lambda workers.
    const walk = async () => {
      const answers: { api: ApiVersion; path: string; answer: Answer }[] = [];
      for (let start = 0; start < reads.length; start += 6) {
        const batch = reads.slice(start, start + 6);
        answers.push(...(await Promise.all(batch.map(async ({ api, path }) => ({ api, path, answer: await v(api).get(path) })))));
      }
      return answers;
    };

    const before = await walk();
    expect((await v(33).del(`/sellers/${sellerId}`)).status).toBe(204);
    const after = await walk();

    expect(reads.length).toBeGreaterThan(100);
    // The auditor's export reads the register's records, but this register has no control unit (its receipts carry no
    // control code), so it answers what it lacks rather than a document (docs/conventions.md §19).
    const answered = ({ path, answer }: { path: string; answer: Answer }) =>
      path.includes('/journal-export?')
        ? answer.status === 409 && (answer.body as { code?: string }).code === 'JOURNAL_EXPORT_INCOMPLETE'
        : answer.status === 200;
    expect(before.filter((read) => !answered(read)).map(({ api, path, answer }) => `v${api} ${path}: ${answer.status}`)).toEqual(
      [],
    );
    for (const { api, path, answer } of after) {
      expect(answer.status, `v${api} ${path}: ${answer.text}`).toBe(404);
    }
    expectError(await v(33).get(`/devices?seller=${sellerId}`), 404, 'ReferenceNotFound');
  }, 180_000);
});
