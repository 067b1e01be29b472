/**
 * Export jobs (docs/conventions.md §28): a file too long for one HTTP answer, written by the export worker in the
 * background and fetched from the export store. A job lives in its owner's partition (a register's for its journal, a
 * seller's for its sales CSV) beside a running marker per period, so that the same export asked again while it runs
 * answers the running job instead of starting a second one.
 */
import { randomBytes } from 'node:crypto';
import { table } from '#shared/db/client.ts';
import { deleteItem, getItem, queryItems, updateItem } from '#shared/db/documents.ts';
import { type Key, pad } from '#shared/db/keys.ts';
import { commit, create, writeIf } from '#shared/db/transact.ts';
import { ApiError } from '#shared/errors.ts';
import { type ErrorBody, errorBody } from '#shared/http/response.ts';

/** What an export writes: a register's journal as SKVFS 2021:16 XML, or a seller's sales as CSV. */
export type ExportKind = 'journal' | 'sales-csv';
export type ExportStatus = 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';

/** The parameters a worker needs beyond the owner, as the route stored them (strings, numbers, null). */
export type ExportParams = Record<string, string | number | null>;

/** A job as stored. */
export interface ExportJob {
  id: string;
  kind: ExportKind;
  status: ExportStatus;
  /** The period asked (Dates; null: not bounded on that side). */
  from: number | null;
  to: number | null;
  params: ExportParams;
  /** The period as its running marker names it. */
  periodKey: string;
  created: number;
  started: number | null;
  finished: number | null;
  /** When the job reads as failed if it has not finished: the worker's timeout after `created`, and a margin. */
  deadline: number;
  /** DONE: the file's gzipped size and SHA-256 (hex), its key in the store and the name it is downloaded under. */
  bytes: number | null;
  sha256: string | null;
  objectKey: string | null;
  fileName: string | null;
  /** FAILED: the error body the synchronous route would have answered. */
  error: ErrorBody | null;
  /** Epoch seconds: the table's time to live removes the record once its file has expired (infra/table.yml). */
  expiresAt: number;
}

/** The worker's event: which job to run. */
export interface ExportEvent {
  pk: string;
  kind: ExportKind;
  id: string;
}

/** How long the worker may run (its Lambda timeout, serverless.yml), and the margin after which a job reads as failed. */
export const WORKER_TIMEOUT_SECONDS = 900;
const DEADLINE_MARGIN_MS = 60_000;
/** How long an export's file and record are kept (the bucket's lifecycle rule expires the file, infra/exports.yml). */
export const EXPORT_RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;

const JOB_PREFIX = 'EXPORT#';
const RUNNING_PREFIX = 'EXPORTING#';

export const exportKeys = {
  job: (pk: string, kind: ExportKind, id: string): Key<ExportJob> => ({ pk, sk: `${JOB_PREFIX}${kind}#${id}` }),
  /** The marker of the period's running export: names its job while it is PENDING or RUNNING. */
  running: (pk: string, kind: ExportKind, period: string): Key<RunningMarker> => ({
    pk,
    sk: `${RUNNING_PREFIX}${kind}#${period}`,
  }),
};

interface RunningMarker {
  id: string;
  deadline: number;
  expiresAt: number;
}

/** A new job's id: its creation time first (ids sort as the jobs were made), then 8 random hex digits. */
const newId = (now: number) => `${pad(now)}${randomBytes(4).toString('hex')}`;

/** Epoch seconds of a Date plus the retention. */
const expiry = (at: number) => Math.ceil((at + EXPORT_RETENTION_DAYS * DAY_MS) / 1000);

/** A job whose time is up reads as FAILED, whatever its record says (its worker ended without a word). */
export function current(job: ExportJob, now = Date.now()): ExportJob {
  const unfinished = job.status === 'PENDING' || job.status === 'RUNNING';
  if (!unfinished || now <= job.deadline) return job;
  return {
    ...job,
    status: 'FAILED',
    finished: job.deadline,
    error: errorBody(new ApiError('InternalServerError', null, 'The export did not finish in time; ask for it again')),
  };
}

/**
 * Starts the export of `period` (its text names it in the running marker), or answers the one of the same period that
 * is PENDING or RUNNING: `started` says which. The job and its marker are written in one transaction, the marker only
 * if none is live, so two requests at once start one job.
 */
