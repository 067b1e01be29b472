import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ExportStore } from './store.ts';

/** The local stack's export files: a folder, and links to the stack's file server signed with the run's key. */
export interface LocalExportSettings {
  dir: string;
  urlBase: string;
  secret: string;
}

const signatureOf = (secret: string, key: string, expires: number, fileName: string) =>
  createHmac('sha256', secret).update(`${key}\n${expires}\n${fileName}`).digest('hex');

/** An object key as a path under the folder: keys are `<kind>/<id>.gz`, nothing else reaches here. */
const pathOf = (dir: string, key: string) => join(dir, ...key.split('/'));

export function localExportStore({ dir, urlBase, secret }: LocalExportSettings): ExportStore {
  return {
    async write(key, chunks) {
      const path = pathOf(dir, key);
      mkdirSync(dirname(path), { recursive: true });
      // Written beside the final name and renamed once whole, as S3 shows a multipart object only once completed.
      const partial = `${path}.partial`;
      try {
        await pipeline(chunks, createWriteStream(partial));
        renameSync(partial, path);
      } catch (error) {
        rmSync(partial, { force: true });
        throw error;
      }
    },
    async link(key, fileName, seconds) {
      const expires = Date.now() + seconds * 1000;
      const query = new URLSearchParams({ expires: String(expires), filename: fileName });
      query.set('signature', signatureOf(secret, key, expires, fileName));
      return { url: `${urlBase}/${key}?${query}`, expires };
    },
  };
}

/** Why a local link is refused, as S3 refuses a pre-signed URL (403 with its code), or the file it names. */
export type LocalLinkCheck =
  { refused: 'SignatureDoesNotMatch' | 'AccessDenied' | 'NoSuchKey'; message: string } | { path: string; fileName: string };

/** Checks a link made by `localExportStore().link` (the stack's file server, infra/local/export-files.ts). */
export function checkLocalLink(
  settings: LocalExportSettings,
  pathname: string,
  query: URLSearchParams,
  now = Date.now(),
): LocalLinkCheck {
  const key = decodeURIComponent(pathname.replace(/^\//, ''));
  const expires = Number(query.get('expires'));
  const fileName = query.get('filename') ?? '';
  const given = Buffer.from(query.get('signature') ?? '', 'utf8');
  const expected = Buffer.from(signatureOf(settings.secret, key, expires, fileName), 'utf8');
  if (!/^[a-z-]+\/[0-9a-f]+\.gz$/.test(key) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      refused: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  }
  if (!Number.isSafeInteger(expires) || now > expires) return { refused: 'AccessDenied', message: 'Request has expired' };
  return { path: pathOf(settings.dir, key), fileName };
}
