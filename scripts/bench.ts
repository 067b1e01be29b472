/**
 * `npm run bench`: what the functions cost. Prints one table: per function, the minified bundle's
 * size and the median time a fresh Node process takes to import it, beside a floor bundle holding
 * only the DynamoDB client; per operation, the source handler invoked in-process against DynamoDB
 * Local: CPU time per request, DynamoDB round trips, and the capacity DynamoDB Local reported
 * beside the capacity DynamoDB's pricing rules give for the same calls.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ensureTable, startDynamo } from '#infra/local/dynamodb.ts';
import { buildAll, bundle, functionNames, root } from './build.ts';

const IMPORT_RUNS = 20;
const WARMUP = 5;
const REPS = 50;
const DIFF_REPS = 20;
const TAXES = 2000;
const CHANGED = 10;

const TABLE = 'bench';
const SELLER = 'SE5560360793';
const USER = { username: 'bench', password: 'bench-password' };
const AUTHORIZATION = `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString('base64')}`;
const TAX = { vat: 25, name: 'Moms' };

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

// ---- Bundles -------------------------------------------------------------------------------------

interface BundleFigures {
  name: string;
  bytes: number;
  importMs: number;
}

async function measureBundles(): Promise<BundleFigures[]> {
  await buildAll();
  await bundle('scripts/bench/floor.ts', '.build/floor/handler.mjs');
  const bundles = [...functionNames(), 'floor'].map((name) => ({
    name,
    file: join(root, '.build', name, 'handler.mjs'),
    times: [] as number[],
  }));
  // Round robin, so a slow stretch of the machine weighs on every bundle alike.
  for (let run = 0; run < IMPORT_RUNS; run++) {
    for (const { file, times } of bundles) times.push(importMs(file));
  }
  return bundles.map(({ name, file, times }) => ({ name, bytes: statSync(file).size, importMs: median(times) }));
}

/** How long a fresh Node process (the Node 22 running this script) takes to import `file`, timed inside it. */
function importMs(file: string): number {
  const code = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    // The handlers read their configuration at import; no compile cache, so every run is a cold start.
    env: { ...process.env, TABLE_NAME: TABLE, AWS_REGION: 'eu-north-1', NODE_COMPILE_CACHE: undefined },
  });
  const ms = Number(child.stdout.trim());
  if (child.status !== 0 || !Number.isFinite(ms)) throw new Error(`Importing ${file} failed:\n${child.stderr}`);
  return ms;
}

// ---- Capacity: reported by DynamoDB Local, computed from DynamoDB's pricing rules ----------------

type Capacity = Record<'tableRcu' | 'lsiRcu' | 'tableWcu' | 'lsiWcu', number>;
const CAPACITY_FIELDS = ['tableRcu', 'lsiRcu', 'tableWcu', 'lsiWcu'] as const;

interface Units {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}
interface CapacityReport extends Units {
  Table?: Units;
  LocalSecondaryIndexes?: Record<string, Units>;
}

/** One DynamoDB call as the bench's middleware saw it; a failed call counts as a round trip too. */
interface Call {
  command: string;
  consumed: CapacityReport[];
  /** Items a Query or Scan read (ScannedCount): what it is charged for. */
  scanned: number;
}

const READS = /^(Get|BatchGet|Query|TransactGet|Scan)/;

/** The sum of the calls' ConsumedCapacity (ReturnConsumedCapacity INDEXES: table and each index apart). */
function reported(calls: readonly Call[]): Capacity {
  const total: Capacity = { tableRcu: 0, lsiRcu: 0, tableWcu: 0, lsiWcu: 0 };
  for (const call of calls) {
    const read = READS.test(call.command);
    // Some reports give only CapacityUnits; the operation says which kind they are.
    const units = (u: Units) => (read ? u.ReadCapacityUnits : u.WriteCapacityUnits) ?? u.CapacityUnits ?? 0;
    for (const report of call.consumed) {
      total[read ? 'tableRcu' : 'tableWcu'] += units(report.Table ?? report);
      for (const index of Object.values(report.LocalSecondaryIndexes ?? {})) total[read ? 'lsiRcu' : 'lsiWcu'] += units(index);
    }
  }
  return total;
}

