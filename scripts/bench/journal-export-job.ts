/**
 * The bench's journal-export-job row (`BENCH_ONLY=journal-export-job`, docs/conventions.md §28): a register on a
 * control unit selling SALES_A_DAY receipts a day for BENCH_JOB_DAYS days (365 unless told), its year exported as
 * one job, beside a job of its last SHORT_DAYS days. The register is real (its seller, application and activation
 * made through the handlers); its journal, the only thing of its own the export reads, is seeded straight into the
 * table as the routes journal it (`seedJournal`, scripts/bench/journal-export.ts: every kd's request and outcome,
 * each sale POST's entries with its receipt, each close with its Z report and the Z report's print, the hour markers
 * a period's read starts from, the counter at the journal's head), with parallel BatchWriteItem.
 *
 * Each job runs as in AWS: `POST .../journal-exports` by the register (its API key) to the fiscal handler in-process;
 * the handler starts the worker with Lambda's Invoke (InvocationType Event) at LAMBDA_ENDPOINT, which this row
 * serves itself and answers 202 as Lambda does; each invocation runs the worker (functions/exports/handler.ts) in a
 * child process of its own, as a cold Lambda would (scripts/bench/journal-export-job-child.ts: wall, CPU, RSS and
 * heap sampled every 50 ms and at each GC, the kernel's peak RSS, the DynamoDB calls); the row polls `GET
 * .../journal-exports/{id}` until DONE and downloads the file at the link it answers, from the local stack's file
 * server (infra/local/export-files.ts) over HTTP, streaming: its bytes counted and hashed against the GET's `bytes`
 * and `sha256`, gunzipped, its Handelse, Kassakvitto and ZDagrapport counted against what was seeded, and validated as
 * it comes by xmllint with --stream against Skatteverket's schemas (../shared/skvfs2021-16). The system's xmllint
 * (libxml2-utils) reads the pipe as it comes and holds nothing of the document; the project's WebAssembly build
 * (xmllint-wasm, scripts/export-schemas.ts) is handed the whole text, so it judges a year only by holding it: a 1.2 GB
 * document took it 65 s and 3.6 GB of RSS on this machine, the system's xmllint 11 s and 6 MB. The row uses the system's
 * when installed and the WebAssembly build otherwise, and says which; either must refuse a canary (the document's own
 * header and footer around a Handelse the schema lacks) for its "valid" to count.
 *
 * The row fails (after printing its table) when a job does not end DONE, the file differs from what the GET says or
 * what was seeded, xmllint finds it invalid, the worker's peak RSS passes the memory serverless.yml gives the
 * function, or the year's peak RSS passes FLAT times the short period's (memory flat in the period's length).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { memoryPages, validateXML } from 'xmllint-wasm';
import { parse } from 'yaml';
import { startExportFiles, type ExportFiles } from '#infra/local/export-files.ts';
import type { Caller, Handler, Operation, Sample } from '../bench.ts';
import type { WorkerFigures } from './journal-export-job-child.ts';
import { seedJournal, type SeededJournal } from './journal-export.ts';
import { table } from './stats.ts';
import { activateUnitRegister } from './unit-register.ts';

/** The register: the journal-export row's seller (the rows never run together), a register and unit of its own. */
const SELLER = 'SE5560360827';
const CASH = 'Year-1';
const SERIAL = 'BENCHEXPORTJOB001';
const SALES_A_DAY = 1000;
/** The long period: `BENCH_JOB_DAYS` (a shorter run for a check of the row itself), a year unless told. */
const DAYS = Math.max(2, Number(process.env.BENCH_JOB_DAYS ?? 365));
/** The short period: the register's last 30 days (fewer on a shorter run, never the whole long period). */
const SHORT_DAYS = Math.max(1, Math.min(30, Math.floor(DAYS / 4)));
/**
 * Memory flat in the period's length: the year's peak RSS at most FLAT times the short period's. A worker that streams
 * holds the runtime and its modules (about 100 MB of RSS before it reads anything), a DynamoDB page (at most 1 MB of
 * items, some MB as objects), one day's journal (the export sorts a day's events before writing them), gzip's window
 * and the store's part: none of it grows with the period. What may vary with a run's length is how far V8 lets the
 * heap grow between collections, a few tens of MB. Half the short job's peak (about 180 MB here) leaves that room,
 * about 90 MB, and no more: a worker that kept 70 bytes of each of the 1.34 million entries the year reads beyond the
 * 30 days would pass it, and one that held the document (1.1 GB of XML, 28 MB gzipped) or its entries would pass it
 * many times over.
 */
