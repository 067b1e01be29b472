/**
 * The bench's cold-start figures. Every function is built the project's way (scripts/build.ts, `lambda`:
 * `.build/<group>/`) and the way the project first built it (`plain`: `.build/bench/plain/<group>/`), and
 * the floor (scripts/bench/floor.ts: the DynamoDB client alone) both ways. Each bundle is imported by fresh
 * Node processes, with and without --enable-source-maps, all of them shuffled together in every round, so a
 * slow stretch of the machine weighs on every variant alike. A fresh process's first answer (import + one
 * real request against DynamoDB Local) is timed the same way.
 */
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildAll, bundle, type BundleSizes, type Compiled, functionNames, root, type Variant } from '../build.ts';
import { median, quantile, table } from './stats.ts';

// Sixty rounds: pinned to one core, a function's median over the floor's still moved by about ±0.02x between runs of
// forty on a quiet machine (by up to 0.05x between runs of sixty on a busy one: docs/decisions.md, Cold start).
const IMPORT_RUNS = 60;
const RESPONSE_RUNS = 10;
/** Instruction counts hardly vary (about ±1 % between runs): three runs and their median suffice. */
const INSTRUCTION_RUNS = 3;
/** Deployed functions run with it (serverless.yml NODE_OPTIONS): stack traces point into the sources. */
const SOURCE_MAPS = '--enable-source-maps';
const FLOOR = 'floor';
const FLOOR_ENTRY = 'scripts/bench/floor.ts';

interface Target extends BundleSizes {
  /** A function group, or FLOOR. */
  name: string;
  variant: Variant;
  /** The entry file, handler.mjs. */
  file: string;
}

/** Builds every function and the floor both ways. */
export async function buildTargets(): Promise<Target[]> {
  const target = (name: string, variant: Variant, built: Compiled): Target => ({
    name,
    variant,
    file: built.entry,
    initBytes: built.initBytes,
    lazyBytes: built.lazyBytes,
  });
  const entries = [
    ...functionNames().map((name) => [name, `functions/${name}/handler.ts`] as const),
    [FLOOR, FLOOR_ENTRY] as const,
  ];
  const [lambda, floor, plain] = await Promise.all([
    buildAll(),
    bundle(FLOOR_ENTRY, join(root, '.build/bench/lambda', FLOOR)),
    Promise.all(
      entries.map(async ([name, entry]) =>
        target(name, 'plain', await bundle(entry, join(root, '.build/bench/plain', name), 'plain')),
      ),
    ),
  ]);
  return [...[...lambda].map(([name, built]) => target(name, 'lambda', built)), target(FLOOR, 'lambda', floor), ...plain];
}

/** A new random order every round. */
const shuffled = <T>(items: readonly T[]): T[] =>
  items
    .map((item) => ({ item, order: Math.random() }))
    .sort((a, b) => a.order - b.order)
    .map(({ item }) => item);

/**
 * How a fresh process imports: on PINNED_CORE with no flags (`bare`, the figure the goal is stated in) or with
 * SOURCE_MAPS as deployed (`maps`), or on any core with no flags (`unpinned`, the bench's method before it
 * pinned, kept beside it for the project's own bundles).
 */
type Condition = 'bare' | 'maps' | 'unpinned';

const key = (target: Target, condition: Condition) => `${target.variant}/${target.name}/${condition}`;

/** A fresh process's environment: no compile cache and no inherited NODE_OPTIONS, so every run is a cold start with exactly its flags. */
const freshEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...process.env,
  ...env,
  NODE_COMPILE_CACHE: undefined,
  NODE_OPTIONS: undefined,
});

/** The handlers read their configuration on first use; this much lets every one of them load. */
const IMPORT_ENV = { TABLE_NAME: 'bench', AWS_REGION: 'eu-north-1' };

/**
 * The one core every fresh process runs on (`taskset`), or undefined where taskset is missing. A deployed
 * function has 512 MB (serverless.yml), a fraction of one vCPU, which V8's background threads (GC, compile
 * workers) share with the main thread. Unpinned on this 2-core machine, where the scheduler put those threads
 * moved one bundle's import median by about ±0.1x of the floor between runs; pinned, about ±0.02x (quiet machine).
 */
