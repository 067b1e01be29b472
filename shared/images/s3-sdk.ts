/**
 * The part of the S3 SDK the image store uses. `s3-store.ts` loads it with `import()` on first use, and
 * the build makes it a self-contained file of its own (scripts/build.ts, isolated SDKs): only what is named
 * here is bundled into it.
 */
export { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
