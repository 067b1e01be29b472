import type * as S3 from './s3-upload-sdk.ts';
import { config } from '#shared/config.ts';
import { attachment } from '#shared/http/response.ts';
import { EXPORT_CONTENT_TYPE, type ExportStore } from './store.ts';

let loaded: Promise<{ sdk: typeof S3; client: S3.S3Client }> | undefined;

/** The SDK and client, loaded on first use: only the worker and the reads of a finished export need them. */
function s3() {
  loaded ??= import('./s3-upload-sdk.ts').then((sdk) => ({ sdk, client: new sdk.S3Client({ region: config().region }) }));
  return loaded;
}

/** S3's least part but the last: parts are sent at 8 MiB, so a file of any length holds at most one part in memory. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Export files in their private bucket (infra/exports.yml): written as a multipart upload a part at a time, aborted
 * when the chunks fail (the bucket's lifecycle rule also removes uploads left incomplete); read through a pre-signed
 * GET. The worker's role may only put objects there; the roles that answer a finished export may only get them.
 */
export function s3ExportStore(bucket: string): ExportStore {
  return {
    async write(key, chunks) {
      const { sdk, client } = await s3();
      const { UploadId } = await client.send(
        new sdk.CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: EXPORT_CONTENT_TYPE }),
      );
      const parts: { ETag: string; PartNumber: number }[] = [];
      const send = async (body: Buffer) => {
        const PartNumber = parts.length + 1;
        const { ETag } = await client.send(
          new sdk.UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: body }),
        );
        parts.push({ ETag: ETag ?? '', PartNumber });
      };
      try {
        let pending: Buffer[] = [];
        let size = 0;
        for await (const chunk of chunks) {
          pending.push(chunk);
          size += chunk.length;
          if (size >= PART_BYTES) {
            await send(Buffer.concat(pending, size));
            pending = [];
            size = 0;
          }
        }
        if (size > 0 || parts.length === 0) await send(Buffer.concat(pending, size));
        await client.send(
          new sdk.CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
        );
      } catch (error) {
        await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }));
        throw error;
      }
    },
    async link(key, fileName, seconds) {
      const { sdk, client } = await s3();
      const expires = Date.now() + seconds * 1000;
      const command = new sdk.GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentDisposition: attachment(fileName),
      });
      return { url: await sdk.getSignedUrl(client, command, { expiresIn: seconds }), expires };
    },
  };
}