const FLAT = 1.5;
/** How long past the worker's timeout (serverless.yml) the row waits for a job before it gives up on it. */
const JOB_MARGIN_MS = 5 * 60_000;
const POLL_MS = 1000;
/** The name the fiscal function is told to invoke (EXPORT_WORKER_FUNCTION). */
const WORKER = 'cash-register-bench-exports';
const MB = 1024 * 1024;
const daysText = (days: number) => `${days} day${days === 1 ? '' : 's'}`;
/** Skatteverket's schemas, beside the repository (the journal-export row validates with the same wrapper). */
const SCHEMA = fileURLToPath(new URL('../../../shared/skvfs2021-16/validate_wrapper.xsd', import.meta.url));
const CHILD = fileURLToPath(new URL('./journal-export-job-child.ts', import.meta.url));
const SERVERLESS = new URL('../../serverless.yml', import.meta.url);

/** What the bench lends the row: its in-process invoke and events, and bulk writes. */
export interface ExportJobKit {
  invoke: (handler: Handler, method: string, path: string, status: number, body?: unknown, caller?: Caller) => Promise<Sample>;
  event: (method: string, target: string, body: unknown, caller: Caller) => APIGatewayProxyEventV2;
  batchPut: (items: readonly Record<string, unknown>[]) => Promise<void>;
  itemSize: (item: Record<string, unknown>) => number;
}

// ---- The stand-ins: Lambda's Invoke and the export files' links ---------------------------------------------------

/** A worker run: once its process ended, its figures and the end of its stderr. */
interface WorkerRun {
  ended: Promise<{ figures: WorkerFigures; stderr: string }>;
}

interface StandIns {
  dir: string;
  files: ExportFiles;
  lambda: Server;
  runs: WorkerRun[];
  children: Set<ChildProcess>;
  limitMb: number;
  timeoutMs: number;
}

let standIns: StandIns | undefined;

/** The export worker's memory and timeout as serverless.yml gives them. */
function workerFunction(): { memorySize: number; timeout: number } {
  const template = parse(readFileSync(SERVERLESS, 'utf8')) as {
    functions: Record<string, { handler?: string; memorySize?: number; timeout?: number }>;
  };
  const found = Object.values(template.functions).find((definition) => definition.handler === '.build/exports/handler.handler');
  if (found?.memorySize === undefined || found.timeout === undefined) {
    throw new Error('serverless.yml gives the export worker (.build/exports/handler.handler) no memorySize or timeout');
  }
  return { memorySize: found.memorySize, timeout: found.timeout };
}

