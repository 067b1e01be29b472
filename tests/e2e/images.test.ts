/**
 * Images (spec 4.6) over HTTP, as a register uses them: raw image bytes up (PUT, POST), the same bytes
 * down (GET current, GET by version), image records in lists and diffs, in every version that has them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUserIfAbsent } from '#shared/auth/users.ts';
import { db } from '#shared/db/client.ts';
import { updateItem } from '#shared/db/documents.ts';
import { ALL_VERSIONS, type ApiVersion } from '#shared/versions.ts';
import { type Answer, detailOf, expectError, newSeller, v } from '../support/http.ts';
import { sellerKeys } from '#shared/domain/seller.ts';

// ---- Bytes and calls -----------------------------------------------------------------------------

const MAGIC: Record<string, readonly number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff, 0xe0],
  'image/webp': [...Buffer.from('RIFF'), 0x24, 0x00, 0x00, 0x00, ...Buffer.from('WEBPVP8 ')],
  'image/gif': [...Buffer.from('GIF89a')],
};

/** An image of the type: its magic number, then random bytes (every byte value, invalid UTF-8 included). */
const imageOf = (size = 4096, type = 'image/png') => {
  const magic = Buffer.from(MAGIC[type] ?? []);
  return Buffer.concat([magic, randomBytes(size - magic.length)]);
};

const MAX_BYTES = 2 * 1024 * 1024;

interface Sent extends Answer {
  bytes: Buffer;
}

