import type { Client } from 'openapi-fetch';
import { type ErrorBody, errorBodyOf } from './client.ts';
import type { Answer } from './etag.ts';
import type { components, paths as V33 } from './generated/v33.ts';
import { retryIdempotent } from './retry.ts';

/** An export as its POST answers it (docs/conventions.md §28). */
export type ExportJob = components['schemas']['exportJob'];
/** An export's state as `GET .../{exportId}` answers it: once `DONE`, where to download its file. */
export type ExportState = components['schemas']['exportJobState'];
export type ExportStatus = ExportState['status'];

export interface ExportOptions {
  /** The first wait before reading the export's state; doubled after each read (default 250 ms). */
  initialDelayMs?: number;
  /** The longest wait between two reads (default 10 s). */
  maxDelayMs?: number;
  /**
   * How long to wait for the export to end, from the first request (default 20 minutes: the service reads an export
   * that has not finished 16 minutes after it was made as FAILED).
   */
  timeoutMs?: number;
  /** Answer the file as downloaded, gzipped, instead of gunzipped. */
  gzipped?: boolean;
  /** Stops the wait and the requests. */
  signal?: AbortSignal;
  /** Told the export as it is started and after each read of its state (a progress line, a log). */
  onState?: (state: ExportJob) => void;
  /** Downloads the file: no credentials go with it, the link is signed (default `globalThis.fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait (tests pass one that records the delays). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A finished export and its file, whose size and SHA-256 were checked against the ones the export named. */
export interface ExportedFile {
  /** The export as it read when done: its id, period, the gzipped file's `bytes` and `sha256`, the link. */
  state: ExportState;
  /** The file: the document gunzipped, or as downloaded with `gzipped: true`. */
  bytes: Uint8Array<ArrayBuffer>;
  /** The file's name as the link names it (`<name>.xml.gz`, `<name>.csv.gz`; without `.gz` when gunzipped), if any. */
  fileName: string | undefined;
}

/**
 * Why an export gave no file: `refused` (its POST or a read answered an error: `status` and `body`), `failed` (the
 * export ended `FAILED`: `body` is its `error`, the error the synchronous route would have answered), `timeout` (still
 * running at the deadline), `download` (the link answered `status`), `integrity` (the file is not the one the export
 * named).
 */
export type ExportErrorReason = 'refused' | 'failed' | 'timeout' | 'download' | 'integrity';

export class ExportError extends Error {
  override name = 'ExportError';
  readonly reason: ExportErrorReason;
  /** The pinned error body (docs/conventions.md §3): the refusal's, or the failed export's `error`. */
  readonly body: ErrorBody | undefined;
  /** The HTTP status of a refused request or of the link. */
  readonly status: number | undefined;
  /** The export as last read, once there is one. */
  readonly state: ExportJob | undefined;

  constructor(
    reason: ExportErrorReason,
    message: string,
    details: { body?: ErrorBody | undefined; status?: number | undefined; state?: ExportJob | undefined } = {},
  ) {
    super(message);
    this.reason = reason;
    this.body = details.body;
    this.status = details.status;
    this.state = details.state;
  }
}

/** The two routes of one kind of export. */
export interface ExportRoutes {
  /** Starts the export (its POST): `202` with the new export, or `200` with the same one still running. */
  start: (signal: AbortSignal | undefined) => Promise<Answer & { data?: ExportJob }>;
  /** Reads an export's state (the POST's `Location`). */
  read: (exportId: string, signal: AbortSignal | undefined) => Promise<Answer & { data?: ExportState }>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });

/** A 5xx: a read of the state that may be made again. */
const transient = (answer: Answer) => answer.response.status >= 500;

/** An error body in a line: `InconsistentData JOURNAL_EXPORT_INCOMPLETE: <message>`. */
const said = (body: ErrorBody) => `${body.exception}${body.code ? ` ${body.code}` : ''}: ${body.message}`;

