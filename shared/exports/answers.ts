/**
 * The export routes' answers (docs/conventions.md §28), for every kind: start one (or answer the running one), read
 * one with its download link, list them.
 */
import type { Page } from '#shared/db/paging.ts';
import { ApiError, notFound } from '#shared/errors.ts';
import { errorBody, ok } from '#shared/http/response.ts';
import type { Reply } from '#shared/http/types.ts';
import {
  type ExportJob,
  type ExportKind,
  type ExportParams,
  finishExport,
  listExports,
  readExport,
  startExport,
} from './jobs.ts';
import { exportStore, LINK_SECONDS } from './store.ts';
import { startWorker } from './worker.ts';

/** An export as its POST answers it. */
const started = (job: ExportJob) => ({ id: job.id, status: job.status, from: job.from, to: job.to, created: job.created });

/** An export's state; a link to its file, made now, when it is done. */
async function state(job: ExportJob) {
  const link =
    job.status === 'DONE' && job.objectKey ? await exportStore().link(job.objectKey, job.fileName ?? '', LINK_SECONDS) : null;
  return {
    ...started(job),
    finished: job.finished,
    bytes: job.status === 'DONE' ? job.bytes : null,
    sha256: job.status === 'DONE' ? job.sha256 : null,
    url: link?.url ?? null,
    expires: link?.expires ?? null,
    error: job.status === 'FAILED' ? job.error : null,
  };
}

/** The owner's export of a kind. */
export interface ExportOwner {
  pk: string;
  kind: ExportKind;
  /** The path of one of its exports, for `Location`. */
  location(id: string): string;
}

/**
 * `POST`: 202 and `Location` for an export started, its worker on its way; 200 with the export of the same period that
 * is still running. A worker that cannot be started fails the export (503, and the export reads FAILED).
 */
export async function askExport(
  owner: ExportOwner,
  period: { from: number | null; to: number | null; key: string },
  params: ExportParams,
): Promise<Reply> {
  const { job, started: isNew } = await startExport(owner.pk, owner.kind, period, params);
  if (!isNew) return ok(started(job));
  try {
    await startWorker({ pk: owner.pk, kind: owner.kind, id: job.id });
  } catch (error) {
    const refusal =
      error instanceof ApiError ? error : new ApiError('ServiceUnavailable', null, 'The export could not be started; try again');
    await finishExport(owner.pk, job, { status: 'FAILED', error: errorBody(refusal) });
    throw refusal;
  }
  return { status: 202, body: started(job), headers: { Location: owner.location(job.id) } };
}

/** `GET .../{id}`: the export's state; 404 for one the owner does not have (or whose file has expired). */
export async function exportState(owner: ExportOwner, id: string): Promise<Reply> {
  const job = await readExport(owner.pk, owner.kind, id);
  if (!job) throw notFound(`No export ${id}`);
  return ok(await state(job));
}

/** `GET`: the owner's exports, newest first. */
export async function exportList(owner: ExportOwner, page: Page): Promise<Reply> {
  const jobs = await listExports(owner.pk, owner.kind, page.firstResult, page.maxResults);
  return ok(await Promise.all(jobs.map(state)));
}
