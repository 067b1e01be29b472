import type { ApiError } from '#shared/errors.ts';
import type { ExportJob } from '#shared/exports/jobs.ts';
import { emptyExport, periodExport } from '#shared/fiscal/journal-export.ts';

/**
 * A file being made: its text chunks, then its name; a file that can be empty says so by its name (undefined), and
 * `empty` is the error it then is.
 */
export interface ExportFile {
  chunks: AsyncIterable<string>;
  fileName(): string | undefined;
  empty?(): ApiError;
}

/** A register's journal of the job's period as Skatteverket's document, the synchronous route's (`periodExport`). */
export async function journalFile(job: ExportJob): Promise<ExportFile> {
  const register = { sellerId: String(job.params.sellerId), cash: String(job.params.cash) };
  const made = await periodExport(register, { from: job.from, to: job.to }, Date.now());
  return { chunks: made.chunks, fileName: () => made.fileName() && `${made.fileName()}.gz`, empty: () => emptyExport(register) };
}