function refusal(what: string, answer: Answer, state?: ExportJob): ExportError {
  const body = errorBodyOf(answer.error);
  return new ExportError(
    'refused',
    `${what} answered ${answer.response.status} ${body ? said(body) : answer.response.statusText}`,
    {
      body,
      status: answer.response.status,
      state,
    },
  );
}

/**
 * Runs an export of any kind to its file (docs/conventions.md §28): starts it (or, given `exportId`, takes that one),
 * reads its state after 250 ms, 500 ms, ... doubling up to 10 s until it is `DONE` or `FAILED`, downloads the file
 * from its link, checks its size and SHA-256 against the state's and gunzips it. A read answered 5xx, or lost in the
 * network, is made again at the next step; a `FAILED` export, a refusal and a file other than the one named throw an
 * `ExportError`. A link that fails is asked for once more (each read of the state gives a new one).
 */
export async function runExport(
  routes: ExportRoutes,
  options: ExportOptions & { exportId?: string } = {},
): Promise<ExportedFile> {
  const { initialDelayMs = 250, maxDelayMs = 10_000, timeoutMs = 20 * 60_000, signal, wait = sleep } = options;
  const deadline = Date.now() + timeoutMs;
  let job: ExportJob | undefined;
  let id = options.exportId;
  if (id === undefined) {
    // The POST may be sent again: while the export runs, the same one asked again answers it, never a second job.
    const started = await retryIdempotent(() => routes.start(signal), { wait: (ms) => wait(ms, signal) });
    if (started.data === undefined) throw refusal('the export', started);
    job = started.data;
    id = job.id;
    options.onState?.(job);
  }

  const read = async (): Promise<ExportState | undefined> => {
    let answer: Answer & { data?: ExportState };
    try {
      answer = await routes.read(id, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      return undefined;
    }
    if (answer.data !== undefined) return answer.data;
    if (transient(answer)) return undefined;
    throw refusal(`export ${id}`, answer, job);
  };

  // A new export is first read after a wait; one given by id at once, as it may have ended long ago.
  let waitFirst = job !== undefined;
  for (let delay = initialDelayMs; ; waitFirst = true) {
    if (waitFirst) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new ExportError('timeout', `export ${id} still ${job?.status ?? 'unread'} after ${timeoutMs} ms`, { state: job });
      }
      await wait(Math.min(delay, left), signal);
      delay = Math.min(delay * 2, maxDelayMs);
    }
    const state = await read();
    if (state === undefined) continue;
    job = state;
    options.onState?.(state);
    if (state.status === 'FAILED') {
      const body = state.error ?? undefined;
      throw new ExportError('failed', `export ${id} failed: ${body ? said(body) : 'no reason given'}`, {
        body,
        state,
      });
    }
    if (state.status !== 'DONE') continue;
    try {
      return await download(state, options);
    } catch (error) {
      if (!(error instanceof ExportError) || error.reason !== 'download') throw error;
      // The link may have run out, or the connection broken: a fresh read gives a fresh link, tried once.
      const again = await read();
      if (again?.status !== 'DONE') throw error;
      return await download(again, options);
    }
  }
}

