import { exportStorage } from '#shared/config.ts';
import { localExportStore } from './local-store.ts';
import { s3ExportStore } from './s3-store.ts';

/** What a download link says: where to GET the file, and until when (a Date). */
export interface DownloadLink {
  url: string;
  expires: number;
}

/**
 * Where export files live (a private S3 bucket in AWS, a folder locally). A file is written once, from chunks as they
 * come, never held whole; it is fetched only through a short-lived link, never through the API itself.
 */
export interface ExportStore {
  /** Writes the object from `chunks`; when they fail, nothing of it is left and their error is thrown. */
  write(key: string, chunks: AsyncIterable<Buffer>): Promise<void>;
  /** A GET of the object, downloaded as `fileName`, for `seconds`. */
  link(key: string, fileName: string, seconds: number): Promise<DownloadLink>;
}

/** How long a download link works. */
export const LINK_SECONDS = 15 * 60;
/** What an export file is: its gzipped bytes, downloaded as such (the client gunzips). */
export const EXPORT_CONTENT_TYPE = 'application/gzip';

let chosen: ExportStore | undefined;

/** The process's export store, chosen once from `EXPORT_STORE` (`exportStorage` in shared/config.ts). */
export function exportStore(): ExportStore {
  if (chosen) return chosen;
  const settings = exportStorage();
  chosen = settings.store === 's3' ? s3ExportStore(settings.bucket) : localExportStore(settings);
  return chosen;
}
