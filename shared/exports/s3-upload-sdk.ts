/**
 * The part of the S3 SDK the export store uses: a multipart upload and a pre-signed GET. `s3-store.ts` loads it with
 * `import()` on first use, and the build makes it a self-contained file of its own (scripts/build.ts, isolated SDKs).
 */
export {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
