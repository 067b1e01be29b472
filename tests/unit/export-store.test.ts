/**
 * The export store (docs/conventions.md §28) without a network: S3's multipart upload as the SDK's commands see it
 * (parts of 8 MiB but the last, in order; aborted when the chunks fail), the pre-signed GET's query as SigV4 writes it,
 * the local folder and the links it signs, and the gzipped writing that counts and hashes what it stores.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeGzipped } from '#shared/exports/gzip-file.ts';
import { checkLocalLink, localExportStore } from '#shared/exports/local-store.ts';
import { s3ExportStore } from '#shared/exports/s3-store.ts';

const MIB = 1024 * 1024;

async function* chunksOf(buffers: readonly Buffer[], failAfter?: number): AsyncGenerator<Buffer> {
  for (const [index, buffer] of buffers.entries()) {
    if (index === failAfter) throw new Error('the journal read failed');
    yield buffer;
  }
}

describe('the S3 export store', () => {
  const s3 = mockClient(S3Client);
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  beforeAll(() => {
    // Pre-signing needs credentials, not a network: any pair signs.
    process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
  });
  afterEach(() => s3.reset());
  afterAll(() => {
    s3.restore();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it('sends 8 MiB parts as they fill, the rest last, and completes the upload with them in order', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-1' });
    s3.on(UploadPartCommand).callsFake((input: { PartNumber: number }) => ({ ETag: `"etag-${input.PartNumber}"` }));
    s3.on(CompleteMultipartUploadCommand).resolves({});
    const buffers = Array.from({ length: 20 }, () => randomBytes(MIB));

    await s3ExportStore('exports-bucket').write('journal/1.gz', chunksOf(buffers));

    const created = s3.commandCalls(CreateMultipartUploadCommand)[0]?.args[0].input;
    expect(created).toEqual({ Bucket: 'exports-bucket', Key: 'journal/1.gz', ContentType: 'application/gzip' });
    const parts = s3.commandCalls(UploadPartCommand).map((call) => call.args[0].input);
    expect(parts.map((part) => [part.PartNumber, (part.Body as Buffer).length])).toEqual([
      [1, 8 * MIB],
      [2, 8 * MIB],
      [3, 4 * MIB],
    ]);
    expect(Buffer.concat(parts.map((part) => part.Body as Buffer)).equals(Buffer.concat(buffers))).toBe(true);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)[0]?.args[0].input.MultipartUpload).toEqual({
      Parts: [1, 2, 3].map((n) => ({ ETag: `"etag-${n}"`, PartNumber: n })),
    });
    expect(s3.commandCalls(AbortMultipartUploadCommand)).toHaveLength(0);
  });

  it('aborts the upload when the chunks fail, and throws their error', async () => {
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'up-2' });
    s3.on(UploadPartCommand).resolves({ ETag: '"e"' });
    s3.on(AbortMultipartUploadCommand).resolves({});
    const buffers = Array.from({ length: 12 }, () => randomBytes(MIB));

    await expect(s3ExportStore('exports-bucket').write('journal/2.gz', chunksOf(buffers, 10))).rejects.toThrow(
      'the journal read failed',
    );

    expect(s3.commandCalls(AbortMultipartUploadCommand)[0]?.args[0].input).toEqual({
      Bucket: 'exports-bucket',
      Key: 'journal/2.gz',
      UploadId: 'up-2',
    });
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
  });

  it('links to a GET of the object for 15 minutes, downloaded under its name', async () => {
    const before = Date.now();
    const link = await s3ExportStore('exports-bucket').link('journal/3.gz', 'Export.xml.gz', 900);

    const url = new URL(link.url);
    expect(url.pathname).toBe('/journal/3.gz');
    expect(url.hostname.startsWith('exports-bucket.')).toBe(true);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="Export.xml.gz"');
    expect(link.expires).toBeGreaterThanOrEqual(before + 900_000);
  });
});

describe('the local export store and its links', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exports-'));
  const settings = { dir, urlBase: 'http://localhost:1234', secret: 'the-run-key' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the gzipped text, and says its size and SHA-256', async () => {
    const store = localExportStore(settings);
    async function* text() {
      yield '<a>';
      yield 'å'.repeat(100_000);
      yield '</a>';
    }

    const written = await writeGzipped(store, 'journal/0001.gz', text());

    const file = readFileSync(join(dir, 'journal', '0001.gz'));
    expect(written).toEqual({ bytes: file.length, sha256: createHash('sha256').update(file).digest('hex') });
    expect(gunzipSync(file).toString('utf8')).toBe(`<a>${'å'.repeat(100_000)}</a>`);
  });

  it('keeps nothing of a file whose text fails', async () => {
    const store = localExportStore(settings);
    async function* text() {
      yield 'x'.repeat(1_000_000);
      throw new Error('JOURNAL_EXPORT_INCOMPLETE');
    }

    await expect(writeGzipped(store, 'journal/0002.gz', text())).rejects.toThrow('JOURNAL_EXPORT_INCOMPLETE');

    expect(readdirSync(join(dir, 'journal'))).toEqual(['0001.gz']);
    expect(existsSync(join(dir, 'journal', '0002.gz.partial'))).toBe(false);
  });

  it('signs links that work until they expire, and refuses one altered or aimed outside the folder', async () => {
    const link = new URL((await localExportStore(settings).link('journal/0001.gz', 'Export.xml.gz', 900)).url);
    const expires = Number(link.searchParams.get('expires'));
    const check = (url: URL, now = Date.now()) => checkLocalLink(settings, url.pathname, url.searchParams, now);

    expect(check(link)).toEqual({ path: join(dir, 'journal', '0001.gz'), fileName: 'Export.xml.gz' });
    expect(check(link, expires + 1)).toEqual({ refused: 'AccessDenied', message: 'Request has expired' });
    const renamed = new URL(link);
    renamed.searchParams.set('filename', 'other.xml.gz');
    expect(check(renamed)).toMatchObject({ refused: 'SignatureDoesNotMatch' });
    const outside = new URL(link);
    outside.pathname = '/journal/../../etc/passwd';
    expect(check(outside)).toMatchObject({ refused: 'SignatureDoesNotMatch' });
    expect(checkLocalLink({ ...settings, secret: 'another-run' }, link.pathname, link.searchParams)).toMatchObject({
      refused: 'SignatureDoesNotMatch',
    });
  });
});
