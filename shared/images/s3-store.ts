import type * as S3 from './s3-sdk.ts';
import { config } from '#shared/config.ts';
import type { ImageStore } from './store.ts';

let loaded: Promise<{ sdk: typeof S3; client: S3.S3Client }> | undefined;

/**
 * The S3 SDK and client: one per process, loaded on first use. A lazy import (a chunk of its own in the
 * bundle) keeps the SDK out of the cold start of the routes that never touch image bytes.
 */
function s3() {
  loaded ??= import('./s3-sdk.ts').then((sdk) => ({ sdk, client: new sdk.S3Client({ region: config().region }) }));
  return loaded;
}

/**
 * Images in a private S3 bucket (infra/images.yml). Encryption at rest is the bucket's default; the
 * function's role may get, put and delete objects and nothing else, so it cannot list: S3 then answers
 * a missing key with AccessDenied rather than NoSuchKey, and only keys a record names are ever read.
 */
export function s3Store(bucket: string): ImageStore {
  return {
    async put(key, bytes, contentType) {
      const { sdk, client } = await s3();
      await client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }));
    },
    async get(key) {
      const { sdk, client } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!object.Body) return undefined;
        return {
          bytes: Buffer.from(await object.Body.transformToByteArray()),
          contentType: object.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (error instanceof sdk.NoSuchKey) return undefined;
        throw error;
      }
    },
    async delete(key) {
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