export async function startExport(
  pk: string,
  kind: ExportKind,
  period: { from: number | null; to: number | null; key: string },
  params: ExportParams,
): Promise<{ job: ExportJob; started: boolean }> {
  return commit<{ job: ExportJob; started: boolean }>(async () => {
    const now = Date.now();
    const runningKey = exportKeys.running(pk, kind, period.key);
    const marker = await readConsistent<RunningMarker>(runningKey);
    if (marker && marker.deadline >= now) {
      const running = await readConsistent<ExportJob>(exportKeys.job(pk, kind, marker.id));
      const status = running && current(running, now).status;
      if (running && (status === 'PENDING' || status === 'RUNNING'))
        return { steps: [], result: { job: running, started: false } };
    }
    const id = newId(now);
    const deadline = now + WORKER_TIMEOUT_SECONDS * 1000 + DEADLINE_MARGIN_MS;
    const job: ExportJob = {
      id,
      kind,
      status: 'PENDING',
      from: period.from,
      to: period.to,
      params,
      periodKey: period.key,
      created: now,
      started: null,
      finished: null,
      deadline,
      bytes: null,
      sha256: null,
      objectKey: null,
      fileName: null,
      error: null,
      expiresAt: expiry(deadline),
    };
    const runningMarker = { ...runningKey, id, deadline, expiresAt: expiry(deadline) };
    return {
      steps: [
        create({ ...exportKeys.job(pk, kind, id), ...job }),
        // Taken unless a live marker holds it: the one read, of an export that has ended, may be replaced; one taken
        // meanwhile is decided again.
        {
          write: {
            Put: {
              TableName: table(),
              Item: runningMarker,
              ConditionExpression: 'attribute_not_exists(pk) OR deadline < :now OR id = :ended',
              ExpressionAttributeValues: { ':now': now, ':ended': marker?.id ?? '' },
            },
          },
        },
      ],
      result: { job, started: true },
    };
  }, 'retry-all');
}

async function readConsistent<T>(key: Key<T>): Promise<(T & Key) | undefined> {
  const { Item } = await getItem({ TableName: table(), Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true });
  return Item as (T & Key) | undefined;
}

/** The job, as it reads now; undefined when there is none (or its record has expired). */
export async function readExport(pk: string, kind: ExportKind, id: string): Promise<ExportJob | undefined> {
  const job = await readConsistent<ExportJob>(exportKeys.job(pk, kind, id));
  if (!job || job.expiresAt * 1000 < Date.now()) return undefined;
  return current(job);
}

/** The owner's jobs of a kind, newest first, `skip` then at most `take` (the record expired left out). */
export async function listExports(pk: string, kind: ExportKind, skip: number, take: number): Promise<ExportJob[]> {
  const now = Date.now();
  const jobs: ExportJob[] = [];
  let seen = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryItems({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': `${JOB_PREFIX}${kind}#` },
      ScanIndexForward: false,
      ConsistentRead: true,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    for (const item of (page.Items ?? []) as ExportJob[]) {
      if (item.expiresAt * 1000 < now) continue;
      seen += 1;
      if (seen > skip) jobs.push(current(item, now));
      if (jobs.length === take) return jobs;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return jobs;
}

/** The worker's claim of a PENDING job before its deadline: false when another delivery of the event has it. */
export function claimExport(event: ExportEvent): Promise<boolean> {
  const now = Date.now();
  return writeIf(() =>
    updateItem({
      TableName: table(),
      Key: exportKeys.job(event.pk, event.kind, event.id),
      UpdateExpression: 'SET #status = :running, started = :now',
      ConditionExpression: '#status = :pending AND deadline >= :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'RUNNING', ':pending': 'PENDING', ':now': now },
    }),
  );
}

/** How a job ended: its file, or the error the synchronous route would have answered. */
export type ExportOutcome =
  { status: 'DONE'; bytes: number; sha256: string; objectKey: string; fileName: string } | { status: 'FAILED'; error: ErrorBody };

/**
 * Records the job's end (only while it is unfinished: a job past its deadline already reads as failed, and keeps that)
 * and frees its period's marker if the marker still names it.
 */
export async function finishExport(pk: string, job: ExportJob, outcome: ExportOutcome): Promise<void> {
  const now = Date.now();
  const fields = outcome.status === 'DONE' ? { ...outcome, error: null } : { ...outcome };
  const names = Object.keys(fields);
  await writeIf(() =>
    updateItem({
      TableName: table(),
      Key: exportKeys.job(pk, job.kind, job.id),
      UpdateExpression: `SET ${[...names, 'finished', 'expiresAt'].map((name) => `#${name} = :${name}`).join(', ')}`,
      ConditionExpression: '#status IN (:pending, :running)',
      ExpressionAttributeNames: Object.fromEntries([...names, 'finished', 'expiresAt'].map((name) => [`#${name}`, name])),
      ExpressionAttributeValues: {
        ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [`:${name}`, value])),
        ':finished': now,
        ':expiresAt': expiry(now),
        ':pending': 'PENDING',
        ':running': 'RUNNING',
      },
    }),
  );
  await writeIf(() =>
    deleteItem({
      TableName: table(),
      Key: exportKeys.running(pk, job.kind, job.periodKey),
      ConditionExpression: 'id = :id',
      ExpressionAttributeValues: { ':id': job.id },
    }),
  );
}