/** Runs the worker on `event` in a process of its own, as Lambda would run an Event invocation. */
function runWorker(event: unknown, dir: string, children: Set<ChildProcess>): WorkerRun['ended'] {
  const eventFile = join(dir, `event-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(eventFile, JSON.stringify(event));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, '--expose-gc', CHILD, eventFile], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    // Only the tails are kept: the figures are the last line, a failure's cause at the end of stderr.
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out = (out + chunk.toString('utf8')).slice(-1_000_000)));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString('utf8')).slice(-20_000)));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      children.delete(child);
      rmSync(eventFile, { force: true });
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`The export worker exited with ${code ?? signal}: ${err.slice(-4000)}`));
      try {
        resolve({ figures: JSON.parse(last) as WorkerFigures, stderr: err });
      } catch {
        reject(new Error(`The export worker printed no figures: ${last.slice(0, 500)} ${err.slice(-2000)}`));
      }
    });
  });
}

const bodyOf = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * Lambda's Invoke as the fiscal function calls it (`POST /2015-03-31/functions/<name>/invocations`): an Event
 * invocation of the worker is answered 202 at once and runs the worker; anything else is refused as Lambda would.
 */
function lambdaStandIn(runs: WorkerRun[], dir: string, children: Set<ChildProcess>): Server {
  return createServer((request, response) => {
    void bodyOf(request).then((body) => {
      const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(new URL(request.url ?? '/', 'http://x').pathname);
      const refuse = (status: number, type: string, message: string) =>
        response
          .writeHead(status, { 'Content-Type': 'application/json', 'X-Amzn-ErrorType': type })
          .end(JSON.stringify({ message }));
      if (request.method !== 'POST' || !match) return refuse(404, 'UnknownOperationException', 'Unknown operation');
      const name = decodeURIComponent(match[1] ?? '');
      if (name !== WORKER) return refuse(404, 'ResourceNotFoundException', `Function not found: ${name}`);
      if (request.headers['x-amz-invocation-type'] !== 'Event') {
        return refuse(400, 'InvalidParameterValueException', 'The bench runs the worker only as an Event invocation');
      }
      const event: unknown = JSON.parse(body.toString('utf8'));
      const ended = runWorker(event, dir, children);
      // Awaited by the row; kept from being an unhandled rejection until then.
      ended.catch(() => undefined);
      runs.push({ ended });
      response.writeHead(202).end();
    });
  });
}

/**
 * The environment the export job needs, set by the bench before any handler reads its configuration: the local
 * export store in a temporary folder with its file server, and Lambda's API served here.
 */
export async function exportJobEnvironment(): Promise<Record<string, string>> {
  const { memorySize, timeout } = workerFunction();
  const dir = mkdtempSync(join(tmpdir(), 'bench-exports-'));
  const secret = randomBytes(32).toString('hex');
  const files = await startExportFiles({ dir, secret });
  const runs: WorkerRun[] = [];
  const children = new Set<ChildProcess>();
  const lambda = lambdaStandIn(runs, dir, children);
  await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', resolve));
  standIns = { dir, files, lambda, runs, children, limitMb: memorySize, timeoutMs: timeout * 1000 };
  return {
    EXPORT_STORE: 'local',
    EXPORT_DIR: dir,
    EXPORT_URL_BASE: files.url,
    EXPORT_URL_SECRET: secret,
    EXPORT_WORKER_FUNCTION: WORKER,
    LAMBDA_ENDPOINT: `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`,
  };
}

async function stopStandIns(stand: StandIns): Promise<void> {
  for (const child of stand.children) child.kill('SIGKILL');
  await new Promise<void>((resolve) => stand.lambda.close(() => resolve()));
  await stand.files.stop();
  rmSync(stand.dir, { recursive: true, force: true });
}

// ---- The file: downloaded, counted, hashed, validated as it streams -------------------------------------------------

/** Counts the elements' start tags in the text as it passes (a tag split between chunks counts once), and its bytes. */
class ElementCounter extends Transform {
  readonly counts: Record<string, number>;
  bytes = 0;
  /** The text's first bytes (the header) and its last (the footer), for the canary. */
  head = Buffer.alloc(0);
  tail = Buffer.alloc(0);
  private carry = Buffer.alloc(0);
  private readonly tags: Buffer[];
  private readonly keep: number;

  constructor(elements: readonly string[]) {
    super();
    this.counts = Object.fromEntries(elements.map((element) => [element, 0]));
    this.tags = elements.map((element) => Buffer.from(`<${element}>`));
    this.keep = Math.max(...this.tags.map((tag) => tag.length)) - 1;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    this.tail = Buffer.concat([this.tail, chunk]).subarray(-TAIL_BYTES);
    const text = Buffer.concat([this.carry, chunk]);
    this.tags.forEach((tag, index) => {
      const element = Object.keys(this.counts)[index] ?? '';
      // Only tags that end in this chunk: those wholly in the carried bytes were counted with the chunk before.
      for (let at = text.indexOf(tag); at !== -1; at = text.indexOf(tag, at + 1)) {
        if (at + tag.length > this.carry.length) this.counts[element] = (this.counts[element] ?? 0) + 1;
      }
    });
    this.carry = text.subarray(-this.keep);
    done(null, chunk);
  }
}

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 4096;

/** What a validator said: valid only when it said so (native xmllint: exit 0 and "- validates"). */
interface Verdict {
  valid: boolean;
  output: string;
}

/** A validator fed the document as it comes: `sink` takes the text, `verdict` follows its end. */
interface Lint {
  sink: Writable;
  verdict: Promise<Verdict>;
}

/** The system's xmllint, if installed: its version line, or null. */
const systemXmllint = (): string | null => {
  const probe = spawnSync('xmllint', ['--version'], { encoding: 'utf8' });
  const version = /libxml version (\d+)/.exec(probe.stderr)?.[1];
  return probe.status === 0 && version ? `libxml2 ${version}` : null;
};

/** The system's xmllint with --stream against the schemas, reading the text from a pipe as it comes. */
function nativeLint(): Lint {
  const child = spawn('xmllint', ['--noout', '--stream', '--schema', SCHEMA, '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-20_000)));
  // A document xmllint stops reading (a fatal error) ends the pipe early; its verdict says why.
  child.stdin.on('error', () => undefined);
  const verdict = new Promise<Verdict>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ valid: code === 0 && /^- validates$/m.test(output), output: output.trim() }));
  });
  return { sink: child.stdin, verdict };
}

/** xmllint as WebAssembly (the project's, scripts/export-schemas.ts) with --stream: it is handed the whole text at its end. */
function wasmLint(): Lint {
  const chunks: Buffer[] = [];
  let ended: (xml: Buffer) => void = () => undefined;
  const whole = new Promise<Buffer>((resolve) => (ended = resolve));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
    final(done) {
      ended(Buffer.concat(chunks.splice(0)));
      done();
    },
  });
  const verdict = whole.then(async (xml) => {
    const wrapper = readFileSync(SCHEMA, 'utf8');
    const imported = [...wrapper.matchAll(/schemaLocation="([^"]+)"/g)].map(([, location]) => location ?? '');
    const result = await validateXML({
      xml: [{ fileName: 'export.xml', contents: xml }],
      schema: [{ fileName: 'validate_wrapper.xsd', contents: wrapper }],
      preload: imported.map((location) => ({
        fileName: location,
        contents: readFileSync(join(dirname(SCHEMA), location), 'utf8'),
      })),
      maxMemoryPages: memoryPages.max,
      stream: true,
    });
    return { valid: result.valid, output: result.rawOutput.trim() };
  });
  return { sink, verdict };
}

interface Examined {
  gzBytes: number;
  sha256: string;
  xmlBytes: number;
  counts: Record<string, number>;
  valid: boolean;
  problems: string;
  /** Whether the same validator refused the canary (asked only of a document it found valid). */
  canaryRefused: boolean | null;
  validateSeconds: number;
}

/** The downloaded file, streamed: hashed, gunzipped, counted and validated at once. */
async function examine(url: string, lint: () => Lint): Promise<Examined> {
  const response = await fetch(url);
  if (response.status !== 200 || !response.body)
    throw new Error(`The export's link answered ${response.status}: ${await response.text()}`);
  const hash = createHash('sha256');
  let gzBytes = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      gzBytes += chunk.length;
      done(null, chunk);
    },
  });
  const counter = new ElementCounter(['Handelse', 'Kassakvitto', 'ZDagrapport']);
  const started = performance.now();
  const document = lint();
  await pipeline(Readable.fromWeb(response.body as WebStream), hashing, createGunzip(), counter, document.sink);
  const verdict = await document.verdict;
  const validateSeconds = (performance.now() - started) / 1000;
  let canaryRefused: boolean | null = null;
  if (verdict.valid) {
    // The canary: the document's own header and footer around one Handelse that holds an element the schema lacks.
    const head = counter.head.toString('utf8');
    const tail = counter.tail.toString('utf8');
    const before = head.slice(0, head.indexOf('<Handelse>'));
    const after = tail.slice(tail.lastIndexOf('</Handelse>') + '</Handelse>'.length);
    if (before === '' || after === '') throw new Error('The export has no Handelse to build the canary around');
    const canary = lint();
    canary.sink.end(`${before}<Handelse><EjISchemat/></Handelse>${after}`);
    canaryRefused = !(await canary.verdict).valid;
  }
  return {
    gzBytes,
    sha256: hash.digest('hex'),
    xmlBytes: counter.bytes,
    counts: counter.counts,
    valid: verdict.valid,
    problems: verdict.valid ? '' : verdict.output.slice(0, 2000),
    canaryRefused,
    validateSeconds,
  };
}