async function download(state: ExportState, options: ExportOptions): Promise<ExportedFile> {
  const fetchFile = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  let response: Response;
  try {
    response = await fetchFile(new Request(state.url ?? '', { signal: options.signal }));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ExportError('download', `export ${state.id}: its link failed: ${(error as Error).message}`, { state });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ExportError('download', `export ${state.id}: its link answered ${response.status}`, {
      status: response.status,
      state,
    });
  }
  const gzipped = new Uint8Array(await response.arrayBuffer());
  const sha256 = hex(await crypto.subtle.digest('SHA-256', gzipped));
  if (gzipped.byteLength !== state.bytes || sha256 !== state.sha256) {
    throw new ExportError(
      'integrity',
      `export ${state.id}: the file downloaded has ${gzipped.byteLength} bytes of SHA-256 ${sha256}, the export named ${state.bytes} of ${state.sha256}`,
      { state },
    );
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  if (options.gzipped) return { state, bytes: gzipped, fileName: named };
  return { state, bytes: await gunzip(gzipped), fileName: named?.replace(/\.gz$/, '') };
}

const hex = (digest: ArrayBuffer) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Gunzips with the platform's DecompressionStream (Node 18+, browsers), so the client needs no zlib. */
async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A Date as the API takes it: milliseconds since the epoch. */
const millis = (date: Date | number | undefined) => (date instanceof Date ? date.getTime() : date);

export interface JournalExport {
  sellerId: string;
  /** The register's name. */
  cash: string;
  /** The first instant exported (absent: the journal's start). */
  from?: Date | number;
  /** The last instant exported (absent: the time the export is made). */
  to?: Date | number;
  /** Download this export of the register instead of starting one. */
  exportId?: string;
}

/**
 * A register's journal for a period as Skatteverket's SKVFS 2021:16 document, made as a job (v33
 * `POST /{sellerId}/registrations/{cash}/journal-exports`, docs/conventions.md §28), however long the period: `bytes`
 * is the XML document. The caller is the register (its API key) or a user with access to the seller.
 *
 * ```ts
 * const year = await exportJournal(client, { sellerId, cash, from: new Date('2025-01-01T00:00+01:00') });
 * await writeFile(year.fileName ?? 'journal.xml', year.bytes);
 * ```
 */
export function exportJournal(client: Client<V33>, order: JournalExport, options: ExportOptions = {}): Promise<ExportedFile> {
  const path = { sellerId: order.sellerId, cash: order.cash };
  return runExport(
    {
      start: (signal) =>
        client.POST('/v33/{sellerId}/registrations/{cash}/journal-exports', {
          params: { path },
          body: { from: millis(order.from), to: millis(order.to) },
          signal,
        }),
      read: (exportId, signal) =>
        client.GET('/v33/{sellerId}/registrations/{cash}/journal-exports/{exportId}', {
          params: { path: { ...path, exportId } },
          signal,
        }),
    },
    { ...options, exportId: order.exportId },
  );
}

export interface SalesCsvExport {
  sellerId: string;
  /** Days ending on the day the export is asked for, in the seller's time zone (default 1). */
  period?: number;
  /** The first day covered (instead of `period`). */
  from?: Date | number;
  /** The last day covered (instead of `period`). */
  to?: Date | number;
  /** Only this register. */
  cashRegisterName?: string;
  /** The file's name without `.csv` (an identifier; default `sales`). */
  fileName?: string;
  /** Download this export of the seller instead of starting one. */
  exportId?: string;
}

/**
 * A seller's sales as the bookkeeper's CSV of `GET /{sellerId}/sales/stats/csv` for the same parameters, without its
 * 20,000 rows, made as a job (v33 `POST /{sellerId}/sales/stats/csv-exports`, docs/conventions.md §28): `bytes` is the
 * CSV, `fileName` `<fileName>.csv`. The caller is a user with access to the seller or one of its registers.
 */
export function exportSalesCsv(client: Client<V33>, order: SalesCsvExport, options: ExportOptions = {}): Promise<ExportedFile> {
  const { sellerId, exportId, from, to, ...rest } = order;
  return runExport(
    {
      start: (signal) =>
        client.POST('/v33/{sellerId}/sales/stats/csv-exports', {
          params: { path: { sellerId } },
          body: { ...rest, from: millis(from), to: millis(to) },
          signal,
        }),
      read: (id, signal) =>
        client.GET('/v33/{sellerId}/sales/stats/csv-exports/{exportId}', {
          params: { path: { sellerId, exportId: id } },
          signal,
        }),
    },
    { ...options, exportId },
  );
}
