/**
 * The journal export measured in a process of its own (scripts/bench/journal-export.ts starts it with --expose-gc), so
 * that its memory figures are the export's and not the bench's: the fiscal handler invoked in-process against the
 * bench's DynamoDB Local (the environment is the bench's), once to warm up (a short period, which also takes the
 * process's one read of the maintenance switch), then `runs` times over the whole journal. Around each run: wall and
 * CPU time, the DynamoDB calls, and the peaks of process.memoryUsage().heapUsed and rss, sampled every millisecond and
 * at every DynamoDB call (heapUsed counts garbage not yet collected). Before the first run, after a full GC, the
 * process's baseline; after the runs, process.resourceUsage().maxRSS. Then one more run whose every sample (every
 * 10 ms and at every DynamoDB call) follows a full GC, beside the heap after repeated full GCs just before it: the peak
 * of the heap the export holds live. The first run's
 * gzipped body goes to `outFile`; the figures are printed as one JSON line.
 *
 * Usage: node --expose-gc scripts/bench/journal-export-child.ts <requests.json> <outFile>
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { type Call, recordCalls } from './calls.ts';

export interface ChildRequests {
  warmup: APIGatewayProxyEventV2;
  measured: APIGatewayProxyEventV2;
  runs: number;
}

export interface ChildRun {
  wallMs: number;
  cpuMs: number;
  calls: Call[];
  /** The peak heapUsed sampled during the run, bytes. */
  peakHeapUsed: number;
  /** The peak RSS sampled during the run, bytes. */
  peakRss: number;
  /** The gzipped body's bytes, and its base64 (the Lambda result's body). */
  gzipBytes: number;
  base64Bytes: number;
}

export interface ChildFigures {
  /** After the warm-up and a full GC, before the first run. */
  baseline: { heapUsed: number; rss: number; maxRss: number };
  runs: ChildRun[];
  /** process.resourceUsage().maxRSS after the runs, bytes. */
  maxRss: number;
  /** The heap after repeated full GCs, just before the live run. */
  liveBaseline: number;
  /** A last run whose every heap sample follows a full GC: the peak of what the export holds (timings not comparable). */
  live: ChildRun;
}

const [requestsFile = '', outFile = ''] = process.argv.slice(2);
const { warmup, measured, runs } = JSON.parse(readFileSync(requestsFile, 'utf8')) as ChildRequests;
const exposed = (globalThis as { gc?: () => void }).gc;
if (!exposed) throw new Error('Run with --expose-gc');
const gc: () => void = exposed;

const [{ db }, fiscal] = await Promise.all([import('#shared/db/client.ts'), import('#functions/fiscal/handler.ts')]);

let peakHeapUsed = 0;
let peakRss = 0;
/** In the live-heap run, every sample first collects the garbage: what it reads is what the export holds then. */
let collecting = false;
const sample = () => {
  if (collecting) gc();
  const { heapUsed, rss } = process.memoryUsage();
  peakHeapUsed = Math.max(peakHeapUsed, heapUsed);
  peakRss = Math.max(peakRss, rss);
};
// Each call's input goes back to the bench for the floor; memory is sampled as each is sent and answered.
const recorder = recordCalls(db(), sample);

const context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'cash-register-local-fiscal',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-north-1:000000000000:function:cash-register-local-fiscal',
  memoryLimitInMB: '512',
  awsRequestId: 'bench',
  logGroupName: '/aws/lambda/cash-register-local-fiscal',
  logStreamName: 'bench',
  // Lambda's longest: the run is measured to its end, whatever the function's timeout (serverless.yml) would allow.
  getRemainingTimeInMillis: () => 900_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} satisfies Context;

const answer = async (event: APIGatewayProxyEventV2) => {
  const result = await fiscal.handler(event, context);
  if (result.statusCode !== 200 || !result.isBase64Encoded || result.headers?.['Content-Encoding'] !== 'gzip') {
    throw new Error(`The export answered ${result.statusCode}, not a gzipped 200: ${String(result.body).slice(0, 500)}`);
  }
  return result.body ?? '';
};

await answer(warmup);
gc();
const memory = process.memoryUsage();
const baseline = { heapUsed: memory.heapUsed, rss: memory.rss, maxRss: process.resourceUsage().maxRSS * 1024 };
/** One measured run; `live`: a full GC before every sample (every 10 ms and at every DynamoDB call), which slows it. */
async function measure(live: boolean): Promise<ChildRun> {
  gc();
  peakHeapUsed = 0;
  peakRss = 0;
  collecting = live;
  sample();
  const timer = setInterval(sample, live ? 10 : 1);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const { result: body, calls } = await recorder.record(() => answer(measured));
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - wall;
  clearInterval(timer);
  sample();
  collecting = false;
  const gzipped = Buffer.from(body, 'base64');
  if (!existsSync(outFile)) writeFileSync(outFile, gzipped);
  return {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    calls,
    peakHeapUsed,
    peakRss,
    gzipBytes: gzipped.length,
    base64Bytes: body.length,
  };
}

const measuredRuns: ChildRun[] = [];
for (let run = 0; run < runs; run++) measuredRuns.push(await measure(false));
const afterRuns = process.resourceUsage().maxRSS * 1024;
// The live run's own baseline: repeated full GCs free more than one does (flushed bytecode, caches), so the run's samples
// are set beside the heap after as many, taken just before it.
for (let i = 0; i < 5; i++) {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
}
const liveBaseline = process.memoryUsage().heapUsed;
const figures: ChildFigures = { baseline, runs: measuredRuns, maxRss: afterRuns, liveBaseline, live: await measure(true) };
// The DynamoDB client's sockets would hold the process open.
process.stdout.write(`${JSON.stringify(figures)}\n`, () => process.exit(0));
