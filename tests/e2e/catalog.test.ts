/**
 * The seller's catalog (spec 4.5) over HTTP: every entity's endpoints in every version that has it,
 * references between entities, version views, precepts' orders, treasurers' users and orders.
 */
import { describe, expect, it } from 'vitest';
import type { ApiVersion } from '#shared/versions.ts';
import { type CallOptions, detailOf, expectError, newSeller, v } from '../support/http.ts';
import { userOf } from '../support/identity.ts';

const ALL = [15, 26, 33] as const;
const SINCE_26 = [26, 33] as const;

const nameOf = (user: CallOptions) => (user.as !== undefined && user.as !== 'none' && 'basic' in user.as ? user.as.basic[0] : '');

const version = async (sellerId: string) => ((await v(33).get(`/${sellerId}/version`)).body as { version: number }).version;

/** A seller with the entities others name: tax `moms`, category `drinks`, product `coffee`, keyboard `main`. */
async function stockedSeller(): Promise<string> {
  const sellerId = await newSeller();
  const put = async (api: ApiVersion, path: string, body: unknown) => {
    const answer = await v(api).put(`/${sellerId}${path}`, body);
    if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${answer.text}`);
  };
  await put(33, '/taxes/moms', { vat: 25, name: 'Moms' });
  await put(33, '/categories/drinks', { name: 'Drinks' });
  await put(33, '/products/coffee', product());
  await put(15, '/keyboards/main', { name: 'Main', width: 4, height: 5, deviceFormFactor: 'PHONE' });
  return sellerId;
}

const product = (fields: Record<string, unknown> = {}) => ({
  name: 'Coffee',
  barcode: '7310000000001',
  netto: 2000,
  tax: 'moms',
  salesUnit: 'Piece',
  countedInPrice: true,
  ...fields,
});

interface Case {
  plural: string;
  versions: readonly ApiVersion[];
  /** A valid body for a version, and a changed one. */
  body: (api: ApiVersion) => Record<string, unknown>;
  changed: (api: ApiVersion) => Record<string, unknown>;
  /** What GET shows for `body` in that version (besides identifier and deleted). */
  shown?: (api: ApiVersion) => Record<string, unknown>;
}

const CASES: Case[] = [
  {
    plural: 'categories',
    versions: ALL,
    body: (api) => ({ name: 'Food', ...(api === 15 ? {} : { color: -16776961 }) }),
    changed: () => ({ name: 'Snacks' }),
  },
  {
    plural: 'products',
    versions: ALL,
    body: () => product({ name: 'Tea', description: 'Green', custom: '{"x":1}' }),
    changed: () => product({ name: 'Black tea', countedInPrice: 'false', salesUnit: 'Kilogram' }),
    // A product that names no articleType is goods.
    shown: () => ({ ...product({ name: 'Tea', description: 'Green', custom: '{"x":1}' }), articleType: 'GOODS' }),
  },
  {
    plural: 'commodities',
    versions: ALL,
    body: (api) => ({ product: 'coffee', category: 'drinks', custom: null, ...(api === 15 ? {} : { color: 255 }) }),
    changed: () => ({ product: 'coffee', category: 'drinks', custom: 'changed' }),
  },
  {
    plural: 'keyboards',
    versions: [15],
    body: () => ({ name: 'Bar', width: 6, height: 4, deviceFormFactor: 'TABLET_BIG', custom: null }),
    changed: () => ({ name: 'Bar 2', width: 6, height: 5, deviceFormFactor: 'TABLET_SMALL' }),
  },
  {
    plural: 'keyboard-entries',
    versions: [15],
    body: () => ({
      product: 'coffee',
      keyboard: 'main',
      subKeyboard: null,
      positionX: 0,
      positionY: 1,
      width: 1,
      height: 1,
      keyAction: 'Product',
      label: 'Coffee',
      custom: null,
    }),
    changed: () => ({
      product: null,
      keyboard: 'main',
      subKeyboard: 'main',
      positionX: 2,
      positionY: 2,
      width: 1,
      height: 1,
      keyAction: 'SubKeyboard',
      label: 'More',
    }),
  },
  {
    plural: 'precepts',
    versions: SINCE_26,
    body: () => ({
      treasurerName: 'Anna',
      preceptItems: [{ productCustomization: 'no milk', delta: 2 }],
      table: '4',
      created: 1_700_000_000_000,
      status: 'NEW',
      message: null,
      order: null,
    }),
    changed: () => ({ treasurerName: 'Anna', preceptItems: [], status: 'DONE', table: '5' }),
  },
  {
    plural: 'bookings',
    versions: SINCE_26,
    body: () => ({
      bookingDate: 1_800_000_000_000,
      persons: 4,
      description: 'Window table',
      contactInfo: { name: 'Eva', phone: '+4670000000', email: 'eva@example.com' },
    }),
    changed: () => ({ bookingDate: 1_800_000_360_000, persons: 6, contactInfo: { name: 'Eva', phone: '-', email: '-' } }),
  },
  {
    plural: 'treasurers',
    versions: SINCE_26,
    body: () => ({ name: 'Anna', ssn: '198001011234', custom: null, pin: '1234' }),
    changed: () => ({ name: 'Anna B', pin: '4321' }),
    shown: () => ({ name: 'Anna', ssn: '198001011234', custom: null, pin: '1234', user: null }),
  },
];

const cases = CASES.flatMap((entity) => entity.versions.map((api) => [entity.plural, api, entity] as const));

describe.each(cases)('%s in v%i', (plural, api, entity) => {
  const client = v(api);

  it('POST creates (201 {identifier}), GET shows it with its ETag, LIST and the diff include it', async () => {
    const sellerId = await stockedSeller();
    const from = await version(sellerId);
    const created = await client.post(`/${sellerId}/${plural}`, { identifier: null, ...entity.body(api) });
    expect(created.status).toBe(201);
    const { identifier } = created.body as { identifier: string };
    const shown = { identifier, deleted: false, ...(entity.shown ?? entity.body)(api) };

    const read = await client.get(`/${sellerId}/${plural}/${identifier}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(`"${from + 1}"`);
    expect(read.body).toEqual(shown);
    expect((await client.get(`/${sellerId}/${plural}?maxResults=1000`)).body).toContainEqual(shown);
    expect((await client.get(`/${sellerId}/${plural}-diff/${from}/${from + 1}`)).body).toEqual([shown]);
  });

  it('PUT creates (201 {identifier}) and updates (204); DELETE (204) leaves a tombstone in the diff and 404 on GET', async () => {
    const sellerId = await stockedSeller();
    const created = await client.put(`/${sellerId}/${plural}/e1`, entity.body(api));
    expect({ status: created.status, body: created.body }).toEqual({ status: 201, body: { identifier: 'e1' } });
    expect((await client.put(`/${sellerId}/${plural}/e1`, { identifier: 'e1', ...entity.changed(api) })).status).toBe(204);
    const updated = (await client.get(`/${sellerId}/${plural}/e1`)).body as Record<string, unknown>;
    for (const [field, value] of Object.entries(entity.changed(api))) {
      expect(updated[field]).toEqual(field === 'countedInPrice' ? (value === 'false' ? false : value) : value);
    }

    const before = await version(sellerId);
    expect((await client.del(`/${sellerId}/${plural}/e1`)).status).toBe(204);
    expectError(await client.get(`/${sellerId}/${plural}/e1`), 404, 'NotFound');
    expectError(await client.del(`/${sellerId}/${plural}/e1`), 404, 'NotFound');
    const diff = (await client.get(`/${sellerId}/${plural}-diff/${before}/${before + 1}`)).body as Record<string, unknown>[];
    expect(diff).toHaveLength(1);
    expect(diff[0]).toMatchObject({ identifier: 'e1', deleted: true });
    const list = (await client.get(`/${sellerId}/${plural}`)).body as { identifier: string }[];
    expect(list.map((item) => item.identifier)).not.toContain('e1');
  });

  it('a PUT with a stale If-Match is 409 VersionConflict and changes nothing', async () => {
    const sellerId = await stockedSeller();
    await client.put(`/${sellerId}/${plural}/e1`, entity.body(api));
    const etag = (await client.get(`/${sellerId}/${plural}/e1`)).headers.get('etag') ?? '';
    expect((await client.put(`/${sellerId}/${plural}/e1`, entity.changed(api), { headers: { 'If-Match': etag } })).status).toBe(
      204,
    );
    expectError(
      await client.put(`/${sellerId}/${plural}/e1`, entity.body(api), { headers: { 'If-Match': etag } }),
      409,
      'VersionConflict',
    );
    expectError(await client.del(`/${sellerId}/${plural}/e1`, { headers: { 'If-Match': etag } }), 409, 'VersionConflict');
    expect((await client.get(`/${sellerId}/${plural}/e1`)).status).toBe(200);
  });

  it('an unknown seller is 404 NotFound', async () => {
    expectError(await client.put(`/SE5599999999/${plural}/e1`, entity.body(api)), 404, 'NotFound');
  });
});