const PINNED_CORE = spawnSync('taskset', ['--version']).status === 0 ? String(availableParallelism() - 1) : undefined;

/** Runs `code` (an ES module that prints one JSON value) in a fresh Node process with `flags` and `env`, on PINNED_CORE unless `pinned` is false. */
function fresh(code: string, flags: readonly string[], env: NodeJS.ProcessEnv = {}, pinned = true): unknown {
  const node = [process.execPath, ...flags, '--input-type=module', '-e', code];
  const [command = '', ...args] = pinned && PINNED_CORE !== undefined ? ['taskset', '-c', PINNED_CORE, ...node] : node;
  const child = spawnSync(command, args, {
    encoding: 'utf8',
    env: freshEnv(env),
  });
  if (child.status !== 0) throw new Error(`A fresh process failed:\n${child.stderr}`);
  // The last line: a function may log before it.
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '');
}

/** One fresh process's import: wall-clock time, and the CPU time its threads spent (unlike wall time, not stretched by other processes). */
export interface ImportSample {
  ms: number;
  cpuMs: number;
}

/** Imports by target and condition: IMPORT_RUNS fresh processes each, timed inside the process. */
export function measureImports(targets: readonly Target[]): Map<string, ImportSample[]> {
  const samples = new Map<string, ImportSample[]>();
  const conditions = (target: Target): Condition[] =>
    target.variant === 'lambda' && PINNED_CORE !== undefined ? ['bare', 'maps', 'unpinned'] : ['bare', 'maps'];
  const runs = targets.flatMap((target) => conditions(target).map((condition) => ({ target, condition })));
  for (let round = 0; round < IMPORT_RUNS; round++) {
    for (const { target, condition } of shuffled(runs)) {
      const code = [
        'const t = performance.now(); const cpu = process.cpuUsage();',
        `await import(${JSON.stringify(pathToFileURL(target.file).href)});`,
        'const { user, system } = process.cpuUsage(cpu);',
        'console.log(JSON.stringify({ ms: performance.now() - t, cpuMs: (user + system) / 1000 }));',
      ].join('\n');
      const sample = fresh(code, condition === 'maps' ? [SOURCE_MAPS] : [], IMPORT_ENV, condition !== 'unpinned');
      const list = samples.get(key(target, condition)) ?? [];
      list.push(sample as ImportSample);
      samples.set(key(target, condition), list);
    }
  }
  return samples;
}

/** Instructions executed by a fresh single-threaded Node process that imports `file` (none: imports nothing), as callgrind counts them. */
function instructions(file: string | undefined): Promise<number> {
  const code = file ? `await import(${JSON.stringify(pathToFileURL(file).href)});` : '';
  const args = [
    '--tool=callgrind',
    '--callgrind-out-file=/dev/null',
    process.execPath,
    '--single-threaded',
    '--input-type=module',
    '-e',
    code,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', args, { env: freshEnv(IMPORT_ENV), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      const count = /Collected : (\d+)/.exec(stderr)?.[1];
      if (status === 0 && count) resolve(Number(count));
      else reject(new Error(`callgrind failed (${status}):\n${stderr.slice(-2000)}`));
    });
  });
}

/**
 * Instructions of each lean bundle's import, by target name (`undefined` when valgrind is missing): the
 * median of INSTRUCTION_RUNS counts less an empty process's. A count does not depend on what else the machine
 * runs, so these ratios hold on a busy machine where wall-clock medians wobble; V8's background threads are
 * off (`--single-threaded`) because their share would. The runs go in parallel, one per core.
 */
export async function measureInstructions(targets: readonly Target[]): Promise<Map<string, number> | undefined> {
  if (spawnSync('valgrind', ['--version']).status !== 0) return undefined;
  const jobs = [undefined, ...targets.filter((target) => target.variant === 'lambda')].flatMap((target) =>
    Array.from({ length: INSTRUCTION_RUNS }, () => target),
  );
  const counts = new Map<string, number[]>();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const target = jobs[next++];
      const count = await instructions(target?.file);
      const name = target?.name ?? '';
      counts.set(name, [...(counts.get(name) ?? []), count]);
    }
  };
  await Promise.all(Array.from({ length: availableParallelism() }, worker));
  const empty = median(counts.get('') ?? []);
  return new Map([...counts].filter(([name]) => name !== '').map(([name, list]) => [name, median(list) - empty]));
}

