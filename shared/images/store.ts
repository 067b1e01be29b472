import { imageStorage } from '#shared/config.ts';
import { localStore } from './local-store.ts';
import { s3Store } from './s3-store.ts';

/** The bytes of one stored object and the media type they were stored with. */
export interface StoredObject {
  bytes: Buffer;
  contentType: string;
}

/**
 * Where image bytes live (S3 in AWS, a folder locally). Keys are opaque `/`-separated
 * names; an object is written once and never overwritten, so no adapter needs versioning.
 */
export interface ImageStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Undefined when no object has the key. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; removing a missing one is no error. */
  delete(key: string): Promise<void>;
}

let chosen: ImageStore | undefined;

/** The process's image store, chosen once from `IMAGE_STORE` (`imageStorage` in `shared/config.ts`). */
export function imageStore(): ImageStore {
  if (chosen) return chosen;
  const settings = imageStorage();
  chosen = settings.store === 's3' ? s3Store(settings.bucket) : localStore(settings.dir);
  return chosen;
}
