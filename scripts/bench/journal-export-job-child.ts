/**
 * The journal export job's worker (functions/exports/handler.ts) run as Lambda runs it, in a process of its own that
 * scripts/bench/journal-export-job.ts starts (with --expose-gc) for each Event invocation it receives: the event the
 * fiscal function sent, against the bench's DynamoDB Local and export folder (the environment is the bench's). Like a
 * cold Lambda, the process does nothing else: its figures are the worker's. Measured: the whole process's CPU time
 * and the handler's, wall time (the import and the handler), the DynamoDB calls the handler made, and memory: RSS and
 * heapUsed sampled every SAMPLE_MS and as each garbage collection is reported (the heap then is about what the worker
 * holds live), beside the kernel's peak RSS of the process (process.resourceUsage().maxRSS, which no sampling misses).
 * The figures are printed as one JSON line.
 *
 * Usage: node --expose-gc scripts/bench/journal-export-job-child.ts <event.json>
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { recordCalls } from './calls.ts';

export interface WorkerFigures {
  /** Wall time of the worker's import and of its handler, ms. */
  importMs: number;
  handlerMs: number;
  /** CPU time (user + system) of the whole process, from its start, and of the handler alone, ms. */
  processCpuMs: number;
  handlerCpuMs: number;
  /** After the import and a full GC, before the handler: what the process holds before it works. */
  baseline: { rss: number; heapUsed: number };
  /** Peaks sampled during the handler, bytes: RSS, heapUsed (garbage included), heapUsed as each GC was reported. */
  peakRss: number;
  peakHeapUsed: number;
  peakHeapAfterGc: number;
  /** The process's peak RSS as the kernel counted it (process.resourceUsage().maxRSS), bytes. */
  maxRss: number;
  samples: number;
  collections: number;
  /** The handler's DynamoDB calls per command. */
  commands: Record<string, number>;
  /** Items the Queries read (ScannedCount), summed. */
  scanned: number;
  /** The keys the calls named (a Query: its partition and the lower bound of its sort keys), each once. */
  keys: { pk: string; sk: string }[];
  /** What the handler resolved with, as JSON. */
  result: unknown;
}

/** Sampling period: often enough to catch a page's worth of growth, rarely enough to cost the worker nothing measurable. */
const SAMPLE_MS = 50;

const processCpu = process.cpuUsage();
const started = performance.now();
const [eventFile = ''] = process.argv.slice(2);
const event: unknown = JSON.parse(readFileSync(eventFile, 'utf8'));
const exposed = (globalThis as { gc?: () => void }).gc;
if (!exposed) throw new Error('Run with --expose-gc');

const [{ db }, worker] = await Promise.all([import('#shared/db/client.ts'), import('#functions/exports/handler.ts')]);
const importMs = performance.now() - started;

let peakRss = 0;
let peakHeapUsed = 0;
let peakHeapAfterGc = 0;
let samples = 0;
let collections = 0;
let measuring = false;
const sample = () => {
  if (!measuring) return;
  const { rss, heapUsed } = process.memoryUsage();
  peakRss = Math.max(peakRss, rss);
  peakHeapUsed = Math.max(peakHeapUsed, heapUsed);
  samples += 1;
  return heapUsed;
};
const recorder = recordCalls(db(), sample);
const gcs = new PerformanceObserver((list) => {
  const heapUsed = sample();
  if (heapUsed === undefined) return;
  collections += list.getEntries().length;
  peakHeapAfterGc = Math.max(peakHeapAfterGc, heapUsed);
});
gcs.observe({ entryTypes: ['gc'] });

exposed();
const before = process.memoryUsage();
const baseline = { rss: before.rss, heapUsed: before.heapUsed };
measuring = true;
sample();
const timer = setInterval(sample, SAMPLE_MS);
const handlerStart = performance.now();
const handlerCpu = process.cpuUsage();
const { result, calls } = await recorder.record(() => worker.handler(event as Parameters<typeof worker.handler>[0]));
const used = process.cpuUsage(handlerCpu);
const handlerMs = performance.now() - handlerStart;
clearInterval(timer);
sample();
measuring = false;
gcs.disconnect();
const all = process.cpuUsage(processCpu);

const commands: Record<string, number> = {};
const keys = new Map<string, { pk: string; sk: string }>();
/** A key attribute as sent: marshalled (`{ S: ... }`) by the service's client. */
const text = (value: unknown): string =>
  typeof value === 'object' && value !== null && 'S' in value ? String(value.S) : String(value);
const named = (pk: unknown, sk: unknown) => keys.set(`${text(pk)} ${text(sk)}`, { pk: text(pk), sk: text(sk) });
for (const call of calls) {
  commands[call.command] = (commands[call.command] ?? 0) + 1;
  const input = call.input as {
    Key?: { pk?: unknown; sk?: unknown };
    Item?: { pk?: unknown; sk?: unknown };
    ExpressionAttributeValues?: Record<string, unknown>;
    RequestItems?: Record<string, { Keys?: { pk?: unknown; sk?: unknown }[] }>;
  };
  const byKey = [input.Key, input.Item, ...Object.values(input.RequestItems ?? {}).flatMap((request) => request.Keys ?? [])];
  for (const key of byKey) if (key !== undefined) named(key.pk, key.sk);
  const values = input.ExpressionAttributeValues ?? {};
  if (call.command === 'Query') named(values[':pk'], values[':low'] ?? values[':sk'] ?? '');
}
const figures: WorkerFigures = {
  importMs,
  handlerMs,
  processCpuMs: (all.user + all.system) / 1000,
  handlerCpuMs: (used.user + used.system) / 1000,
  baseline,
  peakRss,
  peakHeapUsed,
  peakHeapAfterGc,
  maxRss: process.resourceUsage().maxRSS * 1024,
  samples,
  collections,
  commands,
  scanned: calls.reduce((sum, call) => sum + call.scanned, 0),
  keys: [...keys.values()],
  result: result ?? null,
};
// The SDK clients' sockets would hold the process open.
process.stdout.write(`${JSON.stringify(figures)}\n`, () => process.exit(0));