/** One real request of a function: its event, and the status it must answer (none for a scheduled function). */
export interface FirstRequest {
  label: string;
  event: unknown;
  status?: number;
}

/**
 * Time to first response in ms by target: a fresh process (with SOURCE_MAPS, as deployed) imports the
 * bundle and invokes its handler once with the function's request, configured by this process's
 * environment (the bench's DynamoDB Local and image folder).
 */
export function measureFirstResponses(
  targets: readonly Target[],
  requests: ReadonlyMap<string, FirstRequest>,
  context: object,
): Map<string, number[]> {
  const times = new Map<string, number[]>();
  const runs = targets.filter((target) => requests.has(target.name));
  for (let round = 0; round < RESPONSE_RUNS; round++) {
    for (const target of shuffled(runs)) {
      const request = requests.get(target.name);
      if (!request) continue;
      const code = [
        'const t = performance.now();',
        `const { handler } = await import(${JSON.stringify(pathToFileURL(target.file).href)});`,
        `const context = { ...${JSON.stringify(context)}, getRemainingTimeInMillis: () => 10000, done() {}, fail() {}, succeed() {} };`,
        `const result = await handler(${JSON.stringify(request.event)}, context);`,
        // The SDK keeps its sockets open: leave at once.
        'console.log(JSON.stringify({ ms: performance.now() - t, status: result?.statusCode ?? null })); process.exit(0);',
      ].join('\n');
      const { ms, status } = fresh(code, [SOURCE_MAPS]) as { ms: number; status: number | null };
      if (status !== (request.status ?? null)) {
        throw new Error(`${target.variant} ${target.name}: ${request.label} answered ${status}, expected ${request.status}`);
      }
      const list = times.get(key(target, 'maps')) ?? [];
      list.push(ms);
      times.set(key(target, 'maps'), list);
    }
  }
  return times;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const ms = (values: readonly number[] | undefined) =>
  values ? `${median(values).toFixed(1)} / ${quantile(values, 0.9).toFixed(1)} ms` : '—';

/** The first responses of the project's build alone (BENCH_ONLY=first-response): per function, and the request it answered. */
export function firstResponseTable(
  targets: readonly Target[],
  responses: ReadonlyMap<string, number[]>,
  requests: ReadonlyMap<string, FirstRequest>,
): string {
  const rows = targets.map((target) => [
    `function ${target.name}`,
    ms(responses.get(key(target, 'maps'))),
    requests.get(target.name)?.label ?? '',
  ]);
  return [
    table([['', 'first response', 'request'], ...rows]),
    '',
    `first response: median / p90 of ${RESPONSE_RUNS} fresh processes (${SOURCE_MAPS}, as deployed) importing handler.mjs and`,
    '  invoking it once against DynamoDB Local, timed inside the process; the bundles shuffled together in each round.',
  ].join('\n');
}

/** The cold-start table and its legend. */
export function coldStartReport(
  targets: readonly Target[],
  imports: ReadonlyMap<string, ImportSample[]>,
  responses: ReadonlyMap<string, number[]>,
  requests: ReadonlyMap<string, FirstRequest>,
  instructionCounts: ReadonlyMap<string, number> | undefined,
): string {
  const find = (name: string, variant: Variant) => targets.find((target) => target.name === name && target.variant === variant);
  const wall = (target: Target, condition: Condition) => (imports.get(key(target, condition)) ?? []).map((sample) => sample.ms);
  const cpu = (target: Target) => (imports.get(key(target, 'bare')) ?? []).map((sample) => sample.cpuMs);
  const leanFloor = find(FLOOR, 'lambda');
  if (!leanFloor) throw new Error('The lean floor was not built');
  const overFloor = (target: Target, condition: Condition) =>
    `${(median(wall(target, condition)) / median(wall(leanFloor, condition))).toFixed(2)}x`;
  const row = (name: string, label: string) => {
    const lean = find(name, 'lambda');
    const plain = find(name, 'plain');
    if (!lean || !plain) throw new Error(`${name} was not built both ways`);
    const figures = (target: Target) => [
      target.variant === 'lambda' ? `${kib(target.initBytes)} (+${kib(target.lazyBytes)} lazy)` : kib(target.initBytes),
      ms(wall(target, 'bare')),
      `${median(cpu(target)).toFixed(1)} ms`,
      ms(wall(target, 'maps')),
      `${overFloor(target, 'bare')} / ${(median(cpu(target)) / median(cpu(leanFloor))).toFixed(2)}x`,
      ms(responses.get(key(target, 'maps'))),
    ];
    const count = instructionCounts?.get(name);
    const floorCount = instructionCounts?.get(FLOOR);
    const instructionFigure =
      count && floorCount ? `${(count / 1e6).toFixed(0)} M (${(count / floorCount).toFixed(2)}x)` : 'valgrind missing';
    const unpinned = PINNED_CORE === undefined ? '—' : `${ms(wall(lean, 'unpinned'))} (${overFloor(lean, 'unpinned')})`;
    return [label, ...figures(lean), instructionFigure, unpinned, ...figures(plain)];
  };
  const rows = [
    [
      '',
      'Init bytes',
      'import',
      'import CPU',
      `import, ${SOURCE_MAPS}`,
      '/ lean floor',
      'first response',
      'import instructions (/ lean floor)',
      'import unpinned (/ lean floor)',
      'old: bundle',
      'old: import',
      'old: import CPU',
      `old: import, ${SOURCE_MAPS}`,
      'old / lean floor',
      'old: first response',
    ],
    ...functionNames().map((name) => row(name, `function ${name}`)),
    row(FLOOR, 'floor (@aws-sdk/client-dynamodb only)'),
  ];
  return [
    table(rows),
    '',
    'Cold start',
    '- Columns without "old": the project\'s build (scripts/build.ts). "old": the same sources built as the project first did',
    "  (esbuild's node defaults: the SDK's CommonJS builds, its whole default credential chain, one file, sources inside the",
    '  source map). The floor rows hold the DynamoDB client alone, built either way: "floor" in the old columns is the plain',
    "  floor, in the others the lean floor every function is compared with (/ lean floor: import median over the lean floor's,",
    '  wall clock / CPU).',
    '- Init bytes: the entry and the chunks it imports statically, loaded at Init; lazy: chunks loaded by import() on first use.',
    `- import: median / p90 of ${IMPORT_RUNS} fresh Node ${process.versions.node} processes importing handler.mjs, timed inside the process`,
    `  (start-up excluded), with no flags and with ${SOURCE_MAPS}; all bundles and both flags shuffled together in each round.`,
    ...(PINNED_CORE === undefined
      ? ['  Not pinned to a core (taskset is missing): wall-clock medians spread by about ±0.1x of the floor between runs.']
      : [
          `  Every fresh process runs on core ${PINNED_CORE} only (taskset), as a 512 MB function has under one vCPU; so do the first`,
          '  responses. import unpinned: the same imports without flags on any core, the method before the bench pinned, in the',
          "  same shuffled rounds (the project's bundles and the lean floor only).",
        ]),
    '  import CPU: the median CPU time (user + system, all threads) of the same imports without flags; a busy machine stretches',
    '  wall-clock times, not CPU times.',
    `- import instructions: callgrind's count for a fresh single-threaded process importing handler.mjs (no flags), less an`,
    `  empty process's; median of ${INSTRUCTION_RUNS}. Unlike times, counts do not move with the machine's load.`,
    `- first response: median / p90 of ${RESPONSE_RUNS} fresh processes (${SOURCE_MAPS}, as deployed) importing handler.mjs and invoking`,
    '  it once against DynamoDB Local, timed inside the process; the bundles shuffled together in each round. Requests:',
    ...[...requests].map(([name, request]) => `  ${name}: ${request.label}`),
  ].join('\n');
}