/** One call with a raw body (or none) as a register makes it; the admin's credentials. */
async function send(
  method: string,
  path: string,
  options: { bytes?: Buffer; type?: string; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const { username, password } = inject('admin');
  const headers: Record<string, string> = {
    Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
    ...(options.type === undefined ? {} : { 'Content-Type': options.type }),
    ...options.headers,
  };
  const response = await fetch(`${inject('baseUrl')}${path}`, { method, headers, body: options.bytes });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  const json = text !== '' && (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : undefined, text, bytes };
}

const put = (path: string, bytes: Buffer, type = 'image/png', headers: Record<string, string> = {}) =>
  send('PUT', path, { bytes, type, headers });
const post = (path: string, bytes: Buffer, type = 'image/png') => send('POST', path, { bytes, type });
const get = (path: string, headers: Record<string, string> = {}) => send('GET', path, { headers });
const del = (path: string, headers: Record<string, string> = {}) => send('DELETE', path, { headers });

/** The seller's version (`GET /{sellerId}/version`), which counts image changes too. */
const versionOf = async (sellerId: string) => ((await v(33).get(`/${sellerId}/version`)).body as { version: number }).version;

const etagOf = (answer: Answer) => Number(JSON.parse(answer.headers.get('etag') ?? 'null'));

/** Asserts what a client sees of an image reply: status, the very bytes, their type and the version's ETag. */
function expectImage(answer: Sent, bytes: Buffer, type: string, version: number): void {
  expect({ status: answer.status, type: answer.headers.get('content-type'), etag: answer.headers.get('etag') }).toEqual({
    status: 200,
    type,
    etag: `"${version}"`,
  });
  expect(answer.bytes.equals(bytes)).toBe(true);
}

// ---- Owners: the seller's own images, a category's, a product's ---------------------------------

interface Scope {
  name: string;
  versions: readonly ApiVersion[];
  /** Versions with POST. */
  postVersions: readonly ApiVersion[];
  /** A new seller and, where the images hang on one, a live category or product; answers the paths. */
  prepare(): Promise<{ sellerId: string; base: string; entityIdentifier: string; diff: string }>;
  /** A missing owner, for ReferenceNotFound (a seller id no one has, or an identifier never created). */
  missing(sellerId: string): string;
}

async function newCategory(sellerId: string): Promise<string> {
  const answer = await v(33).post(`/${sellerId}/categories`, { name: 'Bröd' });
  if (answer.status !== 201) throw new Error(`category not created: ${answer.status} ${answer.text}`);
  return (answer.body as { identifier: string }).identifier;
}

async function newProduct(sellerId: string): Promise<string> {
  await v(33).put(`/${sellerId}/taxes/moms`, { vat: 12, name: 'Moms' });
  const answer = await v(33).post(`/${sellerId}/products`, {
    name: 'Kanelbulle',
    barcode: '7310000000001',
    netto: 2500,
    tax: 'moms',
    salesUnit: 'Piece',
    countedInPrice: true,
  });
  if (answer.status !== 201) throw new Error(`product not created: ${answer.status} ${answer.text}`);
  return (answer.body as { identifier: string }).identifier;
}

const SCOPES: Scope[] = [
  {
    name: "the seller's images",
    versions: ALL_VERSIONS,
    postVersions: [26, 33],
    prepare: async () => {
      const sellerId = await newSeller();
      return { sellerId, base: `/${sellerId}/images`, entityIdentifier: sellerId, diff: `/${sellerId}/seller-images-diff` };
    },
    missing: () => '/SE000000000/images',
  },
  {
    name: "a category's images",
    versions: [26, 33],
    postVersions: [26, 33],
    prepare: async () => {
      const sellerId = await newSeller();
      const category = await newCategory(sellerId);
      return {
        sellerId,
        base: `/${sellerId}/categories/${category}/images`,
        entityIdentifier: category,
        diff: `/${sellerId}/category-images-diff`,
      };
    },
    missing: (sellerId) => `/${sellerId}/categories/no-such-category/images`,
  },
  {
    name: "a product's images",
    versions: ALL_VERSIONS,
    postVersions: [26, 33],
    prepare: async () => {
      const sellerId = await newSeller();
      const product = await newProduct(sellerId);
      return {
        sellerId,
        base: `/${sellerId}/products/${product}/images`,
        entityIdentifier: product,
        diff: `/${sellerId}/product-images-diff`,
      };
    },
    missing: (sellerId) => `/${sellerId}/products/no-such-product/images`,
  },
];

const CASES = SCOPES.flatMap((scope) => scope.versions.map((api) => ({ scope, api, label: `${scope.name} in v${api}` })));

describe.each(CASES)('$label', ({ scope, api }) => {
  const at = (path: string) => `/v${api}${path}`;

  it('PUT creates (201 with its name, ETag of the new version); GET current answers the same bytes, type and ETag', async () => {
    const { sellerId, base } = await scope.prepare();
    const bytes = imageOf(50_000);
    const before = await versionOf(sellerId);

    const created = await put(at(`${base}/current/logo.png`), bytes);

    expect({ status: created.status, body: created.body }).toEqual({ status: 201, body: { identifier: 'logo.png' } });
    expect(etagOf(created)).toBe(before + 1);
    expect(await versionOf(sellerId)).toBe(before + 1);
    expectImage(await get(at(`${base}/current/logo.png`)), bytes, 'image/png', before + 1);
  });

  it('PUT over an image replaces it (204); GET current has the new bytes', async () => {
    const { base } = await scope.prepare();
    const first = imageOf(3000);
    const second = imageOf(5000, 'image/jpeg');
    await put(at(`${base}/current/logo`), first);

    const replaced = await put(at(`${base}/current/logo`), second, 'image/jpeg');

    expect(replaced.status).toBe(204);
    expectImage(await get(at(`${base}/current/logo`)), second, 'image/jpeg', etagOf(replaced));
  });

  if (api === 15) {
    it('GET .../images/version/{file} answers the current image record with its ETag (v15 imageVersionType)', async () => {
      const { base, entityIdentifier } = await scope.prepare();
      const written = await put(at(`${base}/current/logo.png`), imageOf());
      const version = etagOf(written);

      const answer = await get(at(`${base}/version/logo.png`));

      expect(answer.status).toBe(200);
      expect(answer.headers.get('etag')).toBe(`"${version}"`);
      expect(answer.body).toEqual({
        deleted: false,
        filename: 'logo.png',
        version,
        entityIdentifier,
        modified: expect.any(Number),
      });
      expect((await get(at(`${base}/version/logo.png`), { 'If-None-Match': `"${version}"` })).status).toBe(304);
      expectError(await get(at(`${base}/${version}/logo.png`)), 400, 'TypeMismatch');
    });
  } else {
    it('GET by version answers the bytes of that version, after an overwrite and after a delete', async () => {
      const { base } = await scope.prepare();
      const first = imageOf(3000);
      const second = imageOf(4000, 'image/webp');
      const v1 = etagOf(await put(at(`${base}/current/logo`), first));
      const v2 = etagOf(await put(at(`${base}/current/logo`), second, 'image/webp'));

      expectImage(await get(at(`${base}/${v1}/logo`)), first, 'image/png', v1);
      expectImage(await get(at(`${base}/${v2}/logo`)), second, 'image/webp', v2);
      await del(at(`${base}/current/logo`));
      expectImage(await get(at(`${base}/${v1}/logo`)), first, 'image/png', v1);
      expectError(await get(at(`${base}/${v2 + 1}/logo`)), 404, 'NotFound');
      expectError(await get(at(`${base}/version/logo`)), 400, 'TypeMismatch');
    });
  }

  it('DELETE answers 204; then GET current is 404 NotFound and a second DELETE is 404 NotFound', async () => {
    const { sellerId, base } = await scope.prepare();
    await put(at(`${base}/current/gone.gif`), imageOf(100, 'image/gif'), 'image/gif');
    const before = await versionOf(sellerId);

    const deleted = await del(at(`${base}/current/gone.gif`));

    expect(deleted.status).toBe(204);
    expect(await versionOf(sellerId)).toBe(before + 1);
    expectError(await get(at(`${base}/current/gone.gif`)), 404, 'NotFound');
    expectError(await del(at(`${base}/current/gone.gif`)), 404, 'NotFound');
  });

  it('the list shows the current images by file name, deleted ones left out; it pages and searches', async () => {
    const { sellerId, base, entityIdentifier } = await scope.prepare();
    for (const name of ['c.png', 'a.png', 'Öl ☕.png', 'b.png'])
      await put(at(`${base}/current/${encodeURIComponent(name)}`), imageOf(200));
    await del(at(`${base}/current/c.png`));
    const list = async (query = '') => (await get(at(`${base}${query}`))).body as unknown[];

    if (api === 15) {
      // Paths a register GETs as they are: `/v15/...`, each segment percent-encoded.
      const paths = [`${base}/current/a.png`, `${base}/current/b.png`, `${base}/current/%C3%96l%20%E2%98%95.png`];
      expect(await list()).toEqual(paths.map((path) => `/v15${path}`));
      const [first] = (await list()) as string[];
      expect((await get(first ?? '')).status).toBe(200);
    } else {
      const version = await versionOf(sellerId);
      expect(await list()).toEqual(
        ['a.png', 'b.png', 'Öl ☕.png'].map((filename) => ({
          deleted: false,
          filename,
          version: expect.any(Number),
          entityIdentifier,
          modified: expect.any(Number),
        })),
      );
      expect(((await list()) as { version: number }[]).every((image) => image.version < version)).toBe(true);
    }
    expect(await list('?maxResults=1&firstResult=1')).toHaveLength(1);
    expect(await list('?like=öL')).toHaveLength(1);
    expect(await list('?maxResults=0')).toEqual([]);
  });

  it('the diff returns the image records whose version v has from < v <= to, deletions as deleted: true', async () => {
    const { sellerId, base, entityIdentifier, diff } = await scope.prepare();
    const start = await versionOf(sellerId);
    await put(at(`${base}/current/a.png`), imageOf());
    await put(at(`${base}/current/b.png`), imageOf());
    const middle = await versionOf(sellerId);
    await put(at(`${base}/current/a.png`), imageOf());
    await del(at(`${base}/current/b.png`));
    const end = await versionOf(sellerId);
    const record = (filename: string, version: number, deleted = false) => ({
      deleted,
      filename,
      version,
      entityIdentifier,
      modified: expect.any(Number),
    });

    expect((await get(at(`${diff}/${middle}/${end}`))).body).toEqual([record('a.png', middle + 1), record('b.png', end, true)]);
    expect((await get(at(`${diff}/${start}/${middle}`))).body).toEqual([]);
    expect((await get(at(`${diff}/${end}/${end}`))).body).toEqual([]);
    expectError(await get(at(`${diff}/0/${end + 1}`)), 409, 'InconsistentData', 'LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY');
    expectError(await get(at(`${diff}/x/1`)), 400, 'TypeMismatch');
    expectError(await get(at(`${diff}/-1/1`)), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
  });

  it('ETags: If-None-Match of the current version is 304; a stale If-Match is 409 VersionConflict and changes nothing', async () => {
    const { sellerId, base } = await scope.prepare();
    const bytes = imageOf();
    const etag = `"${etagOf(await put(at(`${base}/current/logo.png`), bytes))}"`;

    const unchanged = await get(at(`${base}/current/logo.png`), { 'If-None-Match': etag });
    expect({ status: unchanged.status, body: unchanged.bytes.length, etag: unchanged.headers.get('etag') }).toEqual({
      status: 304,
      body: 0,
      etag,
    });

    expect((await put(at(`${base}/current/logo.png`), imageOf(), 'image/png', { 'If-Match': etag })).status).toBe(204);
    const before = await versionOf(sellerId);
    expectError(await put(at(`${base}/current/logo.png`), imageOf(), 'image/png', { 'If-Match': etag }), 409, 'VersionConflict');
    expectError(await del(at(`${base}/current/logo.png`), { 'If-Match': etag }), 409, 'VersionConflict');
    expectError(await put(at(`${base}/current/new.png`), imageOf(), 'image/png', { 'If-Match': '*' }), 409, 'VersionConflict');
    expect(await versionOf(sellerId)).toBe(before);
    expect((await get(at(`${base}/current/logo.png`), { 'If-None-Match': etag })).status).toBe(200);
  });

  it('If-None-Match: * makes a PUT create-only: a second one is 409 VersionConflict and keeps the first bytes', async () => {
    const { base } = await scope.prepare();
    const first = imageOf();
    const created = await put(at(`${base}/current/offline.png`), first, 'image/png', { 'If-None-Match': '*' });
    expect(created.status).toBe(201);
    expectError(
      await put(at(`${base}/current/offline.png`), imageOf(), 'image/png', { 'If-None-Match': '*' }),
      409,
      'VersionConflict',
    );
    expectImage(await get(at(`${base}/current/offline.png`)), first, 'image/png', etagOf(created));
  });

  if (scope.postVersions.includes(api)) {
    it('POST stores a new image: a generated file name without ?filename, the given one with it; a taken name is 409', async () => {
      const { base } = await scope.prepare();
      const bytes = imageOf(1000, 'image/webp');

      const generated = await post(at(base), bytes, 'image/webp');
      expect(generated.status).toBe(201);
      const { identifier } = generated.body as { identifier: string };
      expect(identifier).toMatch(/^[0-9a-f-]{36}\.webp$/);
      expectImage(await get(at(`${base}/current/${identifier}`)), bytes, 'image/webp', etagOf(generated));

      const named = await post(at(`${base}?filename=menu.png`), imageOf());
      expect({ status: named.status, body: named.body }).toEqual({ status: 201, body: { identifier: 'menu.png' } });
      expectError(await post(at(`${base}?filename=menu.png`), imageOf()), 409, 'VersionConflict');
      expectError(await post(at(`${base}?filename=a%3Ab.png`), imageOf()), 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    });
  } else {
    it('has no POST: 405 RequestMethodNotSupported', async () => {
      const { base } = await scope.prepare();
      const answer = await post(at(base), imageOf());
      expectError(answer, 405, 'RequestMethodNotSupported');
      expect(answer.headers.get('allow')).toBe('GET');
    });
  }

  it('images of an owner that does not exist are 404 ReferenceNotFound, and nothing is written', async () => {
    const { sellerId } = await scope.prepare();
    const missing = scope.missing(sellerId);
    const before = await versionOf(sellerId);

    expectError(await put(at(`${missing}/current/logo.png`), imageOf()), 404, 'ReferenceNotFound');
    expectError(await get(at(`${missing}/current/logo.png`)), 404, 'ReferenceNotFound');
    expectError(await del(at(`${missing}/current/logo.png`)), 404, 'ReferenceNotFound');
    expectError(await get(at(missing)), 404, 'ReferenceNotFound');
    expect(await versionOf(sellerId)).toBe(before);
  });
});

describe('images of deleted categories and products', () => {
  it.each([
    ['categories', newCategory],
    ['products', newProduct],
  ] as const)('after DELETE /%s/{id}, its images answer 404 ReferenceNotFound and cannot be written', async (plural, create) => {
    const sellerId = await newSeller();
    const identifier = await create(sellerId);
    const base = `/v33/${sellerId}/${plural}/${identifier}/images`;
    const written = await put(`${base}/current/logo.png`, imageOf());
    expect(written.status).toBe(201);

    expect((await v(33).del(`/${sellerId}/${plural}/${identifier}`)).status).toBe(204);

    expectError(await put(`${base}/current/logo.png`, imageOf()), 404, 'ReferenceNotFound');
    expectError(await put(`${base}/current/other.png`, imageOf()), 404, 'ReferenceNotFound');
    expectError(await get(`${base}/current/logo.png`), 404, 'ReferenceNotFound');
    expectError(await get(`${base}/${etagOf(written)}/logo.png`), 404, 'ReferenceNotFound');
    expectError(await get(base), 404, 'ReferenceNotFound');
    // The image itself is left: it is still in the diff as it was.
    const kind = plural === 'categories' ? 'category' : 'product';
    const diff = (await get(`/v33/${sellerId}/${kind}-images-diff/0/${await versionOf(sellerId)}`)).body;
    expect(diff).toEqual([expect.objectContaining({ filename: 'logo.png', deleted: false, entityIdentifier: identifier })]);
  });

  it('category images do not exist in v15: 404 ENDPOINT_NOT_FOUND', async () => {
    const sellerId = await newSeller();
    const category = await newCategory(sellerId);
    expectError(await get(`/v15/${sellerId}/categories/${category}/images`), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
    expectError(await get(`/v15/${sellerId}/category-images-diff/0/1`), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
  });
});

describe('image uploads', () => {
  it.each(['image/png', 'image/jpeg', 'image/webp', 'image/gif'])('a %s goes up and comes back byte for byte', async (type) => {
    const sellerId = await newSeller();
    const bytes = imageOf(200_000, type);
    const written = await put(`/v33/${sellerId}/images/current/picture`, bytes, type);
    expect(written.status).toBe(201);
    expectImage(await get(`/v33/${sellerId}/images/current/picture`), bytes, type, etagOf(written));
  });

  it('image/jpg (sent by some cameras) is taken as image/jpeg; parameters and the case of the subtype do not matter', async () => {
    const sellerId = await newSeller();
    const bytes = imageOf(1000, 'image/jpeg');
    expect((await put(`/v26/${sellerId}/images/current/a.jpg`, bytes, 'image/jpg')).status).toBe(201);
    expect((await get(`/v26/${sellerId}/images/current/a.jpg`)).headers.get('content-type')).toBe('image/jpeg');
    expect((await put(`/v26/${sellerId}/images/current/b.png`, imageOf(), 'image/PNG; name=b.png')).status).toBe(201);
  });

  it('an image of exactly 2 MiB is taken; one byte more is 413 RequestEntityTooLarge and changes nothing', async () => {
    const sellerId = await newSeller();
    const largest = imageOf(MAX_BYTES);
    const written = await put(`/v33/${sellerId}/images/current/big.png`, largest);
    expect(written.status).toBe(201);
    expectImage(await get(`/v33/${sellerId}/images/current/big.png`), largest, 'image/png', etagOf(written));
    const before = await versionOf(sellerId);

    const tooLarge = await put(`/v33/${sellerId}/images/current/big.png`, imageOf(MAX_BYTES + 1));

    expectError(tooLarge, 413, 'RequestEntityTooLarge');
    expect(detailOf(tooLarge)).toMatchObject({ sizeMax: MAX_BYTES });
    expect(await versionOf(sellerId)).toBe(before);
  });

  it.each([
    ['PNG bytes sent as image/jpeg', imageOf(1000), 'image/jpeg'],
    ['JPEG bytes sent as image/png', imageOf(1000, 'image/jpeg'), 'image/png'],
    ['text sent as image/gif', Buffer.from('GIF? no, just text'), 'image/gif'],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
    ['JSON', Buffer.from('{"name":"x"}'), 'application/json'],
    ['octets', imageOf(1000), 'application/octet-stream'],
  ])('%s is 400 MessageNotReadable and changes nothing', async (_, bytes, type) => {
    const sellerId = await newSeller();
    const before = await versionOf(sellerId);
    expectError(await put(`/v33/${sellerId}/images/current/x.png`, bytes, type), 400, 'MessageNotReadable');
    expectError(await post(`/v33/${sellerId}/images`, bytes, type), 400, 'MessageNotReadable');
    expect(await versionOf(sellerId)).toBe(before);
  });

  it('an empty body is 400 MessageNotReadable', async () => {
    const sellerId = await newSeller();
    expectError(await put(`/v15/${sellerId}/images/current/x.png`, Buffer.alloc(0)), 400, 'MessageNotReadable');
  });

  it.each([
    ['f'.repeat(51), 'SIZE_SHOULD_BE_IN_RANGE'],
    ['CON', 'SHOULD_MATCH_PATTERN'],
    ['a%3Bb.png', 'SHOULD_MATCH_PATTERN'],
    ['a*b.png', 'SHOULD_MATCH_PATTERN'],
  ])('a file name %s is 400 ValueNotValid %s', async (filename, code) => {
    const sellerId = await newSeller();
    const answer = await put(`/v26/${sellerId}/images/current/${filename}`, imageOf());
    expectError(answer, 400, 'ValueNotValid', code);
    expect(detailOf(answer)).toMatchObject({ field: 'pictureFilename' });
    expectError(await get(`/v26/${sellerId}/images/current/${filename}`), 400, 'ValueNotValid', code);
  });

  it('a file name of 50 characters is taken', async () => {
    const sellerId = await newSeller();
    expect((await put(`/v26/${sellerId}/images/current/${'f'.repeat(50)}`, imageOf())).status).toBe(201);
  });

  it('a version that is no number is 400 TypeMismatch; a negative one 409 QUERY_PARAM_CANT_BE_NEGATIVE; an unknown one 404', async () => {
    const sellerId = await newSeller();
    await put(`/v33/${sellerId}/images/current/a.png`, imageOf());
    expectError(await get(`/v33/${sellerId}/images/latest/a.png`), 400, 'TypeMismatch');
    expectError(await get(`/v33/${sellerId}/images/-1/a.png`), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
    expectError(await get(`/v33/${sellerId}/images/999999/a.png`), 404, 'NotFound');
    expectError(await get(`/v15/${sellerId}/images/latest/a.png`), 400, 'TypeMismatch');
  });

  it('a malformed If-Match is 400 InvalidETagFormat and changes nothing', async () => {
    const sellerId = await newSeller();
    await put(`/v33/${sellerId}/images/current/a.png`, imageOf());
    const before = await versionOf(sellerId);
    expectError(
      await put(`/v33/${sellerId}/images/current/a.png`, imageOf(), 'image/png', { 'If-Match': 'W/"1"' }),
      400,
      'InvalidETagFormat',
    );
    expect(await versionOf(sellerId)).toBe(before);
  });

  it('an image GET carries X-Content-Type-Options: nosniff, so a browser never reads it as another type', async () => {
    const sellerId = await newSeller();
    await put(`/v33/${sellerId}/images/current/a.png`, imageOf());
    expect((await get(`/v33/${sellerId}/images/current/a.png`)).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a seller that does not exist: writes, reads, lists and diffs are 404 ReferenceNotFound', async () => {
    expectError(await put('/v33/SE000000000/images/current/a.png', imageOf()), 404, 'ReferenceNotFound');
    expectError(await post('/v33/SE000000000/images', imageOf()), 404, 'ReferenceNotFound');
    expectError(await get('/v33/SE000000000/images/current/a.png'), 404, 'ReferenceNotFound');
    expectError(await get('/v33/SE000000000/images/1/a.png'), 404, 'ReferenceNotFound');
    expectError(await get('/v33/SE000000000/images'), 404, 'ReferenceNotFound');
    expectError(await get('/v33/SE000000000/seller-images-diff/0/0'), 404, 'ReferenceNotFound');
    expectError(await get('/v33/SE000000000/product-images-diff/0/0'), 404, 'ReferenceNotFound');
  });

  it('without credentials every image endpoint is 401, before anything about the body', async () => {
    const answer = await fetch(`${inject('baseUrl')}/v33/SE5560360793/images/current/a.png`, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
      body: imageOf(),
    });
    expect(answer.status).toBe(401);
  });
});

// ---- In-process: the API Gateway v2 event itself -------------------------------------------------

/** Every file under `dir`, recursively: the local store's objects (and their media types). */
const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();

describe('the images handler fed a real API Gateway v2 event (base64 body)', () => {
  const context = { awsRequestId: 'test', functionName: 'test' } as Context;
  const fixture = (): APIGatewayProxyEventV2 =>
    JSON.parse(readFileSync(new URL('../fixtures/http-api-v2-put-image-base64.json', import.meta.url), 'utf8'));
  let handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
  let sellerId: string;
  let imageDir: string;

  beforeAll(async () => {
    // This process stores in a folder of its own; serverless-offline has another.
    imageDir = mkdtempSync(join(tmpdir(), 'images-test-'));
    Object.assign(process.env, { IMAGE_STORE: 'local', IMAGE_DIR: imageDir });
    await createUserIfAbsent({
      username: 'fixture',
      password: 'fixture-password',
      email: 'fixture@example.com',
      role: 'HYPER_ADMIN',
      softwareVendor: null,
      sellers: [],
    });
    sellerId = await newSeller();
    ({ handler } = await import('#functions/images/handler.ts'));
  });
  afterAll(() => rmSync(imageDir, { recursive: true, force: true }));

  const eventFor = (method: string, path: string, change: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 => {
    const event = fixture();
    return {
      ...event,
      rawPath: path,
      requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method, path } },
      ...change,
    };
  };

  it('decodes the base64 body, stores the bytes, and answers them base64-encoded with isBase64Encoded', async () => {
    const event = fixture();
    const path = `/v33/${sellerId}/images/current/logo.png`;

    const written = await handler(eventFor('PUT', path), context);
    const read = await handler(eventFor('GET', path, { body: undefined, isBase64Encoded: false }), context);

    expect(written.statusCode).toBe(201);
    expect({
      status: read.statusCode,
      base64: read.isBase64Encoded,
      type: read.headers?.['Content-Type'],
      body: read.body,
    }).toEqual({
      status: 200,
      base64: true,
      type: 'image/png',
      body: event.body,
    });
  });

  it('a product deleted after the check but before the write commits: 404 ReferenceNotFound, nothing written or kept', async () => {
    // Prepare: a live product, and a "concurrent delete" that lands just before the image's transaction.
    const product = await newProduct(sellerId);
    const productKey = sellerKeys.catalog(sellerId, 'PRODUCT', product);
    const path = `/v33/${sellerId}/products/${product}/images/current/race.png`;
    const before = await versionOf(sellerId);
    const objectsBefore = filesIn(imageDir);
    db().middlewareStack.add(
      (next, { commandName }) =>
        async (args) => {
          if (commandName === 'TransactWriteItemsCommand') {
            await updateItem({
              TableName: inject('tableName'),
              Key: productKey,
              UpdateExpression: 'SET deleted = :true',
              ExpressionAttributeValues: { ':true': true },
            });
          }
          return next(args);
        },
      { step: 'initialize', name: 'concurrentDelete' },
    );

    // Act
    const result = await handler(eventFor('PUT', path), context).finally(() => db().middlewareStack.remove('concurrentDelete'));

    // Assess
    expect({ status: result.statusCode, exception: JSON.parse(result.body ?? 'null').exception }).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
    });
    expect(await versionOf(sellerId)).toBe(before);
    expect(filesIn(imageDir)).toEqual(objectsBefore);
  });

  it('the media type is matched without regard to case or parameters, as HTTP says', async () => {
    const event = eventFor('PUT', `/v33/${sellerId}/images/current/upper.png`);

    const result = await handler({ ...event, headers: { ...event.headers, 'content-type': 'IMAGE/PNG; q=1' } }, context);

    expect(result.statusCode).toBe(201);
  });

  it('a body without Content-Type is 400 HttpHeaderMissing (serverless-offline would fill one in)', async () => {
    const event = eventFor('PUT', `/v33/${sellerId}/images/current/other.png`);
    const headers = { ...event.headers };
    delete headers['content-type'];

    const result = await handler({ ...event, headers }, context);

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? 'null')).toMatchObject({
      error: 'HttpHeaderMissingJsonException',
      exception: 'HttpHeaderMissing',
      details: [{ field: 'Content-Type', params: {} }],
    });
  });
});
