import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { config } from '#shared/config.ts';
import type { ImageStore } from './store.ts';

let client: S3Client | undefined;

/** The S3 client: one per process, created on first use. */
function s3(): S3Client {
  client ??= new S3Client({ region: config().region });
  return client;
}

/**
 * Images in a private S3 bucket (infra/images.yml). Encryption at rest is the bucket's default; the
 * function's role may get, put and delete objects and nothing else, so it cannot list: S3 then answers
 * a missing key with AccessDenied rather than NoSuchKey, and only keys a record names are ever read.
 */
export function s3Store(bucket: string): ImageStore {
  return {
    async put(key, bytes, contentType) {
      await s3().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }));
    },
    async get(key) {
      try {
        const object = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!object.Body) return undefined;
        return {
          bytes: Buffer.from(await object.Body.transformToByteArray()),
          contentType: object.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    async delete(key) {
      await s3().send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