describe('endpoints only some versions have', () => {
  it.each([
    [26, '/keyboards'],
    [33, '/keyboard-entries'],
    [15, '/precepts'],
    [15, '/bookings'],
    [15, '/treasurers'],
    [26, '/orders/advanced'],
    [15, '/commodities-advanced'],
  ] as const)('v%i has no %s: 404 ENDPOINT_NOT_FOUND', async (api, path) => {
    const sellerId = await newSeller();
    expectError(await v(api).get(`/${sellerId}${path}`), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
  });
});

describe('references between entities', () => {
  it('a product naming an unknown or deleted tax is 404 ReferenceNotFound and nothing is written', async () => {
    const sellerId = await stockedSeller();
    const before = await version(sellerId);
    expectError(await v(33).put(`/${sellerId}/products/p`, product({ tax: 'nope' })), 404, 'ReferenceNotFound');
    await v(33).put(`/${sellerId}/taxes/gone`, { vat: 6, name: 'Gone' });
    await v(33).del(`/${sellerId}/taxes/gone`);
    expectError(await v(26).post(`/${sellerId}/products`, product({ tax: 'gone' })), 404, 'ReferenceNotFound');
    expect(await version(sellerId)).toBe(before + 2);
    expectError(await v(33).get(`/${sellerId}/products/p`), 404, 'NotFound');
  });

  it('a referenced tax cannot be deleted (422 ENTITY_HAS_REFERENCED_DATA) until nothing names it', async () => {
    const sellerId = await stockedSeller();
    await v(33).put(`/${sellerId}/taxes/low`, { vat: 6, name: 'Low' });
    expectError(await v(15).del(`/${sellerId}/taxes/moms`), 422, 'UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA');
    // Moving the product to another tax releases the first.
    expect((await v(33).put(`/${sellerId}/products/coffee`, product({ tax: 'low' }))).status).toBe(204);
    expect((await v(33).del(`/${sellerId}/taxes/moms`)).status).toBe(204);
    expectError(await v(33).del(`/${sellerId}/taxes/low`), 422, 'UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA');
  });

  it('a tax keeps its references when it is updated', async () => {
    const sellerId = await stockedSeller();
    expect((await v(33).put(`/${sellerId}/taxes/moms`, { vat: 12, name: 'Moms 12' })).status).toBe(204);
    expectError(await v(33).del(`/${sellerId}/taxes/moms`), 422, 'UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA');
  });

  it('a commodity names a live product and category; they cannot be deleted while it does', async () => {
    const sellerId = await stockedSeller();
    expectError(await v(15).put(`/${sellerId}/commodities/c`, { product: 'tea', category: 'drinks' }), 404, 'ReferenceNotFound');
    expectError(await v(26).put(`/${sellerId}/commodities/c`, { product: 'coffee', category: 'food' }), 404, 'ReferenceNotFound');
    expect((await v(33).put(`/${sellerId}/commodities/c`, { product: 'coffee', category: 'drinks' })).status).toBe(201);
    expectError(await v(33).del(`/${sellerId}/products/coffee`), 422, 'UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA');
    expectError(await v(33).del(`/${sellerId}/categories/drinks`), 422, 'UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA');
    expect((await v(33).del(`/${sellerId}/commodities/c`)).status).toBe(204);
    expect((await v(33).del(`/${sellerId}/categories/drinks`)).status).toBe(204);
    expect((await v(33).del(`/${sellerId}/products/coffee`)).status).toBe(204);
    expect((await v(33).del(`/${sellerId}/taxes/moms`)).status).toBe(204);
  });

  it('a keyboard entry names its keyboard, sub-keyboard and product (v15)', async () => {
    const sellerId = await stockedSeller();
    const entry = { keyboard: 'main', positionX: 0, positionY: 0, width: 1, height: 1, keyAction: 'SubKeyboard', label: 'More' };
    expectError(await v(15).put(`/${sellerId}/keyboard-entries/k`, { ...entry, keyboard: 'nope' }), 404, 'ReferenceNotFound');
    expectError(await v(15).put(`/${sellerId}/keyboard-entries/k`, { ...entry, subKeyboard: 'nope' }), 404, 'ReferenceNotFound');
    expectError(await v(15).put(`/${sellerId}/keyboard-entries/k`, { ...entry, product: 'nope' }), 404, 'ReferenceNotFound');
    // The same keyboard twice counts twice.
    expect(
      (await v(15).put(`/${sellerId}/keyboard-entries/k`, { ...entry, subKeyboard: 'main', product: 'coffee' })).status,
    ).toBe(201);
    expectError(await v(15).del(`/${sellerId}/keyboards/main`), 422, 'UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA');
    expect((await v(15).put(`/${sellerId}/keyboard-entries/k`, { ...entry, subKeyboard: null })).status).toBe(204);
    expectError(await v(15).del(`/${sellerId}/keyboards/main`), 422, 'UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA');
    expect((await v(15).del(`/${sellerId}/products/coffee`)).status).toBe(204);
    expect((await v(15).del(`/${sellerId}/keyboard-entries/k`)).status).toBe(204);
    expect((await v(15).del(`/${sellerId}/keyboards/main`)).status).toBe(204);
  });
});

describe('version views', () => {
  it('a category keeps its v26 color when v15 writes it, and v15 never shows it', async () => {
    const sellerId = await newSeller();
    await v(33).put(`/${sellerId}/categories/c`, { name: 'Food', color: 42 });
    expect((await v(15).put(`/${sellerId}/categories/c`, { name: 'Mat' })).status).toBe(204);
    expect((await v(15).get(`/${sellerId}/categories/c`)).body).toEqual({ identifier: 'c', deleted: false, name: 'Mat' });
    expect((await v(26).get(`/${sellerId}/categories/c`)).body).toEqual({
      identifier: 'c',
      deleted: false,
      name: 'Mat',
      color: 42,
    });
    // A v26 write that leaves color out clears it: the field is that version's.
    await v(26).put(`/${sellerId}/categories/c`, { name: 'Mat' });
    expect((await v(33).get(`/${sellerId}/categories/c`)).body).toMatchObject({ color: null });
  });

  it('a commodity keeps its color through a v15 write', async () => {
    const sellerId = await stockedSeller();
    await v(33).put(`/${sellerId}/commodities/c`, { product: 'coffee', category: 'drinks', color: 7 });
    await v(15).put(`/${sellerId}/commodities/c`, { product: 'coffee', category: 'drinks', custom: 'x' });
    expect((await v(33).get(`/${sellerId}/commodities/c`)).body).toEqual({
      identifier: 'c',
      deleted: false,
      product: 'coffee',
      category: 'drinks',
      custom: 'x',
      color: 7,
    });
  });

  it('countedInPrice sent as text is a boolean; other text is 400 SHOULD_MATCH_PATTERN', async () => {
    const sellerId = await stockedSeller();
    await v(15).put(`/${sellerId}/products/p`, product({ countedInPrice: 'true' }));
    expect((await v(15).get(`/${sellerId}/products/p`)).body).toMatchObject({ countedInPrice: true });
    expectError(
      await v(15).put(`/${sellerId}/products/p`, product({ countedInPrice: 'yes' })),
      400,
      'ValueNotValid',
      'SHOULD_MATCH_PATTERN',
    );
  });
});

describe('limits of catalog bodies', () => {
  const over = (n: number) => 'x'.repeat(n);
  it.each([
    ['categories', 33, { name: '' }, 'SIZE_SHOULD_BE_IN_RANGE', 'name'],
    ['categories', 15, { name: over(33) }, 'SIZE_SHOULD_BE_IN_RANGE', 'name'],
    ['products', 33, product({ barcode: over(33) }), 'SIZE_SHOULD_BE_IN_RANGE', 'barcode'],
    ['products', 26, product({ description: over(1025) }), 'SIZE_SHOULD_BE_LESS_THEN', 'description'],
    ['products', 15, product({ custom: over(65536) }), 'SIZE_SHOULD_BE_LESS_THEN', 'custom'],
    ['products', 33, product({ tax: 'a/b' }), 'SHOULD_MATCH_PATTERN', 'tax'],
    ['products', 33, product({ netto: 2 ** 31 }), 'VALUE_SHOULD_BE_LESS_THEN', 'netto'],
    ['keyboards', 15, { name: 'K', width: -1, height: 1, deviceFormFactor: 'PHONE' }, 'VALUE_SHOULD_NOT_BE_NEGATIVE', 'width'],
    [
      'precepts',
      33,
      { treasurerName: 'A', preceptItems: [], status: 'NEW', table: over(51) },
      'SIZE_SHOULD_BE_LESS_THEN',
      'table',
    ],
    [
      'precepts',
      26,
      { treasurerName: 'A', preceptItems: [], status: 'NEW', message: over(513) },
      'SIZE_SHOULD_BE_LESS_THEN',
      'message',
    ],
    [
      'precepts',
      33,
      { treasurerName: 'A', preceptItems: [], status: 'NEW', order: over(51) },
      'SIZE_SHOULD_BE_IN_RANGE',
      'order',
    ],
    ['precepts', 33, { treasurerName: over(33), preceptItems: [], status: 'NEW' }, 'SIZE_SHOULD_BE_IN_RANGE', 'treasurerName'],
    [
      'precepts',
      33,
      { treasurerName: 'A', preceptItems: [{ delta: 1, productCustomization: over(513) }], status: 'NEW' },
      'SIZE_SHOULD_BE_LESS_THEN',
      'preceptItems[0].productCustomization',
    ],
    [
      'bookings',
      33,
      { bookingDate: 1, persons: 2, description: over(1025), contactInfo: { name: 'a', phone: 'b', email: 'c' } },
      'SIZE_SHOULD_BE_LESS_THEN',
      'description',
    ],
    ['bookings', 26, { bookingDate: 1, persons: 2, contactInfo: null }, 'SHOULD_NOT_BE_NULL', 'contactInfo'],
    ['treasurers', 33, { name: over(33) }, 'SIZE_SHOULD_BE_IN_RANGE', 'name'],
  ] as const)('%s v%i: %s -> %s', async (plural, api, body, code, field) => {
    const sellerId = await stockedSeller();
    const answer = await v(api).put(`/${sellerId}/${plural}/e`, body);
    expectError(answer, 400, 'ValueNotValid', code);
    expect(detailOf(answer).field).toBe(field);
    expectError(await v(api).get(`/${sellerId}/${plural}/e`), 404, 'NotFound');
  });

  it.each([
    ['products', product({ salesUnit: 'Litre' })],
    [
      'keyboard-entries',
      { keyboard: 'main', positionX: 0, positionY: 0, width: 1, height: 1, keyAction: 'SalesInOperation', label: 'x' },
    ],
    ['keyboards', { name: 'K', width: 1, height: 1, deviceFormFactor: 'WATCH' }],
  ] as const)('an enumeration value v15 does not know (%s) is 400 MessageNotReadable', async (plural, body) => {
    const sellerId = await stockedSeller();
    expectError(await v(15).put(`/${sellerId}/${plural}/e`, body), 400, 'MessageNotReadable');
  });
});

describe('precepts: at most one per order', () => {
  const precept = (order: string | null) => ({ treasurerName: 'Anna', preceptItems: [{ delta: 1 }], status: 'NEW', order });

  it.each(SINCE_26)(
    'v%i: a second precept of an order is 400 NonUnique ORDER_ALREADY_HAS_PRECEPT, on POST and PUT',
    async (api) => {
      const sellerId = await newSeller();
      expect((await v(api).post(`/${sellerId}/precepts`, precept('17'))).status).toBe(201);
      expectError(await v(api).post(`/${sellerId}/precepts`, precept('17')), 400, 'NonUnique', 'ORDER_ALREADY_HAS_PRECEPT');
      expect((await v(api).put(`/${sellerId}/precepts/p2`, precept('18'))).status).toBe(201);
      expectError(await v(api).put(`/${sellerId}/precepts/p2`, precept('17')), 400, 'NonUnique', 'ORDER_ALREADY_HAS_PRECEPT');
      // Its own order again is no conflict; moving it away frees the old one.
      expect((await v(api).put(`/${sellerId}/precepts/p2`, precept('18'))).status).toBe(204);
      expect((await v(api).put(`/${sellerId}/precepts/p2`, precept('19'))).status).toBe(204);
      expect((await v(api).post(`/${sellerId}/precepts`, precept('18'))).status).toBe(201);
      // Precepts without an order never collide.
      expect((await v(api).post(`/${sellerId}/precepts`, precept(null))).status).toBe(201);
      expect((await v(api).post(`/${sellerId}/precepts`, precept(null))).status).toBe(201);
    },
  );

  it('deleting a precept frees its order; the list takes PAGE parameters', async () => {
    const sellerId = await newSeller();
    await v(33).put(`/${sellerId}/precepts/p`, precept('5'));
    await v(33).del(`/${sellerId}/precepts/p`);
    expect((await v(33).put(`/${sellerId}/precepts/q`, precept('5'))).status).toBe(201);
    expect((await v(33).get(`/${sellerId}/precepts?like=anna&maxResults=1`)).body).toHaveLength(1);
  });
});

describe('treasurers and users (spec 4.1)', () => {
  it.each(SINCE_26)('v%i: a user joins a treasurer, once; a user holds one treasurer per seller; disjoin', async (api) => {
    const sellerId = await newSeller();
    const anna = await userOf('REGULAR_USER', null, [sellerId]);
    const bo = await userOf('REGULAR_USER', null, [sellerId]);
    await v(api).put(`/${sellerId}/treasurers/t1`, { name: 'Till 1' });
    await v(api).put(`/${sellerId}/treasurers/t2`, { name: 'Till 2' });
    const path = (id: string) => `/${sellerId}/treasurers/${id}/user`;

    expectError(await v(api).del(path('t1'), anna), 404, 'ReferenceNotFound', 'TREASURER_IS_NOT_JOINED_TO_USER');
    expect((await v(api).post(path('t1'), {}, anna)).status).toBe(204);
    expect((await v(api).get(`/${sellerId}/treasurers/t1`)).body).toMatchObject({ user: nameOf(anna) });
    expectError(await v(api).post(path('t1'), {}, bo), 404, 'ReferenceNotFound', 'TREASURER_IS_JOINED_TO_USER_ALREADY');
    expectError(
      await v(api).post(path('t2'), {}, anna),
      404,
      'ReferenceNotFound',
      'USER_HAS_TREASURER_WITH_SAME_SELLER_ID_ALREADY',
    );
    // A write of the treasurer cannot set or clear its user.
    await v(api).put(`/${sellerId}/treasurers/t1`, { name: 'Till one', user: 'someone' });
    expect((await v(api).get(`/${sellerId}/treasurers/t1`)).body).toMatchObject({ name: 'Till one', user: nameOf(anna) });

    expect((await v(api).del(path('t1'), bo)).status).toBe(204);
    expect((await v(api).post(path('t2'), {}, anna)).status).toBe(204);
    expectError(await v(api).post(path('nope'), {}, anna), 404, 'NotFound');
  });

  it('a register key is no user: joining is 403; a deleted joined treasurer frees its user', async () => {
    const sellerId = await newSeller();
    const anna = await userOf('REGULAR_USER', null, [sellerId]);
    await v(33).put(`/${sellerId}/treasurers/t1`, { name: 'Till 1' });
    await v(33).put(`/${sellerId}/treasurers/t2`, { name: 'Till 2' });
    await v(33).post(`/${sellerId}/treasurers/t1/user`, {}, anna);
    expect((await v(33).del(`/${sellerId}/treasurers/t1`)).status).toBe(204);
    expect((await v(33).post(`/${sellerId}/treasurers/t2/user`, {}, anna)).status).toBe(204);
  });
});

describe('orders (v15)', () => {
  const order = (productIdentifier = 'coffee') => ({
    treasurerName: 'Anna',
    orderItems: [
      { productIdentifier, productCustomization: 'oat milk', delta: 2, deltaUnit: true },
      { productIdentifier: 'coffee', delta: 1 },
    ],
  });

  it('POST numbers orders per seller (201 {id}); the diff and the advanced reads show them with product info', async () => {
    const sellerId = await stockedSeller();
    const from = await version(sellerId);
    const first = await v(15).post(`/${sellerId}/orders`, order());
    const second = await v(15).post(`/${sellerId}/orders`, order());
    expect([first.status, first.body, second.body]).toEqual([201, { id: 1 }, { id: 2 }]);

    const diff = (await v(15).get(`/${sellerId}/orders-diff/${from}/${from + 2}`)).body as { id: number }[];
    expect(diff.map((item) => item.id)).toEqual([1, 2]);
    expect(diff[0]).toEqual({
      id: 1,
      deleted: false,
      ...order(),
      orderItems: [
        { productIdentifier: 'coffee', productCustomization: 'oat milk', delta: 2, deltaUnit: true },
        { productIdentifier: 'coffee', delta: 1 },
      ],
    });

    const one = await v(15).get(`/${sellerId}/orders/2/advanced`);
    expect(one.status).toBe(200);
    const { orderItems } = one.body as { orderItems: { productInfo: { product: { name: string }; tax: { vat: number } } }[] };
    expect(orderItems[0]?.productInfo).toMatchObject({
      product: { identifier: 'coffee', name: 'Coffee' },
      tax: { identifier: 'moms', vat: 25 },
    });
    expect(((await v(15).get(`/${sellerId}/orders/advanced`)).body as unknown[]).length).toBe(2);
  });

  it('an unknown product is 404 ReferenceNotFound; a bad or unknown order id is 400 / 404', async () => {
    const sellerId = await stockedSeller();
    expectError(await v(15).post(`/${sellerId}/orders`, order('nope')), 404, 'ReferenceNotFound');
    expectError(await v(15).get(`/${sellerId}/orders/x/advanced`), 400, 'TypeMismatch');
    expectError(await v(15).get(`/${sellerId}/orders/9/advanced`), 404, 'NotFound');
    expectError(
      await v(15).post(`/${sellerId}/orders`, { ...order(), treasurerName: '' }),
      400,
      'ValueNotValid',
      'SIZE_SHOULD_BE_IN_RANGE',
    );
  });

  it('a product deleted after the order leaves the line with productInfo null', async () => {
    const sellerId = await stockedSeller();
    await v(15).put(`/${sellerId}/products/tea`, product({ name: 'Tea' }));
    await v(15).post(`/${sellerId}/orders`, { treasurerName: 'Bo', orderItems: [{ productIdentifier: 'tea', delta: 1 }] });
    await v(15).del(`/${sellerId}/products/tea`);
    expect((await v(15).get(`/${sellerId}/orders/1/advanced`)).body).toMatchObject({
      orderItems: [{ productIdentifier: 'tea', productInfo: null }],
    });
  });
});

describe('commodities advanced', () => {
  it('v15 /commodities/advanced puts the product in `product` and adds categoryInfo', async () => {
    const sellerId = await stockedSeller();
    await v(15).put(`/${sellerId}/commodities/c`, { product: 'coffee', category: 'drinks' });
    expect((await v(15).get(`/${sellerId}/commodities/advanced`)).body).toEqual([
      {
        identifier: 'c',
        deleted: false,
        category: 'drinks',
        custom: null,
        product: { identifier: 'coffee', deleted: false, ...product(), description: null, articleType: 'GOODS', custom: null },
        categoryInfo: { identifier: 'drinks', deleted: false, name: 'Drinks' },
      },
    ]);
  });

  it.each(SINCE_26)(
    'v%i /commodities-advanced gives productAdvancedInfo {product, tax, images} and categoryInfo',
    async (api) => {
      const sellerId = await stockedSeller();
      await v(api).put(`/${sellerId}/commodities/c`, { product: 'coffee', category: 'drinks', color: 3 });
      expect((await v(api).get(`/${sellerId}/commodities-advanced?like=c&orderBy=product`)).body).toEqual([
        {
          identifier: 'c',
          deleted: false,
          product: 'coffee',
          category: 'drinks',
          custom: null,
          color: 3,
          productAdvancedInfo: {
            product: {
              identifier: 'coffee',
              deleted: false,
              ...product(),
              description: null,
              articleType: 'GOODS',
              custom: null,
            },
            tax: { identifier: 'moms', deleted: false, vat: 25, name: 'Moms', custom: null },
            images: [],
          },
          categoryInfo: { identifier: 'drinks', deleted: false, name: 'Drinks', color: null },
        },
      ]);
    },
  );
});

describe('modifications (v26, v33)', () => {
  it.each(SINCE_26)('v%i: the kinds changed since `from`, with counts; `to` defaults to the current version', async (api) => {
    const sellerId = await stockedSeller();
    const from = await version(sellerId);
    await v(33).put(`/${sellerId}/taxes/low`, { vat: 6, name: 'Low' });
    await v(33).put(`/${sellerId}/taxes/gone`, { vat: 6, name: 'Gone' });
    await v(33).del(`/${sellerId}/taxes/gone`);
    await v(33).put(`/${sellerId}/categories/food`, { name: 'Food' });
    const answer = await v(api).get(`/${sellerId}/modifications?from=${from}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      from,
      to: from + 4,
      version: from + 4,
      modifications: [
        { entity: 'taxes', changed: 2, deleted: 1 },
        { entity: 'categories', changed: 1, deleted: 0 },
      ],
    });
    expect((await v(api).get(`/${sellerId}/modifications?from=${from}&to=${from + 1}`)).body).toMatchObject({
      modifications: [{ entity: 'taxes', changed: 1, deleted: 0 }],
    });
    expect((await v(api).get(`/${sellerId}/modifications?from=0`)).body).toMatchObject({
      modifications: expect.arrayContaining([{ entity: 'seller', changed: 1, deleted: 0 }]),
    });
  });

  it('no `from` is 400 RequestParameterMissing; a bad one 400 TypeMismatch; `to` ahead is 409; v15 has none', async () => {
    const sellerId = await newSeller();
    expectError(await v(33).get(`/${sellerId}/modifications`), 400, 'RequestParameterMissing');
    expectError(await v(33).get(`/${sellerId}/modifications?from=a`), 400, 'TypeMismatch');
    expectError(await v(26).get(`/${sellerId}/modifications?from=-1`), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
    expectError(
      await v(33).get(`/${sellerId}/modifications?from=0&to=99`),
      409,
      'InconsistentData',
      'LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY',
    );
    expectError(await v(15).get(`/${sellerId}/modifications?from=0`), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expectError(await v(33).get(`/SE5599999998/modifications?from=0`), 404, 'NotFound');
  });
});

describe('catalog lists', () => {
  it('page in identifier order (ascending and descending) without deleted entities; like and orderBy sort the rest', async () => {
    const sellerId = await newSeller();
    for (const id of ['b', 'a', 'd', 'c', 'e'])
      await v(33).put(`/${sellerId}/categories/${id}`, { name: `Name ${5 - 'abcde'.indexOf(id)}` });
    await v(33).del(`/${sellerId}/categories/b`);
    const ids = async (query: string) =>
      ((await v(26).get(`/${sellerId}/categories${query}`)).body as { identifier: string }[]).map((item) => item.identifier);

    expect(await ids('')).toEqual(['a', 'c', 'd', 'e']);
    expect(await ids('?firstResult=1&maxResults=2')).toEqual(['c', 'd']);
    expect(await ids('?orderBy=identifier&orderDesc=true&maxResults=3')).toEqual(['e', 'd', 'c']);
    expect(await ids('?firstResult=4')).toEqual([]);
    expect(await ids('?maxResults=0')).toEqual([]);
    expect(await ids('?orderBy=name')).toEqual(['e', 'd', 'c', 'a']);
    expect(await ids('?like=NAME 2&orderBy=name')).toEqual(['d']);
    expectError(await v(26).get(`/${sellerId}/categories?maxResults=1001`), 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
    expectError(await v(26).get(`/${sellerId}/categories?orderBy=color`), 400, 'TypeMismatch');
    expectError(await v(26).get(`/SE5599999997/categories`), 404, 'NotFound');
  });
});

describe('diffs of a deleted seller', () => {
  it.each(ALL)('v%i: a deleted seller has no diffs to sync: 404, as its version', async (api) => {
    const sellerId = await stockedSeller();
    expect((await v(api).get(`/${sellerId}/taxes-diff/0/1`)).status).toBe(200);
    expect((await v(33).del(`/sellers/${sellerId}`)).status).toBe(204);
    expectError(await v(api).get(`/${sellerId}/version`), 404, 'NotFound');
    expectError(await v(api).get(`/${sellerId}/taxes-diff/0/1`), 404, 'NotFound');
    expectError(await v(api).get(`/${sellerId}/products-diff/0/1`), 404, 'NotFound');
    expectError(await v(api).get(`/${sellerId}/seller-images-diff/0/1`), 404, 'ReferenceNotFound');
  });
});
