import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ExportStore } from './store.ts';

/** A written export file: its gzipped size and SHA-256 (hex). */
export interface WrittenFile {
  bytes: number;
  sha256: string;
}

/**
 * Gzips the text chunks into the store under `key` as they come, counting and hashing the gzipped bytes on their way
 * (nothing is held but gzip's window and the store's part), and says what was written.
 */
export async function writeGzipped(store: ExportStore, key: string, text: AsyncIterable<string>): Promise<WrittenFile> {
  const hash = createHash('sha256');
  let bytes = 0;
  const gzip = createGzip();
  // The text's error destroys gzip with it, and so reaches the store's read of the gzipped bytes (which then aborts).
  const fed = pipeline(Readable.from(text), gzip);
  fed.catch(() => undefined);
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of gzip as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
  }
  await store.write(key, counted());
  await fed;
  return { bytes, sha256: hash.digest('hex') };
}