// ---- The jobs ------------------------------------------------------------------------------------------------------

interface JobState {
  id: string;
  status: 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';
  from: number | null;
  to: number | null;
  bytes?: number | null;
  sha256?: string | null;
  url?: string | null;
  error?: unknown;
}

interface JobFigures {
  days: number;
  sales: number;
  /** From the POST to the first GET that answered DONE (polled every POLL_MS). */
  jobMs: number;
  postMs: number;
  worker: WorkerFigures;
  examined: Examined;
  shaMatches: boolean;
  problems: string[];
}

const lambdaContext = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'cash-register-local-fiscal',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-north-1:000000000000:function:cash-register-local-fiscal',
  memoryLimitInMB: '512',
  awsRequestId: 'bench',
  logGroupName: '/aws/lambda/cash-register-local-fiscal',
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} satisfies Context;

/** One job of `days` days (the register's last ones): posted, run, polled to its end, its file examined. */
async function runJob(
  kit: ExportJobKit,
  stand: StandIns,
  seeded: SeededJournal,
  caller: Caller,
  days: number,
  lint: () => Lint,
): Promise<JobFigures> {
  const fiscal = await import('#functions/fiscal/handler.ts');
  const periods = seeded.periods.slice(-days);
  const from = periods[0]?.open ?? 0;
  const to = periods.at(-1)?.close ?? 0;
  const base = `/v33/${SELLER}/registrations/${CASH}/journal-exports`;
  const runsBefore = stand.runs.length;
  const posting = performance.now();
  const answer = await fiscal.handler(kit.event('POST', base, { from, to }, caller), lambdaContext);
  const postMs = performance.now() - posting;
  if (answer.statusCode !== 202) throw new Error(`POST ${base} answered ${answer.statusCode}: ${String(answer.body)}`);
  const posted = JSON.parse(String(answer.body)) as JobState;
  const location = String(answer.headers?.Location ?? answer.headers?.location ?? '');
  if (location !== `${base}/${posted.id}`)
    throw new Error(`POST ${base} answered Location ${location}, not ${base}/${posted.id}`);
  const run = stand.runs[runsBefore];
  if (!run || stand.runs.length !== runsBefore + 1) {
    throw new Error(`POST ${base} invoked the worker ${stand.runs.length - runsBefore} times, not once`);
  }
  // Poll until the job ends; a worker that died ends the wait at once.
  let died: unknown;
  run.ended.catch((error: unknown) => (died = error));
  let state: JobState;
  for (;;) {
    state = (await kit.invoke(fiscal.handler, 'GET', `${base}/${posted.id}`, 200, undefined, caller)).body as JobState;
    if (state.status === 'DONE' || state.status === 'FAILED' || died !== undefined) break;
    if (performance.now() - posting > stand.timeoutMs + JOB_MARGIN_MS)
      throw new Error(
        `Job ${posted.id} is still ${state.status} after ${((performance.now() - posting) / 60_000).toFixed(0)} min`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const jobMs = performance.now() - posting;
  const { figures: worker, stderr } = await run.ended;
  if (state.status !== 'DONE' || !state.url) {
    throw new Error(
      `Job ${posted.id} ended ${state.status}: ${JSON.stringify(state.error)}; the worker's stderr: ${stderr.slice(-4000)}`,
    );
  }
  const examined = await examine(state.url, lint);

  const sales = periods.length * SALES_A_DAY;
  const { Handelse = 0, Kassakvitto = 0, ZDagrapport = 0 } = examined.counts;
  const problems: string[] = [];
  if (Kassakvitto !== sales || ZDagrapport !== periods.length || Handelse !== sales + periods.length) {
    problems.push(
      `the ${days}-day file holds ${Handelse} Handelse (${Kassakvitto} Kassakvitto, ${ZDagrapport} ZDagrapport), ` +
        `expected ${sales} receipts and ${periods.length} Z reports`,
    );
  }
  const shaMatches = examined.sha256 === state.sha256 && examined.gzBytes === state.bytes;
  if (!shaMatches) {
    problems.push(
      `the ${days}-day file is ${examined.gzBytes} bytes, SHA-256 ${examined.sha256}; its GET says ${state.bytes} bytes, ${state.sha256}`,
    );
  }
  if (!examined.valid) problems.push(`xmllint finds the ${days}-day file invalid: ${examined.problems}`);
  else if (examined.canaryRefused !== true) {
    problems.push('xmllint passed the canary (a Handelse the schema lacks): its verdicts cannot be trusted');
  }
  if (worker.maxRss > stand.limitMb * MB) {
    problems.push(
      `the ${days}-day worker's peak RSS ${(worker.maxRss / MB).toFixed(0)} MB passes its ${stand.limitMb.toLocaleString('en')} MB`,
    );
  }
  return { days: periods.length, sales, jobMs, postMs, worker, examined, shaMatches, problems };
}

/**
 * What the worker named of the register's partition: the kinds of sort key (numbers and ids as …), and those the seed
 * does not write (only the journal, its hour markers and the counter are seeded) besides the job's own records.
 */
async function partitionReads(worker: WorkerFigures): Promise<{ kinds: string[]; unseeded: string[] }> {
  const [{ registerPk }, { registerKeys }, { exportKeys }] = await Promise.all([
    import('#shared/domain/records.ts'),
    import('#shared/fiscal/ledger.ts'),
    import('#shared/exports/jobs.ts'),
  ]);
  const pk = registerPk(SELLER, CASH);
  const sortKeyOf = (key: { sk: string }, cut: string) => key.sk.slice(0, key.sk.indexOf(cut) + cut.length);
  const allowed = [
    registerKeys.counter(SELLER, CASH).sk,
    sortKeyOf(registerKeys.journalEntry(SELLER, CASH, 1), '#'),
    sortKeyOf(registerKeys.journalHour(SELLER, CASH, 1), '#'),
    sortKeyOf(exportKeys.job(pk, 'journal', 'x'), 'journal#'),
    sortKeyOf(exportKeys.running(pk, 'journal', 'x'), 'journal#'),
  ];
  const named = worker.keys.filter((key) => key.pk === pk).map((key) => key.sk);
  return {
    kinds: [...new Set(named.map((sk) => sk.replace(/[0-9a-f]{8,}|\d+/g, '…')))].sort(),
    unseeded: named.filter((sk) => !allowed.some((prefix) => sk === prefix || sk.startsWith(prefix))),
  };
}

export async function measureJournalExportJob(kit: ExportJobKit): Promise<{ operations: Operation[]; summary: string[] }> {
  const stand = standIns;
  if (!stand) throw new Error('exportJobEnvironment() first: the bench sets the export environment before any handler');
  try {
    // The system's xmllint streams; without it, the project's WebAssembly build judges the document held whole.
    const version = systemXmllint();
    const lint = version === null ? wasmLint : nativeLint;
    const { apiKey } = await activateUnitRegister(kit.invoke, {
      sellerId: SELLER,
      cash: CASH,
      serial: SERIAL,
      name: 'Årsbutiken',
      applicationPackage: 'se.example.bench.exportjob',
      productionNumberPrefix: 'BY',
      validFrom: Date.now() - (DAYS + 30) * 86_400_000,
      validTo: Date.now() + 365 * 86_400_000,
      programVersion: '4.2.0',
    });
    let storedBytes = 0;
    const seeded = await seedJournal({
      register: { sellerId: SELLER, cash: CASH, serial: SERIAL },
      sales: DAYS * SALES_A_DAY,
      days: DAYS,
      kdAndReportPrints: true,
      put: (items) => {
        for (const item of items) storedBytes += kit.itemSize(item);
        return kit.batchPut(items);
      },
    });
    console.log(
      `Journal export job: seeded ${seeded.entries.toLocaleString('en')} journal entries and ${seeded.markers.toLocaleString('en')} ` +
        `hour markers (${(storedBytes / MB).toFixed(0)} MB as stored) in ${seeded.seconds.toFixed(0)} s.`,
    );

    const caller: Caller = { 'x-api-key': apiKey };
    const short = await runJob(kit, stand, seeded, caller, SHORT_DAYS, lint);
    const long = await runJob(kit, stand, seeded, caller, DAYS, lint);
    const jobs = [short, long];

    const problems = jobs.flatMap((job) => job.problems);
    const reads = await Promise.all(jobs.map((job) => partitionReads(job.worker)));
    for (const [index, job] of jobs.entries()) {
      const unseeded = reads[index]?.unseeded ?? [];
      if (unseeded.length > 0) {
        problems.push(`the ${job.days}-day worker read items the seed does not write: ${unseeded.slice(0, 5).join(', ')}`);
      }
    }
    const ratio = long.worker.maxRss / short.worker.maxRss;
    if (ratio > FLAT) {
      problems.push(
        `the ${DAYS}-day worker's peak RSS is ${ratio.toFixed(2)}x the ${SHORT_DAYS}-day one's (at most ${FLAT}x: memory flat in the period)`,
      );
    }

    const mb = (bytes: number) =>
      `${(bytes / MB).toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const verdict = (job: JobFigures) =>
      job.examined.valid ? `valid (canary refused: ${job.examined.canaryRefused ? 'yes' : 'NO'})` : 'INVALID';
    const rows = [
      [
        'period',
        'sales',
        'Handelse',
        'job wall',
        'worker wall',
        'worker CPU',
        'peak RSS',
        'peak heap',
        'heap after GC',
        'file (gzip)',
        'XML',
        'SHA-256 = GET',
        'xmllint --stream',
      ],
      ...jobs.map((job) => [
        daysText(job.days),
        job.sales.toLocaleString('en'),
        (job.examined.counts.Handelse ?? 0).toLocaleString('en'),
        seconds(job.jobMs),
        seconds(job.worker.handlerMs),
        `${seconds(job.worker.handlerCpuMs)} (${seconds(job.worker.processCpuMs)} process)`,
        `${mb(job.worker.maxRss)} / ${stand.limitMb.toLocaleString('en')} MB`,
        mb(job.worker.peakHeapUsed),
        mb(job.worker.peakHeapAfterGc),
        mb(job.examined.gzBytes),
        mb(job.examined.xmlBytes),
        job.shaMatches ? 'yes' : 'NO',
        verdict(job),
      ]),
    ];
    const pages = (job: JobFigures) => job.worker.commands.Query ?? 0;
    const summary = [
      `Journal export job (BENCH_ONLY=journal-export-job): a register on a control unit selling ${SALES_A_DAY.toLocaleString('en')} ` +
        `receipts a day for ${DAYS} days (${seeded.entries.toLocaleString('en')} journal entries: each sale's kd request and ` +
        `outcome, its SALE_RECORDED and PRINT; each day's opening, close and Z report print; ${seeded.markers.toLocaleString('en')} ` +
        `hour markers; ${mb(storedBytes)} as stored, seeded with parallel BatchWriteItem in ${seeded.seconds.toFixed(0)} s), ` +
        `its last ${daysText(SHORT_DAYS)} and its ${DAYS} days each exported as one job (POST .../journal-exports, the worker ` +
        `started by an Event invocation and run in a process of its own, GET polled every ${POLL_MS / 1000} s, the file ` +
        `downloaded at its link). Sizes as MB of 2^20.`,
      table(rows),
      `Worker: peak RSS = the kernel's peak of the process (maxRSS; sampled every 50 ms and at each GC: ` +
        `${jobs.map((job) => mb(job.worker.peakRss)).join(', ')}), against the ${stand.limitMb.toLocaleString('en')} MB serverless.yml gives it; ` +
        `after its import and a full GC it held ${jobs.map((job) => `${mb(job.worker.baseline.rss)} RSS, ${mb(job.worker.baseline.heapUsed)} heap`).join('; ')}. ` +
        `The ${DAYS}-day peak RSS is ${ratio.toFixed(2)}x the ${SHORT_DAYS}-day one's (at most ${FLAT}x). ` +
        `DynamoDB: ${jobs.map((job) => `${pages(job)} Queries reading ${job.worker.scanned.toLocaleString('en')} items`).join(', ')}; ` +
        `of the register's partition it named ${[...new Set(reads.flatMap((read) => read.kinds))].join(', ')}; ` +
        `the POSTs answered in ${jobs.map((job) => `${job.postMs.toFixed(0)} ms`).join(' and ')}.`,
      `Validated by ${
        version === null
          ? 'xmllint as WebAssembly (xmllint-wasm, no system xmllint: apt-get install -y libxml2-utils), handed each whole document'
          : `the system's xmllint (${version}) reading the gunzipped download as it came`
      } with --stream against ../shared/skvfs2021-16/validate_wrapper.xsd, in ${jobs.map((job) => `${job.examined.validateSeconds.toFixed(0)} s`).join(' and ')} ` +
        "(with the download); each refused its canary, the file's own header and footer around a Handelse the schema lacks.",
    ];
    if (problems.length > 0) {
      console.log(summary.join('\n'));
      throw new Error(`The journal export job row failed:\n- ${problems.join('\n- ')}`);
    }
    return { operations: [], summary };
  } finally {
    await stopStandIns(stand);
  }
}