const KB = 1024;
/** Strongly consistent read: 1 RCU per 4 KB, rounded up (a missing item still costs 1). */
/**
 * The price of one versioned write (shared/db/versioned.ts): the caller's GetItem, a BatchGet of the
 * counter and the entity (`before`: its size, undefined when it does not exist yet — a missing key is
 * still read), and one transaction putting both. The counter has no vsk; the entity's index entry is
 * new on a create, and moves (delete + put) on an update because the version is part of its sort key.
 */
function versionedWrite(sizes: { user: number; counter: number; before: number | undefined; after: number }): Operation['model'] {
  const { user, counter, before, after } = sizes;
  return {
    commands: ['GetItem', 'BatchGetItem', 'TransactWriteItems'],
    capacity: {
      tableRcu: readUnits(user) + readUnits(counter) + readUnits(before ?? 0),
      lsiRcu: 0,
      tableWcu: TRANSACTION * (writeUnits(counter) + writeUnits(after)),
      lsiWcu: TRANSACTION * (before === undefined ? 1 : 2) * writeUnits(after),
    },
  };
}

const readUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / (4 * KB)));
/** Write: 1 WCU per 1 KB, rounded up per item. */
const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));
/** TransactWriteItems writes every item twice: prepare and commit. */
const TRANSACTION = 2;

/** An item's size: the sum over its attributes of name length + value size. */
function itemSize(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  // 1 byte per 2 significant digits (leading and trailing zeros trimmed) + 1.
  if (typeof value === 'number') return Math.ceil(significantDigits(value) / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + valueSize(element), 0);
  if (typeof value === 'object') return 3 + itemSize(value as Record<string, unknown>) + Object.keys(value).length;
  throw new Error(`No size rule for an attribute of type ${typeof value}`);
}

const significantDigits = (value: number) => (value.toExponential().split('e')[0] ?? '').replace(/[-.]/g, '').length;

/** What the pricing rules charge for one operation: the DynamoDB calls it makes, and their capacity. */
interface Model {
  commands: readonly string[];
  capacity: Capacity;
}

// ---- Requests ------------------------------------------------------------------------------------

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** Who calls: the bench user (Basic) or a register (X-Api-Key). */
type Caller = { authorization: string } | { 'x-api-key': string };
const ADMIN: Caller = { authorization: AUTHORIZATION };

/** An HTTP API v2 event as API Gateway sends it; the handler routes on rawPath alone. */
function event(method: string, path: string, body: unknown, caller: Caller): APIGatewayProxyEventV2 {
  const now = new Date();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {
      accept: 'application/json',
      ...caller,
      host: 'bench.execute-api.eu-north-1.amazonaws.com',
      'user-agent': 'bench',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      domainName: 'bench.execute-api.eu-north-1.amazonaws.com',
      domainPrefix: 'bench',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    isBase64Encoded: false,
  };
}

const context: Context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'cash-register-local-catalog',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-north-1:000000000000:function:cash-register-local-catalog',
  memoryLimitInMB: '512',
  awsRequestId: 'bench',
  logGroupName: '/aws/lambda/cash-register-local-catalog',
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 10_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
};

/** The calls of the request in progress, if any; requests are measured one at a time. */
let calls: Call[] | undefined;

interface Sample {
  cpuMs: number;
  calls: Call[];
  body: unknown;
}

/** Invokes the handler once, fails unless it answers `status`, and keeps its CPU time and DynamoDB calls. */
async function invoke(
  handler: Handler,
  method: string,
  path: string,
  status: number,
  body?: unknown,
  caller: Caller = ADMIN,
): Promise<Sample> {
  const request = event(method, path, body, caller);
  const made: Call[] = [];
  calls = made;
  const start = process.cpuUsage();
  const result = await handler(request, context).finally(() => {
    calls = undefined;
  });
  const cpu = process.cpuUsage(start);
  if (result.statusCode !== status) {
    throw new Error(`${method} ${path} answered ${result.statusCode}, expected ${status}: ${result.body}`);
  }
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    calls: made,
    body: result.body === undefined ? undefined : JSON.parse(result.body),
  };
}

async function repeat(times: number, once: () => Promise<Sample>): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < times; i++) samples.push(await once());
  return samples;
}

interface Operation {
  label: string;
  samples: Sample[];
  model: Model;
}

interface DiffFigures {
  itemsRead: number;
  bytes: number;
  computedRcu: number;
  reportedRcu: number;
  /** What a Query over all the seller's taxes would cost, from the changed taxes' mean size. */
  allTaxesRcu: number;
}

