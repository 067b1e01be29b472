/**
 * The export worker (docs/conventions.md §28): started asynchronously by the route that made the job, it writes the
 * job's file into the export store, gzipped as it is made, and records how the job ended. It answers nothing over
 * HTTP; a job's state is read from its record.
 */
import { ApiError, internalError } from '#shared/errors.ts';
import {
  claimExport,
  type ExportEvent,
  type ExportJob,
  type ExportOutcome,
  finishExport,
  readExport,
} from '#shared/exports/jobs.ts';
import { writeGzipped } from '#shared/exports/gzip-file.ts';
import { exportStore } from '#shared/exports/store.ts';
import { errorBody } from '#shared/http/response.ts';
import { type ExportFile, journalFile } from './journal.ts';
import { salesCsvFile } from './sales-csv.ts';

/** What each kind of export writes. */
const FILES: Record<ExportJob['kind'], (job: ExportJob) => Promise<ExportFile>> = {
  journal: journalFile,
  'sales-csv': salesCsvFile,
};

/**
 * Runs the job once: a second delivery of its event, or an event past its deadline, finds it claimed and does nothing.
 * Never throws: a job it could not record as ended reads FAILED at its deadline, and the failure is in the log line.
 */
export async function handler(event: ExportEvent): Promise<{ id: string; status: string }> {
  try {
    if (!(await claimExport(event))) return { id: event.id, status: 'SKIPPED' };
    const job = await readExport(event.pk, event.kind, event.id);
    if (!job) return { id: event.id, status: 'SKIPPED' };
    const outcome = await written(job);
    await finishExport(event.pk, job, outcome);
    console.log(JSON.stringify({ job: 'export', kind: job.kind, id: job.id, status: outcome.status }));
    return { id: job.id, status: outcome.status };
  } catch (error) {
    console.error(JSON.stringify({ job: 'export', kind: event.kind, id: event.id, failure: String(error) }));
    return { id: event.id, status: 'UNRECORDED' };
  }
}

/** The file's chunks, failing at their end when the file is empty: the store then keeps nothing of it. */
async function* whole(file: ExportFile): AsyncGenerator<string> {
  yield* file.chunks;
  if (file.fileName() === undefined) throw file.empty?.() ?? new Error('the export wrote nothing');
}

/** The job's file written, or the error the synchronous route would have answered (any other failure: a 500's body). */
async function written(job: ExportJob): Promise<ExportOutcome> {
  const objectKey = `${job.kind}/${job.id}.gz`;
  try {
    const file = await FILES[job.kind](job);
    const { bytes, sha256 } = await writeGzipped(exportStore(), objectKey, whole(file));
    return { status: 'DONE', bytes, sha256, objectKey, fileName: file.fileName() ?? '' };
  } catch (error) {
    if (error instanceof ApiError) return { status: 'FAILED', error: errorBody(error) };
    console.error(JSON.stringify({ job: 'export', id: job.id, failure: String(error) }));
    return { status: 'FAILED', error: errorBody(internalError(error)) };
  }
}
