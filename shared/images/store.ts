import { localStore } from './local-store.ts';
import { s3Store } from './s3-store.ts';

/** The bytes of one stored object and the media type they were stored with. */
export interface StoredObject {
  bytes: Buffer;
  contentType: string;
}

/**
 * Where image bytes live (DESIGN.md: S3 in AWS, a folder locally). Keys are opaque `/`-separated
 * names; an object is written once and never overwritten, so no adapter needs versioning.
 */
export interface ImageStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Undefined when no object has the key. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing one is no error. */
  delete(key: string): Promise<void>;
}

/** The image store's settings: `IMAGE_STORE` picks the adapter, `IMAGE_BUCKET` or `IMAGE_DIR` says where. */
export type ImageStorage = { store: 's3'; bucket: string } | { store: 'local'; dir: string };

/**
 * The settings, checked: a missing or unknown value fails with the variable's name. Read when the store
 * is first used (as the activation signer's are), so functions that store no image need none of them.
 */
export function imageStorage(env: Readonly<Record<string, string | undefined>> = process.env): ImageStorage {
  const { IMAGE_STORE: store, IMAGE_BUCKET: bucket, IMAGE_DIR: dir } = env;
  if (store === 's3') {
    if (!bucket) throw new Error('Environment variable IMAGE_BUCKET is required when IMAGE_STORE is s3');
    return { store, bucket };
  }
  if (store === 'local') {
    if (!dir) throw new Error('Environment variable IMAGE_DIR is required when IMAGE_STORE is local');
    return { store, dir };
  }
  throw new Error(`Environment variable IMAGE_STORE must be s3 or local, not ${store ? `'${store}'` : 'unset'}`);
}

let chosen: ImageStore | undefined;

/** The process's image store, chosen by `IMAGE_STORE` here and nowhere else. */
export function imageStore(): ImageStore {
  if (chosen) return chosen;
  const settings = imageStorage();
  chosen = settings.store === 's3' ? s3Store(settings.bucket) : localStore(settings.dir);
  return chosen;
}
