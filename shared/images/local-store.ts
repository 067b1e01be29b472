import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageStore } from './store.ts';

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The local stage's stand-in for S3: one file per object under `dir`, and its media type beside it.
 * Files are named by the SHA-256 of the key, so keys that differ only in case stay apart on
 * case-insensitive file systems, and no key can name a path outside `dir`.
 */
export function localStore(dir: string): ImageStore {
  const pathOf = (key: string) => {
    const hash = createHash('sha256').update(key).digest('hex');
    return join(dir, hash.slice(0, 2), hash);
  };
  return {
    async put(key, bytes, contentType) {
      const path = pathOf(key);
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(`${path}.type`, contentType);
      // Written beside and renamed over, so a reader never sees half an object.
      const temporary = `${path}.${randomUUID()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    },
    async get(key) {
      const path = pathOf(key);
      try {
        const [bytes, contentType] = await Promise.all([readFile(path), readFile(`${path}.type`, 'utf8')]);
        return { bytes, contentType };
      } catch (error) {
        if (missing(error)) return undefined;
        throw error;
      }
    },
    async delete(key) {
      const path = pathOf(key);
      await Promise.all([rm(path, { force: true }), rm(`${path}.type`, { force: true })]);
    },
  };
}