async function measureOperations(): Promise<{ operations: Operation[]; diff: DiffFigures }> {
  const [{ db }, { keys }, { createUserIfAbsent }, { hashApiKey, newApiKey, storeApiKey }, catalog, sellers, users] =
    await Promise.all([
      import('#shared/db/client.ts'),
      import('#shared/db/keys.ts'),
      import('#shared/auth/users.ts'),
      import('#shared/auth/api-keys.ts'),
      import('#functions/catalog/handler.ts'),
      import('#functions/sellers/handler.ts'),
      import('#functions/users/handler.ts'),
    ]);
  db().middlewareStack.add(
    (next, { commandName = 'unknown' }) =>
      async (args) => {
        const command = commandName.replace(/Command$/, ''); // the DynamoDB operation: GetItem, Query, ...
        try {
          const result = await next(args);
          const output = result.output as { ConsumedCapacity?: CapacityReport | CapacityReport[]; ScannedCount?: number };
          calls?.push({ command, consumed: [output.ConsumedCapacity ?? []].flat(), scanned: output.ScannedCount ?? 0 });
          return result;
        } catch (error) {
          calls?.push({ command, consumed: [], scanned: 0 });
          throw error;
        }
      },
    { step: 'initialize', name: 'benchCalls' },
  );
  const sizeOf = async (key: { pk: string; sk: string }) => {
    const { Item } = await db().send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
    if (!Item) throw new Error(`Item ${key.pk} ${key.sk} is missing`);
    return itemSize(Item);
  };

  await createUserIfAbsent({ ...USER, email: 'bench@localhost.invalid', role: 'HYPER_ADMIN', softwareVendor: null, sellers: [] });
  const seller = { corporateId: '5560360793', country: 'SE', publicAccess: true, workHoursWeek: {} };
  await invoke(sellers.handler, 'PUT', `/v33/sellers/${SELLER}`, 201, seller);

  const taxes = `/v26/${SELLER}/taxes`;
  const createTax = () => invoke(catalog.handler, 'POST', taxes, 201, TAX);
  const identifierOf = (sample: Sample) => (sample.body as { identifier: string }).identifier;
  const taxKey = (identifier: string) => keys.catalog(SELLER, 'TAX', identifier);
  const currentVersion = async () =>
    ((await invoke(sellers.handler, 'GET', `/v26/${SELLER}/version`, 200)).body as { version: number }).version;

  // (a) create: credentials GetItem, BatchGetItem of counter + (missing) tax, transaction.
  await repeat(WARMUP, createTax);
  const creates = await repeat(REPS, createTax);
  const identifiers = creates.map(identifierOf);
  const lastTax = identifiers.at(-1) ?? '';
  const user = await sizeOf(keys.user(USER.username));
  const tax = await sizeOf(taxKey(lastTax));
  const counter = await sizeOf(keys.sellerCounter(SELLER));
  const create: Operation = {
    label: `tax create (n=${REPS})`,
    samples: creates,
    model: versionedWrite({ user, counter, before: undefined, after: tax }),
  };

  // (b) read: credentials GetItem, tax GetItem.
  const readTax = () => invoke(catalog.handler, 'GET', `${taxes}/${lastTax}`, 200);
  await repeat(WARMUP, readTax);
  const read: Operation = {
    label: `tax read (n=${REPS})`,
    samples: await repeat(REPS, readTax),
    model: {
      commands: ['GetItem', 'GetItem'],
      capacity: { tableRcu: readUnits(user) + readUnits(tax), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
    },
  };

  // (b2) the same read by a register: one GetItem on the API key's hash authenticates it.
  const apiKey = newApiKey();
  await storeApiKey(apiKey, {
    activationId: 1,
    sellerId: SELLER,
    status: 'WORKING',
    validFrom: 0,
    validTo: Date.now() + 365 * 86_400_000,
    features: ['SYNCHRONIZATION'],
  });
  const register: Caller = { 'x-api-key': apiKey };
  const keyItem = await sizeOf(keys.apiKey(hashApiKey(apiKey)));
  const readByKey = () => invoke(catalog.handler, 'GET', `${taxes}/${lastTax}`, 200, undefined, register);
  await repeat(WARMUP, readByKey);
  const keyRead: Operation = {
    label: `tax read, API key (n=${REPS})`,
    samples: await repeat(REPS, readByKey),
    model: {
      commands: ['GetItem', 'GetItem'],
      capacity: { tableRcu: readUnits(keyItem) + readUnits(tax), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
    },
  };
  // The handshake: the key, then the seller's profile (SELLER_NOT_FOUND for an unregistered seller).
  const profile = await sizeOf(keys.sellerProfile(SELLER));
  const handshake = () => invoke(users.handler, 'GET', '/v33/auth/handshake', 200, undefined, register);
  await repeat(WARMUP, handshake);
  const keyHandshake: Operation = {
    label: `handshake, API key (n=${REPS})`,
    samples: await repeat(REPS, handshake),
    model: {
      commands: ['GetItem', 'GetItem'],
      capacity: { tableRcu: readUnits(keyItem) + readUnits(profile), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
    },
  };

  // (c) diff: fill the seller up to TAXES taxes, change CHANGED of them, diff over the change.
  for (let count = WARMUP + REPS; count < TAXES; count++) await createTax();
  const from = await currentVersion();
  const changed = identifiers.slice(0, CHANGED);
  const updates: Sample[] = [];
  for (const identifier of changed) updates.push(await invoke(catalog.handler, 'PUT', `${taxes}/${identifier}`, 204, TAX));
  const to = await currentVersion();
  const counterNow = await sizeOf(keys.sellerCounter(SELLER));
  const changedSizes = await Promise.all(changed.map((identifier) => sizeOf(taxKey(identifier))));
  const changedBytes = changedSizes.reduce((sum, size) => sum + size, 0);
  const updatedTax = changedSizes[0] ?? 0;
  const update: Operation = {
    label: `tax update (n=${CHANGED})`,
    samples: updates,
    model: versionedWrite({ user, counter: counterNow, before: updatedTax, after: updatedTax }),
  };

  const diffTaxes = async () => {
    const sample = await invoke(catalog.handler, 'GET', `/v26/${SELLER}/taxes-diff/${from}/${to}`, 200);
    const count = (sample.body as unknown[]).length;
    if (count !== CHANGED) throw new Error(`taxes-diff ${from}..${to} returned ${count} items, expected ${CHANGED}`);
    return sample;
  };
  await repeat(WARMUP, diffTaxes);
  const diffSamples = await repeat(DIFF_REPS, diffTaxes);
  const diff: Operation = {
    label: `taxes-diff, ${CHANGED} of ${TAXES.toLocaleString('en')} changed (n=${DIFF_REPS})`,
    samples: diffSamples,
    model: {
      commands: ['GetItem', 'GetItem', 'Query'],
      capacity: { tableRcu: readUnits(user) + readUnits(counterNow), lsiRcu: readUnits(changedBytes), tableWcu: 0, lsiWcu: 0 },
    },
  };

  const operations = [create, read, keyRead, keyHandshake, update, diff];
  for (const { label, samples, model } of operations) {
    for (const sample of samples) {
      const commands = sample.calls.map((call) => call.command);
      if (commands.join() !== model.commands.join()) {
        throw new Error(
          `${label}: the pricing model prices ${model.commands.join(', ')}, the handler made ${commands.join(', ')}`,
        );
      }
    }
  }
  const queries = (diffSamples[0]?.calls ?? []).filter((call) => call.command === 'Query');
  return {
    operations,
    diff: {
      itemsRead: queries.reduce((sum, call) => sum + call.scanned, 0),
      bytes: changedBytes,
      computedRcu: diff.model.capacity.lsiRcu,
      reportedRcu: reported(queries).lsiRcu,
      allTaxesRcu: readUnits((TAXES * changedBytes) / CHANGED),
    },
  };
}

// ---- Report --------------------------------------------------------------------------------------

/** A markdown table with padded columns. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

function report(bundles: readonly BundleFigures[], operations: readonly Operation[], diff: DiffFigures, seconds: number): string {
  const none = ['—', '—', '—', '—', '—', '—'];
  const rows = [
    [
      '',
      'bundle (minified)',
      'import, fresh process',
      'CPU / request',
      'round trips',
      'RCU table',
      'RCU LSI',
      'WCU table',
      'WCU LSI',
    ],
    ...bundles.map(({ name, bytes, importMs }) => [
      name === 'floor' ? 'floor (@aws-sdk/client-dynamodb only)' : `function ${name}`,
      `${(bytes / 1024).toFixed(1)} KiB (${bytes.toLocaleString('en')} B)`,
      `${importMs.toFixed(1)} ms`,
      ...none,
    ]),
    ...operations.map(({ label, samples, model }) => {
      const reports = samples.map((sample) => reported(sample.calls));
      return [
        label,
        '—',
        '—',
        `${median(samples.map((sample) => sample.cpuMs)).toFixed(2)} ms`,
        String(median(samples.map((sample) => sample.calls.length))),
        ...CAPACITY_FIELDS.map((field) => {
          const measured = median(reports.map((capacity) => capacity[field]));
          const computed = model.capacity[field];
          return `${measured} / ${computed}${measured === computed ? '' : ' !'}`;
        }),
      ];
    }),
  ];
  return [
    table(rows),
    '',
    `taxes-diff over ${TAXES.toLocaleString('en')} taxes with ${CHANGED} changed: the Query on byVersion read ${diff.itemsRead} items ` +
      `(${diff.bytes.toLocaleString('en')} B) -> ${diff.computedRcu} RCU computed, ${diff.reportedRcu} reported; ` +
      `reading all ${TAXES.toLocaleString('en')} taxes would be ~${diff.allTaxesRcu} RCU.`,
    '',
    'Legend',
    `- import: median of ${IMPORT_RUNS} fresh Node ${process.versions.node} processes importing .build/<name>/handler.mjs, timed inside the process (start-up excluded).`,
    '- Operations: the source handlers invoked in-process with an HTTP API v2 event, after warm-up: functions/catalog for',
    '  POST /v26/{sellerId}/taxes, GET and PUT /v26/{sellerId}/taxes/{id}, GET /v26/{sellerId}/taxes-diff/{from}/{to};',
    '  functions/users for GET /v33/auth/handshake. "API key" rows call as a register (X-Api-Key), the others as a user (Basic);',
    "  CPU = process.cpuUsage() user+system around the call (DynamoDB Local's Java process not included); every figure is the median per request.",
    '- round trips: DynamoDB calls per request, failed ones included; each request first reads the caller (1 GetItem: the user, or the API key by its hash).',
    '- Capacity cells: reported by DynamoDB Local (ConsumedCapacity, INDEXES) / computed from the pricing rules below; ! marks a difference.',
    '- Pricing rules: strongly consistent GetItem/BatchGetItem = 1 RCU per 4 KB per item, rounded up (a missing item costs 1);',
    '  Query = 1 RCU per 4 KB of all items read together, rounded up; write = 1 WCU per 1 KB per item, rounded up;',
    '  TransactWriteItems = 2x (prepare + commit); an item with a vsk is also written to the LSI: a new entry costs 1 WCU per KB,',
    '  a changed vsk costs a delete of the old entry + a put of the new one (2 writes), each 2x inside a transaction.',
    '- Item size = sum of attribute name + value: string = UTF-8 bytes, number = 1 byte per 2 significant digits + 1, boolean/null = 1,',
    '  map/list = 3 + contents + 1 per element; an LSI entry projects ALL, so it is the whole item (table keys included).',
    '  Sizes come from the stored items read back; all are far below 1 KB, so before/after images price alike.',
    '- Known DynamoDB Local 1.25.1 differences from AWS: a missing key in BatchGetItem is reported as 0 RCU (AWS charges 1;',
    '  awslabs/amazon-dynamodb-local-samples#7), and TransactWriteItems is reported at 4 WCU per KB per item where AWS charges 2.',
    `Bench took ${seconds.toFixed(0)} s.`,
  ].join('\n');
}

// ---- Main ----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  // Bundles first: DynamoDB Local's JVM would compete for the 2 cores while imports are timed.
  const bundles = await measureBundles();
  const dynamo = await startDynamo();
  try {
    await ensureTable(dynamo.endpoint, TABLE);
    // shared/config.ts reads these once, on first use: set before any handler is imported.
    Object.assign(process.env, {
      TABLE_NAME: TABLE,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      AWS_REGION: 'local',
      LOG_REQUESTS: 'false',
    });
    const { operations, diff } = await measureOperations();
    console.log(report(bundles, operations, diff, (performance.now() - started) / 1000));
  } finally {
    await dynamo.stop();
  }
}

try {
  await main();
} catch (error) {
  console.error(`Bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
