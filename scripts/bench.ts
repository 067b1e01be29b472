/**
 * `npm run bench`: what the functions cost. Prints two tables. Cold start (scripts/bench/cold-start.ts): per
 * function, the bytes loaded at Init and lazily, fresh processes' import times with and without source
 * maps and their first response, for the project's build and the old one, beside two floors holding only
 * the DynamoDB client. Per operation, the source handler invoked in-process against DynamoDB Local: CPU
 * time per request, DynamoDB round trips, and the capacity DynamoDB Local reported beside the capacity
 * DynamoDB's pricing rules give for the same calls. Its fiscal rows (functions/fiscal, called by registers):
 * a sale POST, the same POST replayed (the bench fails if a replay writes), a receipt print, and the day
 * close and Z report read of a day of 1,000 sales on a register's first day and after 20 earlier days (the
 * bench fails if their round trips, the items their Queries read or the other calls' reported capacity differ; a close
 * first reads the register's export context),
 * beside the offline verification time of a 1,000-entry signed e-journal (verifyJournal, no DynamoDB), and a sale's capacity
 * when its day has sold 10 and 10,000 distinct products (the bench fails if they differ). Its journal-export
 * row (scripts/bench/journal-export.ts): GET .../registrations/{cash}/journal-export, gzipped, of a register on a
 * control unit with 10,000 printed sales over 30 closed days (its journal seeded with BatchWriteItem), run in a child
 * process: wall and CPU time, round trips and capacity (a Query page at a time), the answer's gzipped and XML sizes and
 * Handelse events, peak memory (heapUsed with and without garbage, RSS, maxRSS) beside the document's size; the bench
 * fails if xmllint finds the XML invalid against Skatteverket's schemas or if the export holds a third of its document
 * live (it must stream). Its kd rows (scripts/bench/kd.ts): a register's kd through the local broker, edge bridge and
 * control-unit simulator (wall-clock p50 and p95), a repeated kd and a kd-facets page. Its cloud kd rows
 * (scripts/bench/kd-cloud.ts, alone with `BENCH_ONLY=kd-cloud`): a register activated REMOTE without a serial, enrolled at
 * the stand-in of the cloud control-unit system served in the bench's process (the activation's row), its kds signed
 * there over HTTP and the same kds repeated, with the HTTP requests the system got and wall-clock p50 and p95. Under each
 * operation row, its floor (scripts/bench/replay.ts): the same DynamoDB calls sent by a bare SDK client, and the
 * operation's CPU as a multiple of it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ensureTable, startDynamo } from '#infra/local/dynamodb.ts';
import { type Ledger, registerKeys } from '#shared/fiscal/ledger.ts';
import type { StoredItem } from '#shared/db/streams.ts';
import type { SignedJournal } from '#shared/fiscal/verify-journal.ts';
import {
  buildTargets,
  coldStartReport,
  type FirstRequest,
  firstResponseTable,
  measureFirstResponses,
  measureImports,
  measureInstructions,
} from './bench/cold-start.ts';
import { EXPORT_DAYS, EXPORT_SALES, measureJournalExport } from './bench/journal-export.ts';
import { kdEnvironment, kdLegend, measureKd } from './bench/kd.ts';
import { cloudKdLegend, measureCloudKd } from './bench/kd-cloud.ts';
import { measureHeat } from './bench/heat.ts';
import { type Call, type CallRecorder, recordCalls, type Units } from './bench/calls.ts';
import { floorCpu } from './bench/replay.ts';
import { median, table } from './bench/stats.ts';
import { sellerKeys } from '#shared/domain/seller.ts';
import { installationKey } from '#shared/domain/installations.ts';
import { activationKeys, applicationKeys, registrationKeys } from '#shared/domain/records.ts';
import { apiKeyKey } from '#shared/auth/api-keys.ts';
import { userKeys } from '#shared/auth/users.ts';

const WARMUP = 5;
const REPS = 50;
const DIFF_REPS = 20;
const TAXES = 2000;
const PRODUCTS = 10_000;
const CHANGED = 10;
const IMAGE_BYTES = 200_000;
/** The stats rows: one register with STATS_SALES sales over STATS_DAYS days (the last one open). */
const STATS_SALES = 20_000;
const STATS_DAYS = 30;

const TABLE = 'bench';
const SELLER = 'SE5560360793';
/** The seller of the products-diff row: 1 tax and PRODUCTS products. */
const PRODUCT_SELLER = 'SE5560360801';
/** The seller of the stats rows: one register, its days and sales. */
const STATS_SELLER = 'SE5560360819';
const USER = { username: 'bench', password: 'bench-password' };
const AUTHORIZATION = `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString('base64')}`;
const TAX = { vat: 25, name: 'Moms' };

// ---- Capacity: reported by DynamoDB Local, computed from DynamoDB's pricing rules ----------------

type Capacity = Record<'tableRcu' | 'lsiRcu' | 'tableWcu' | 'lsiWcu', number>;
const CAPACITY_FIELDS = ['tableRcu', 'lsiRcu', 'tableWcu', 'lsiWcu'] as const;

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
/**
 * How a Basic caller is read: one Query of the username's partition, its user and its wrong-password counter
 * (shared/auth/password-limit.ts); the bench user has no counter, so it costs what the user's GetItem would.
 */
const SIGN_IN = 'Query';
/**
 * The pipeline's read ahead (shared/http/api.ts): the API key presented, the counter of the seller the path names and the
 * items the route names, in one BatchGetItem before the checks; reads by key that follow are answered from it.
 */
const AHEAD = 'BatchGetItem';
/** Strongly consistent read: 1 RCU per 4 KB, rounded up (a missing item still costs 1). */
/**
 * The price of one versioned write (shared/db/streams.ts) by the bench user: the read ahead (AHEAD) of the seller's counter
 * (its liveness, shared/domain/seller.ts) and of the entity when the path names it (`ahead`), its sign-in Query (SIGN_IN),
 * a BatchGet of the entity otherwise (`before`: its size, undefined when it does not exist yet — a missing key is still
 * read), and one transaction: the counter, the entity and its change item (`change` bytes: the entity's copy under
 * `#V#<vsk>`, the version index); an update also deletes the change item of the version it replaces (as large).
 */
function versionedWrite(sizes: {
  user: number;
  counter: number;
  before: number | undefined;
  after: number;
  change: number;
  ahead: boolean;
}): Operation['model'] {
  const { user, counter, before, after, change } = sizes;
  return {
    commands: [AHEAD, SIGN_IN, ...(sizes.ahead ? [] : ['BatchGetItem']), 'TransactWriteItems'],
    capacity: {
      tableRcu: readUnits(user) + readUnits(counter) + readUnits(before ?? 0),
      lsiRcu: 0,
      tableWcu: TRANSACTION * (writeUnits(counter) + writeUnits(after) + (before === undefined ? 1 : 2) * writeUnits(change)),
      lsiWcu: 0,
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
export interface Model {
  commands: readonly string[];
  capacity: Capacity;
}

// ---- Requests ------------------------------------------------------------------------------------

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** Who calls: the bench user (Basic) or a register (X-Api-Key). */
export type Caller = { authorization: string } | { 'x-api-key': string };
const ADMIN: Caller = { authorization: AUTHORIZATION };

/** A raw request body (an image), sent base64-encoded as API Gateway sends binary bodies. */
interface Upload {
  bytes: Buffer;
  type: string;
}
const isUpload = (body: unknown): body is Upload => typeof body === 'object' && body !== null && 'bytes' in body;

/** An HTTP API v2 event as API Gateway sends it; the handler routes on rawPath alone. */
export function event(method: string, target: string, body: unknown, caller: Caller): APIGatewayProxyEventV2 {
  const now = new Date();
  const [path = '', query = ''] = target.split('?');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    headers: {
      accept: 'application/json',
      ...caller,
      host: 'bench.execute-api.eu-north-1.amazonaws.com',
      'user-agent': 'bench',
      ...(body === undefined ? {} : { 'content-type': isUpload(body) ? body.type : 'application/json' }),
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
    ...(isUpload(body)
      ? { body: body.bytes.toString('base64'), isBase64Encoded: true }
      : { ...(body === undefined ? {} : { body: JSON.stringify(body) }), isBase64Encoded: false }),
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
  // Lambda's longest, as in the journal export's child: a slow machine stretches a row, it does not abort it.
  getRemainingTimeInMillis: () => 900_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
};

/** Records the measured requests' DynamoDB calls, one request at a time; `connect` puts it on the client. */
let recorder: CallRecorder | undefined;

export interface Sample {
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
  accept = 'application/json',
): Promise<Sample> {
  const request = { ...event(method, path, body, caller) };
  request.headers = { ...request.headers, accept };
  if (!recorder) throw new Error('connect() first: it records the DynamoDB calls');
  const start = process.cpuUsage();
  const { result, calls } = await recorder.record(() => handler(request, context));
  const cpu = process.cpuUsage(start);
  if (result.statusCode !== status) {
    throw new Error(`${method} ${path} answered ${result.statusCode}, expected ${status}: ${result.body}`);
  }
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    calls,
    body:
      result.body === undefined
        ? undefined
        : result.isBase64Encoded
          ? Buffer.from(result.body, 'base64')
          : /json/.test(String(result.headers?.['Content-Type'] ?? 'application/json'))
            ? JSON.parse(result.body)
            : result.body,
  };
}

async function repeat(times: number, once: () => Promise<Sample>): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < times; i++) samples.push(await once());
  return samples;
}

export interface Operation {
  label: string;
  samples: Sample[];
  model: Model;
}

interface DiffFigures {
  /** The entity kind's path name (taxes, products) and how many of them the seller has. */
  plural: string;
  total: number;
  itemsRead: number;
  bytes: number;
  computedRcu: number;
  reportedRcu: number;
  /** What a Query over all the seller's entities of the kind costs: computed, and reported where one was run. */
  all: { computedRcu: number; reported?: { rcu: number; by: string } };
}

/** Writes `items` straight into the table: for data the bench needs in bulk but does not measure. */
async function batchPut(items: readonly Record<string, unknown>[]): Promise<void> {
  const { putInBulk } = await import('#shared/db/documents.ts');
  await putInBulk(TABLE, items);
}

/**
 * Each function's request for its time to first response (scripts/bench/cold-start.ts): a real route, as a
 * register calls (X-Api-Key: one GetItem authenticates it, where Basic would add the password KDF).
 */
function firstRequests(apiKey: string, taxId: string): Map<string, FirstRequest> {
  const register: Caller = { 'x-api-key': apiKey };
  const get = (path: string, status: number) => ({
    label: `GET ${path} -> ${status}`,
    event: event('GET', path, undefined, register),
    status,
  });
  const name = { corporateId: SELLER.slice(2), cashRegisterName: 'Kassa 1' };
  return new Map<string, FirstRequest>([
    [
      'activations',
      {
        label: 'POST /v33/noauth/activations/cash-register-name/existance -> 201',
        event: event('POST', '/v33/noauth/activations/cash-register-name/existance', name, register),
        status: 201,
      },
    ],
    ['catalog', get(`/v26/${SELLER}/taxes/${taxId}`, 200)],
    // An unknown installation: 404 after its GetItem.
    ['devices', get('/v33/installations/0000000000000001/build-infoes', 404)],
    // A register without the SUPPORT feature: refused after its key is read, before any mail is built.
    [
      'email',
      {
        label: 'POST /v33/email -> 403',
        event: event('POST', '/v33/email', { subject: 'Hej', body: 'Hej' }, register),
        status: 403,
      },
    ],
    ['fallback', get('/v33/no-such-endpoint', 404)],
    // An amount that is no amount: refused by the body's schema, before the provider.
    [
      'gateway',
      {
        label: `POST /v26/gateway/payment/${SELLER}/1 -> 400`,
        event: event('POST', `/v26/gateway/payment/${SELLER}/1`, { amount: 'ten' }, register),
        status: 400,
      },
    ],
    // The seller's sales: its registrations (one Query; this seller has none), then each register's sales.
    ['fiscal', get(`/v33/${SELLER}/sales`, 200)],
    ['images', get(`/v33/${SELLER}/images`, 200)],
    ['maintenance', { label: 'the daily tombstone purge (a scheduled event)', event: { 'detail-type': 'Scheduled Event' } }],
    ['registrations', get(`/v33/${SELLER}/registrations`, 200)],
    ['restaurants', get('/v33/restaurants', 200)],
    ['sellers', get(`/v33/${SELLER}/version`, 200)],
    ['stats', get(`/v33/${SELLER}/sales/stats`, 200)],
    ['users', get('/v33/auth/handshake', 200)],
    // Administrators only: a register is refused, after its key is read.
    ['vendors', get('/v33/software-vendors', 403)],
  ]);
}

/**
 * Counts every DynamoDB call a measured request makes (its command, reported capacity and items scanned), and answers
 * how to read an item back strongly consistently (sizes the pricing needs; not measured).
 */
async function connect(): Promise<ReadBack> {
  const [{ db }, { getItem }] = await Promise.all([import('#shared/db/client.ts'), import('#shared/db/documents.ts')]);
  recorder = recordCalls(db());
  const readBack: ReadBack = async (key) => {
    const { Item } = await getItem({ TableName: TABLE, Key: key, ConsistentRead: true });
    if (!Item) throw new Error(`Item ${key.pk} ${key.sk} is missing`);
    return Item;
  };
  return readBack;
}

/** The bench user (a hyper admin: it creates vendors and applications) and the bench seller. */
async function createBenchSeller() {
  const [{ createUserIfAbsent }, sellers] = await Promise.all([
    import('#shared/auth/users.ts'),
    import('#functions/sellers/handler.ts'),
  ]);
  await createUserIfAbsent({ ...USER, email: 'bench@localhost.invalid', role: 'HYPER_ADMIN', softwareVendor: null, sellers: [] });
  const seller = { corporateId: '5560360793', country: 'SE', publicAccess: true, workHoursWeek: {} };
  await invoke(sellers.handler, 'PUT', `/v33/sellers/${SELLER}`, 201, seller);
  return seller;
}

/** Fails when a sample's DynamoDB calls are not those its pricing model prices (in any order: parallel reads). */
function checkCommands(operations: readonly Operation[]): void {
  for (const { label, samples, model } of operations) {
    for (const sample of samples) {
      const commands = sample.calls.map((call) => call.command);
      if ([...commands].sort().join() !== [...model.commands].sort().join()) {
        throw new Error(
          `${label}: the pricing model prices ${model.commands.join(', ')}, the handler made ${commands.join(', ')}`,
        );
      }
    }
  }
}

async function measureOperations(): Promise<{
  operations: Operation[];
  diffs: DiffFigures[];
  fiscal: string[];
  requests: Map<string, FirstRequest>;
}> {
  const [
    { getItem, updateItem },
    { versionSortKey },
    { indexItemsOf },
    { hashApiKey, newApiKey, storeApiKey },
    catalog,
    sellers,
    users,
    images,
  ] = await Promise.all([
    import('#shared/db/documents.ts'),
    import('#shared/db/keys.ts'),
    import('#shared/db/streams.ts'),
    import('#shared/auth/api-keys.ts'),
    import('#functions/catalog/handler.ts'),
    import('#functions/sellers/handler.ts'),
    import('#functions/users/handler.ts'),
    import('#functions/images/handler.ts'),
  ]);
  const [stats, ledger, totals, dates] = await Promise.all([
    import('#functions/stats/handler.ts'),
    import('#shared/fiscal/ledger.ts'),
    import('#shared/fiscal/totals.ts'),
    import('#shared/fiscal/dates.ts'),
  ]);
  const readBack = await connect();
  const sizeOf = async (key: { pk: string; sk: string }) => itemSize(await readBack(key));

  const seller = await createBenchSeller();

  const taxes = `/v26/${SELLER}/taxes`;
  const createTax = () => invoke(catalog.handler, 'POST', taxes, 201, TAX);
  const identifierOf = (sample: Sample) => (sample.body as { identifier: string }).identifier;
  const taxKey = (identifier: string) => sellerKeys.catalog(SELLER, 'TAX', identifier);
  const currentVersion = async (sellerId = SELLER) =>
    ((await invoke(sellers.handler, 'GET', `/v26/${sellerId}/version`, 200)).body as { version: number }).version;

  // (a) create: the sign-in Query, BatchGetItem of counter + (missing) tax, transaction.
  await repeat(WARMUP, createTax);
  const creates = await repeat(REPS, createTax);
  const identifiers = creates.map(identifierOf);
  const lastTax = identifiers.at(-1) ?? '';
  const user = await sizeOf(userKeys.user(USER.username));
  const tax = await sizeOf(taxKey(lastTax));
  const counter = await sizeOf(sellerKeys.counter(SELLER));
  const create: Operation = {
    label: `tax create (n=${REPS})`,
    samples: creates,
    model: versionedWrite({
      user,
      counter,
      before: undefined,
      after: tax,
      change: await changeSize(readBack, taxKey(lastTax)),
      ahead: false,
    }),
  };

  // (b) read: the read ahead of the seller's counter (its liveness) and the tax, the sign-in Query.
  const readTax = () => invoke(catalog.handler, 'GET', `${taxes}/${lastTax}`, 200);
  await repeat(WARMUP, readTax);
  const read: Operation = {
    label: `tax read (n=${REPS})`,
    samples: await repeat(REPS, readTax),
    model: {
      commands: [AHEAD, SIGN_IN],
      capacity: { tableRcu: readUnits(user) + readUnits(counter) + readUnits(tax), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
    },
  };

  // (b2) the same read by a register: its API key's item is read ahead with the counter and the tax.
  const apiKey = newApiKey();
  await storeApiKey(apiKey, {
    activationId: 1,
    sellerId: SELLER,
    cashRegisterName: 'Kassa 1',
    status: 'WORKING',
    validFrom: 0,
    validTo: Date.now() + 365 * 86_400_000,
    features: ['SYNCHRONIZATION'],
  });
  const register: Caller = { 'x-api-key': apiKey };
  const keyItem = await sizeOf(apiKeyKey(hashApiKey(apiKey)));
  const readByKey = () => invoke(catalog.handler, 'GET', `${taxes}/${lastTax}`, 200, undefined, register);
  await repeat(WARMUP, readByKey);
  const keyRead: Operation = {
    label: `tax read, API key (n=${REPS})`,
    samples: await repeat(REPS, readByKey),
    model: {
      commands: [AHEAD],
      capacity: { tableRcu: readUnits(keyItem) + readUnits(counter) + readUnits(tax), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
    },
  };
  // The handshake: the key (read ahead), then the seller's liveness (SELLER_NOT_FOUND for an unregistered seller).
  const handshake = () => invoke(users.handler, 'GET', '/v33/auth/handshake', 200, undefined, register);
  await repeat(WARMUP, handshake);
  const keyHandshake: Operation = {
    label: `handshake, API key (n=${REPS})`,
    samples: await repeat(REPS, handshake),
    model: {
      commands: [AHEAD, 'GetItem'],
      capacity: { tableRcu: readUnits(keyItem) + readUnits(counter), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
    },
  };

  // (c) diff: fill the seller up to TAXES taxes, change CHANGED of them, diff over the change.
  for (let count = WARMUP + REPS; count < TAXES; count++) await createTax();
  const from = await currentVersion();
  const changed = identifiers.slice(0, CHANGED);
  const updates: Sample[] = [];
  for (const identifier of changed) updates.push(await invoke(catalog.handler, 'PUT', `${taxes}/${identifier}`, 204, TAX));
  const to = await currentVersion();
  const counterNow = await sizeOf(sellerKeys.counter(SELLER));
  const changedSizes = await Promise.all(changed.map((identifier) => sizeOf(taxKey(identifier))));
  const changedBytes = changedSizes.reduce((sum, size) => sum + size, 0);
  const changeSizes = await Promise.all(changed.map((identifier) => changeSize(readBack, taxKey(identifier))));
  const updatedTax = changedSizes[0] ?? 0;
  const update: Operation = {
    label: `tax update (n=${CHANGED})`,
    samples: updates,
    model: versionedWrite({
      user,
      counter: counterNow,
      before: updatedTax,
      after: updatedTax,
      change: changeSizes[0] ?? 0,
      ahead: true,
    }),
  };

  /**
   * GET <plural>-diff over (from, to], which holds the CHANGED entities (their change items `sizes.changed` bytes
   * together): DIFF_REPS requests after warm-up, priced as the counter's read ahead (the seller's liveness, which also
   * bounds `to`), the sign-in Query and one Query of the change items.
   */
  const measureDiff = async (
    sellerId: string,
    plural: string,
    total: number,
    { from, to }: { from: number; to: number },
    sizes: { counter: number; changed: number },
  ) => {
    const diffOnce = async () => {
      const sample = await invoke(catalog.handler, 'GET', `/v26/${sellerId}/${plural}-diff/${from}/${to}`, 200);
      const count = (sample.body as unknown[]).length;
      if (count !== CHANGED) throw new Error(`${plural}-diff ${from}..${to} returned ${count} items, expected ${CHANGED}`);
      return sample;
    };
    await repeat(WARMUP, diffOnce);
    const operation: Operation = {
      label: `${plural}-diff, ${CHANGED} of ${total.toLocaleString('en')} changed (n=${DIFF_REPS})`,
      samples: await repeat(DIFF_REPS, diffOnce),
      model: {
        commands: [AHEAD, SIGN_IN, 'Query'],
        capacity: {
          tableRcu: readUnits(user) + readUnits(sizes.counter) + readUnits(sizes.changed),
          lsiRcu: 0,
          tableWcu: 0,
          lsiWcu: 0,
        },
      },
    };
    // The Queries after the caller's sign-in, itself a Query of the user's partition (SIGN_IN).
    const queries = (operation.samples[0]?.calls ?? []).filter((call) => call.command === 'Query').slice(1);
    const figures = {
      plural,
      total,
      itemsRead: queries.reduce((sum, call) => sum + call.scanned, 0),
      bytes: sizes.changed,
      computedRcu: readUnits(sizes.changed),
      reportedRcu: reported(queries).tableRcu,
    };
    return { operation, figures };
  };
  const taxesDiff = await measureDiff(
    SELLER,
    'taxes',
    TAXES,
    { from, to },
    { counter: counterNow, changed: changeSizes.reduce((sum, size) => sum + size, 0) },
  );

  // (d) images: a 200 KB PNG replaced in place (the counter read ahead, the sign-in Query, BatchGet of the image, a
  // transaction of counter, image and version item, and the store's write), then read (the counter read ahead, the
  // sign-in Query, the image's GetItem).
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(IMAGE_BYTES - 8)]);
  const imagePath = `/v33/${SELLER}/images/current/bench.png`;
  const putImage = () => invoke(images.handler, 'PUT', imagePath, 204, { bytes: png, type: 'image/png' });
  await invoke(images.handler, 'PUT', imagePath, 201, { bytes: png, type: 'image/png' });
  await repeat(WARMUP, putImage);
  const imagePuts = await repeat(REPS, putImage);
  const imageKey = sellerKeys.image(SELLER, 'SELLER_IMAGE', '', 'bench.png');
  const image = await sizeOf(imageKey);
  const imageCounter = await sizeOf(sellerKeys.counter(SELLER));
  const lastVersion = await currentVersion();
  const imageVersion = await sizeOf(sellerKeys.imageVersion(SELLER, 'SELLER_IMAGE', '', 'bench.png', lastVersion));
  const imagePutModel = versionedWrite({
    user,
    counter: imageCounter,
    before: image,
    after: image,
    change: await changeSize(readBack, imageKey),
    ahead: false,
  });
  const imagePut: Operation = {
    label: `image PUT ${IMAGE_BYTES / 1000} KB (n=${REPS})`,
    samples: imagePuts,
    // The version item has no vsk: no change item.
    model: {
      ...imagePutModel,
      capacity: { ...imagePutModel.capacity, tableWcu: imagePutModel.capacity.tableWcu + TRANSACTION * writeUnits(imageVersion) },
    },
  };
  const getImage = async () => {
    const sample = await invoke(images.handler, 'GET', imagePath, 200);
    if (!png.equals(sample.body as Buffer)) throw new Error('image GET answered other bytes than were put');
    return sample;
  };
  await repeat(WARMUP, getImage);
  const imageGet: Operation = {
    label: `image GET ${IMAGE_BYTES / 1000} KB (n=${REPS})`,
    samples: await repeat(REPS, getImage),
    model: {
      commands: [AHEAD, SIGN_IN, 'GetItem'],
      capacity: { tableRcu: readUnits(user) + readUnits(imageCounter) + readUnits(image), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
    },
  };

  // (e) products-diff: a second seller with 1 tax and PRODUCTS products. One product is written through the
  // handler and is the template of the others, which go straight into the table in the item shape it has
  // (each its own version, the counter set past them, the tax counting them as references); CHANGED of them
  // are then changed through the handler, and the diff over them is set beside the list read, whose Query
  // reads every product of the seller (whatever page it answers).
  await invoke(sellers.handler, 'PUT', `/v33/sellers/${PRODUCT_SELLER}`, 201, {
    ...seller,
    corporateId: PRODUCT_SELLER.slice(2),
  });
  await invoke(catalog.handler, 'PUT', `/v26/${PRODUCT_SELLER}/taxes/moms`, 201, TAX);
  const products = `/v26/${PRODUCT_SELLER}/products`;
  const productId = (index: number) => `p${String(index).padStart(5, '0')}`;
  const productKey = (index: number) => sellerKeys.catalog(PRODUCT_SELLER, 'PRODUCT', productId(index));
  const product = (index: number, netto: number) => ({
    name: `Product ${index}`,
    barcode: String(7_310_865_000_000 + index),
    netto,
    tax: 'moms',
    salesUnit: 'Piece',
    countedInPrice: true,
  });
  await invoke(catalog.handler, 'PUT', `${products}/${productId(0)}`, 201, product(0, 1990));
  const seeding = performance.now();
  const { Item: stored } = await getItem({ TableName: TABLE, Key: productKey(0), ConsistentRead: true });
  const template = stored as (Record<string, unknown> & { version: number }) | undefined;
  if (!template) throw new Error(`Product ${productId(0)} is missing`);
  const seeded = Array.from({ length: PRODUCTS }, (_, index) => {
    const version = template.version + index;
    const fields = product(index, 1990);
    return {
      ...template,
      ...productKey(index),
      ...fields,
      identifier: productId(index),
      version,
      vsk: versionSortKey('PRODUCT', version),
    };
  });
  // Each with its change item, as a write through the handler stores it.
  await batchPut(seeded.slice(1).flatMap(indexItemsOf));
  const seededVersion = template.version + PRODUCTS - 1;
  await updateItem({
    TableName: TABLE,
    Key: sellerKeys.counter(PRODUCT_SELLER),
    UpdateExpression: 'SET ver = :seeded',
    ConditionExpression: 'ver = :template',
    ExpressionAttributeValues: { ':seeded': seededVersion, ':template': template.version },
  });
  await updateItem({
    TableName: TABLE,
    Key: sellerKeys.catalog(PRODUCT_SELLER, 'TAX', 'moms'),
    UpdateExpression: 'ADD refs :seeded',
    ExpressionAttributeValues: { ':seeded': PRODUCTS - 1 },
  });
  const seedSeconds = (performance.now() - seeding) / 1000;
  if ((await currentVersion(PRODUCT_SELLER)) !== seededVersion) throw new Error('The seeded products are not counted');
  const changedProducts = Array.from({ length: CHANGED }, (_, i) => Math.floor(((i + 0.5) * PRODUCTS) / CHANGED));
  for (const index of changedProducts) {
    await invoke(catalog.handler, 'PUT', `${products}/${productId(index)}`, 204, product(index, 2490));
  }
  const productSizes = seeded.map(itemSize);
  for (const index of changedProducts) productSizes[index] = await sizeOf(productKey(index));
  const productsDiff = await measureDiff(
    PRODUCT_SELLER,
    'products',
    PRODUCTS,
    { from: seededVersion, to: await currentVersion(PRODUCT_SELLER) },
    {
      counter: await sizeOf(sellerKeys.counter(PRODUCT_SELLER)),
      changed: (await Promise.all(changedProducts.map((index) => changeSize(readBack, productKey(index))))).reduce(
        (sum, size) => sum + size,
        0,
      ),
    },
  );
  // A list ordered by name reads every product: its Query pages through them in identifier (= index)
  // order, 1 RCU per 4 KB of each page. (A page in identifier order reads only that page.)
  // The Queries after the caller's sign-in, itself a Query of the user's partition (SIGN_IN).
  const listQueries = (await invoke(catalog.handler, 'GET', `${products}?orderBy=name`, 200)).calls
    .filter((call) => call.command === 'Query')
    .slice(1);
  let pageStart = 0;
  const allProductsRcu = listQueries.reduce((sum, { scanned }) => {
    const page = productSizes.slice(pageStart, (pageStart += scanned));
    return sum + readUnits(page.reduce((bytes, size) => bytes + size, 0));
  }, 0);
  if (pageStart !== PRODUCTS) throw new Error(`The list's Query read ${pageStart} products, expected ${PRODUCTS}`);
  const firstPage = await invoke(catalog.handler, 'GET', products, 200);

  const fiscal = await measureFiscal(readBack);
  const saleCapacity = await measureSaleCapacity(readBack);

  // (f) statistics: a register with STATS_SALES sales over STATS_DAYS days, written straight into the table as
  // the ledger stored them before the per-product figures left the day item (each day's totals the sum of its
  // sales' contributions, every item its own version): such days are read as stored.
  // A 30-day and a 1-day read of product stats and of sales stats read the registrations and the days, never the
  // sales: the 30-day read costs more days, not more sales.
  const statsSeeding = performance.now();
  const statsRegister = { sellerId: STATS_SELLER, cash: 'Kassa 1' };
  await invoke(sellers.handler, 'PUT', `/v33/sellers/${STATS_SELLER}`, 201, { ...seller, corporateId: STATS_SELLER.slice(2) });
  const now = Date.now();
  const timeZone = dates.timeZoneOf(STATS_SELLER);
  const statsItems: StoredItem[] = [];
  const dayItems: StoredItem[] = [];
  let statsVersion = 0;
  const perDay = Math.ceil(STATS_SALES / STATS_DAYS);
  for (let day = 1; day <= STATS_DAYS; day++) {
    const opened = now - (STATS_DAYS - day) * 86_400_000 - 12 * 3_600_000;
    const openVersion = ++statsVersion;
    let dayTotals = totals.emptyTotals();
    for (let index = (day - 1) * perDay; index < Math.min(day * perDay, STATS_SALES); index++) {
      const product = index % 50;
      const rate = product % 2 === 0 ? 25 : 12;
      const brutto = (rate === 25 ? 125 : 112) * (1 + (index % 40));
      const vat = (brutto * rate) / (100 + rate);
      const close = opened + (index % perDay) * 60_000;
      const sale = {
        identifier: `s${String(index).padStart(6, '0')}`,
        sellerIdentifier: 'Bench',
        saleState: 'Complete' as const,
        refund: false,
        refundFor: null,
        absoluteDiscount: 0,
        relativeDiscount: 0,
        vanillaBrutto: brutto,
        discount: 0,
        brutto,
        vat,
        close,
        saleProducts: [
          {
            productIdentifier: `p${product}`,
            deltaUnit: true,
            delta: 1 + (index % 3),
            absoluteDiscount: 0,
            relativeDiscount: 0,
            vat,
            netto: brutto - vat,
            brutto,
            vanillaBrutto: brutto,
            discount: 0,
            vatRate: rate,
          },
        ],
        prints: [{ receiptNumber: index + 1, printType: 'Normal' as const, created: close, printed: true }],
        payments: [{ paymentType: index % 3 === 0 ? ('Cash' as const) : ('EmvStandalone' as const), amount: brutto }],
        vatRateSums: [
          {
            vatRate: rate * 100,
            vanillaVat: vat,
            vanillaNetto: brutto - vat,
            vanillaBrutto: brutto,
            vat,
            netto: brutto - vat,
            brutto,
          },
        ],
        day,
        recorded: close,
      };
      dayTotals = totals.addTotals(dayTotals, totals.saleContribution(sale));
      const version = ++statsVersion;
      statsItems.push({
        ...sale,
        ...ledger.saleKey(statsRegister, sale.identifier),
        version,
        vsk: versionSortKey(ledger.SALE, version),
        deleted: false,
        modified: close,
      });
    }
    const closed = day < STATS_DAYS;
    const version = ++statsVersion;
    dayItems.push({
      ...ledger.dayKey(statsRegister, day),
      dayNumber: day,
      // Day n is dated STATS_DAYS - n days before today (its times are only for the hours of its sales).
      date: dates.businessDate(now - (STATS_DAYS - day) * 86_400_000, timeZone),
      opened: !closed,
      reportPrinted: closed,
      open: opened,
      close: closed ? opened + 12 * 3_600_000 : null,
      cash: totals.cashBalance(dayTotals),
      totals: dayTotals,
      openVersion,
      version,
      vsk: versionSortKey(ledger.DAY, version),
      deleted: false,
      modified: opened,
    });
  }
  // The catalog's 50 products, so that product stats find their names (no diff of them is read).
  const statsProducts = Array.from({ length: 50 }, (_, product) => ({
    ...sellerKeys.catalog(STATS_SELLER, 'PRODUCT', `p${product}`),
    identifier: `p${product}`,
    name: `Product ${product}`,
    barcode: String(7_310_865_100_000 + product),
    netto: 1000,
    tax: 'moms',
    salesUnit: 'Piece',
    countedInPrice: true,
    version: product + 2,
    vsk: versionSortKey('PRODUCT', product + 2),
    deleted: false,
    modified: now,
  }));
  await batchPut([
    ...[...dayItems, ...statsItems, ...statsProducts].flatMap(indexItemsOf),
    { ...registerKeys.counter(STATS_SELLER, statsRegister.cash), ver: statsVersion, live: true },
    {
      ...registrationKeys.registration(STATS_SELLER, statsRegister.cash),
      id: 1,
      sellerId: STATS_SELLER,
      country: 'SE',
      corporateId: STATS_SELLER.slice(2),
      cashRegisterName: statsRegister.cash,
      productionNumber: null,
      applicationPackage: null,
      activationIds: [1],
      created: now,
      revision: 1,
      deleted: false,
    },
  ]);
  const statsSeedSeconds = (performance.now() - statsSeeding) / 1000;
  const registration = await sizeOf(registrationKeys.registration(STATS_SELLER, statsRegister.cash));
  const statsCounter = await sizeOf(sellerKeys.counter(STATS_SELLER));
  const daySizes = dayItems.map(itemSize).reverse();
  /** The days a read of `days` days reads: those days and the next older one, which ends the read. */
  const daysRead = (days: number) => readUnits(daySizes.slice(0, days + 1).reduce((sum, size) => sum + size, 0));
  const statsRead = async (label: string, path: string, days: number, extra: Model) => {
    const once = () =>
      invoke(stats.handler, 'GET', `/v33/${STATS_SELLER}/${path}?period=${days}&cashRegisterName=Kassa%201`, 200);
    await repeat(WARMUP, once);
    return {
      label: `${label}, ${days} day${days === 1 ? '' : 's'} of ${STATS_SALES.toLocaleString('en')} sales (n=${DIFF_REPS})`,
      samples: await repeat(DIFF_REPS, once),
      model: {
        // The seller's liveness (read ahead), the caller, the registrations, the register's days; then what the stat adds.
        commands: [AHEAD, SIGN_IN, 'Query', 'Query', ...extra.commands],
        capacity: {
          ...extra.capacity,
          tableRcu:
            readUnits(user) + readUnits(statsCounter) + readUnits(registration) + daysRead(days) + extra.capacity.tableRcu,
        },
      },
    } satisfies Operation;
  };
  const none: Model = { commands: [], capacity: { tableRcu: 0, lsiRcu: 0, tableWcu: 0, lsiWcu: 0 } };
  // Product stats read the sold products' names: one BatchGetItem of the 50 products.
  const productsRcu = statsProducts.reduce((sum, product) => sum + readUnits(itemSize(product)), 0);
  const productNames: Model = {
    commands: ['BatchGetItem'],
    capacity: { tableRcu: productsRcu, lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
  };
  const statsOperations: Operation[] = [];
  for (const days of [STATS_DAYS, 1]) {
    statsOperations.push(await statsRead('product stats', 'products/stats', days, productNames));
    statsOperations.push(await statsRead('sales stats', 'sales/stats', days, none));
  }

  // (g) the journal export of a register with EXPORT_SALES printed sales over EXPORT_DAYS closed days (scripts/bench/journal-export.ts).
  const journalExport = await measureJournalExport({
    invoke,
    event,
    batchPut,
    readBack,
    pricing: { readUnits, itemSize },
  });

  const operations = [
    create,
    read,
    keyRead,
    keyHandshake,
    update,
    taxesDiff.operation,
    productsDiff.operation,
    imagePut,
    imageGet,
    ...fiscal.operations,
    ...saleCapacity.operations,
    ...statsOperations,
    ...journalExport.operations,
  ];
  checkCommands(operations);
  // The kd rows check their own pricing: the reads of the reply vary with the round trip.
  const kd = await measureKd({
    invoke,
    readBack,
    pricing: { readUnits, writeUnits, itemSize, transaction: TRANSACTION },
    seller: SELLER,
    user: USER.username,
  });
  const cloudKd = await measureCloudKd(cloudKdKit(readBack));
  console.log(
    `Stats seller: ${STATS_SALES.toLocaleString('en')} sales over ${STATS_DAYS} days seeded with BatchWriteItem in ${statsSeedSeconds.toFixed(1)} s.`,
  );
  return {
    operations: [...operations, ...kd.operations, ...cloudKd.operations],
    requests: firstRequests(apiKey, lastTax),
    fiscal: [...fiscal.summary, ...saleCapacity.summary, ...journalExport.summary, ...kd.summary, ...cloudKd.summary],
    diffs: [
      // All the taxes: estimated from the changed taxes' mean size.
      { ...taxesDiff.figures, all: { computedRcu: readUnits((TAXES * changedBytes) / CHANGED) } },
      {
        ...productsDiff.figures,
        all: {
          computedRcu: allProductsRcu,
          reported: {
            rcu: reported(listQueries).tableRcu,
            by:
              `the Query of GET ${products.replace(PRODUCT_SELLER, '{sellerId}')}?orderBy=name (${listQueries.length} pages; ` +
              `${(PRODUCTS - 1).toLocaleString('en')} products seeded with BatchWriteItem in ${seedSeconds.toFixed(1)} s); ` +
              `the default list page (100 in identifier order) read ${reported(firstPage.calls).tableRcu} RCU`,
          },
        },
      },
    ],
  };
}

// ---- The fiscal function: a register's trading day -----------------------------------------------

/** The sales of the day whose close and Z report are measured. */
const DAY_SALES = 1000;
/** The register with a history has this many earlier days, each of EARLIER_DAY_SALES sales, closed and reported. */
const EARLIER_DAYS = 20;
const EARLIER_DAY_SALES = 50;
/** The entries of the generated e-journal the offline verifier checks. */
const JOURNAL_ENTRIES = 1000;
const VERIFY_RUNS = 21;

/** An item as stored, read back strongly consistently (sizes and state the pricing needs; not measured). */
type ReadBack = (key: { pk: string; sk: string }) => Promise<Record<string, unknown>>;

/** A register of the bench seller, activated through activations-advanced: it calls with its API key. */
interface Till {
  name: string;
  activationId: number;
  caller: Caller;
  /** The v33 path of the register: `/v33/{sellerId}/registrations/{cash}`. */
  base: string;
}

/** A Paid cash sale of 3 lines at 2 VAT rates (25 % and 12 %) as v33 posts it; with its Normal print when `printed`. */
const saleOf = (printed: boolean) => ({
  identifier: randomUUID(),
  sellerIdentifier: 'Anna',
  saleState: 'Paid',
  refund: false,
  refundFor: null,
  brutto: 28_700,
  vat: 4700,
  saleProducts: [
    { productIdentifier: 'p1', name: 'Kaffe', deltaUnit: true, delta: 1, vat: 2500, netto: 10_000, brutto: 12_500, vatRate: 25 },
    {
      productIdentifier: 'p2',
      name: 'Bulle',
      deltaUnit: true,
      delta: 2,
      vat: 1000,
      netto: 4000,
      brutto: 5000,
      productBrutto: 2500,
      vatRate: 25,
    },
    {
      productIdentifier: 'p3',
      name: 'Smörgås',
      deltaUnit: true,
      delta: 1,
      vat: 1200,
      netto: 10_000,
      brutto: 11_200,
      vatRate: 12,
    },
  ],
  payments: [{ paymentType: 'Cash', amount: 28_700 }],
  vatRateSums: [
    { vatRate: 2500, vat: 3500, netto: 14_000, brutto: 17_500 },
    { vatRate: 1200, vat: 1200, netto: 10_000, brutto: 11_200 },
  ],
  prints: printed ? [{ printType: 'Normal', receiptNumber: null }] : [],
});

/**
 * An item a fiscal write writes: its size before (undefined: new) and after (undefined: deleted). An indexed entity (a
 * sale, a closed day) is two or three: itself, its new change item (new) and, when its version moved, its change item
 * at the old version (deleted); the open day has none.
 */
interface Put {
  before?: number;
  after?: number;
}

/**
 * A software vendor's application that needs no control unit, registered under `applicationPackage`; answers how to
 * activate a register of the bench seller on it (through activations-advanced, as an administrator).
 */
async function benchApplication(applicationPackage: string, productionNumberPrefix: string) {
  const [vendors, activations] = await Promise.all([
    import('#functions/vendors/handler.ts'),
    import('#functions/activations/handler.ts'),
  ]);
  const { id: softwareVendor } = (await invoke(vendors.handler, 'POST', '/v33/software-vendors', 201, { name: 'Bench AB' }))
    .body as { id: number };
  await invoke(vendors.handler, 'POST', '/v33/application-descriptions', 201, {
    applicationPackage,
    productionNumberPrefix,
    controlUnitRequired: false,
    name: 'Bench',
    softwareVendor,
    autoActivationCondition: 'NO_FEATURES',
    corporateIdValidationMethod: 'NONE',
  });
  return async (name: string): Promise<Till & { apiKey: string }> => {
    const { body } = await invoke(activations.handler, 'POST', '/v33/activations-advanced', 201, {
      country: 'SE',
      corporateId: SELLER.slice(2),
      companyName: 'Bench',
      cashRegisterName: name,
      features: [],
      validFrom: Date.now() - 86_400_000,
      validTo: Date.now() + 365 * 86_400_000,
      applicationPackage,
      installationCreationInfo: { deviceId: randomUUID().slice(0, 16), buildInfo: { os: 'bench' }, programVersion: '1.0' },
    });
    const { apiKey, activationId } = body as { apiKey: string; activationId: number };
    return { name, activationId, apiKey, caller: { 'x-api-key': apiKey }, base: `/v33/${SELLER}/registrations/${name}` };
  };
}

/** A Query answers at most 1 MB of items a page. */
const QUERY_PAGE = 1024 * KB;

/**
 * The price of the paged strongly consistent Query of the sales' change items that folds a day's breakdown from its sales
 * (shared/fiscal/ledger.ts, readDayBreakdown): pages of at most 1 MB of items, each 1 RCU per 4 KB of its items.
 */
function salesQuery(sizes: readonly number[]): Model {
  const pages: number[] = [0];
  for (const size of sizes) {
    if ((pages.at(-1) ?? 0) + size > QUERY_PAGE) pages.push(0);
    pages[pages.length - 1] = (pages.at(-1) ?? 0) + size;
  }
  return {
    commands: pages.map(() => 'Query'),
    capacity: { tableRcu: pages.reduce((sum, page) => sum + readUnits(page), 0), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
  };
}

/** The sizes of the change items of a day's sales as its breakdown's Query reads them (version order), read back unmeasured. */
async function daySaleSizes(register: { sellerId: string; cash: string }, day: Record<string, unknown>): Promise<number[]> {
  const [{ queryAll }, { changeRange }, { registerPk }] = await Promise.all([
    import('#shared/db/reads.ts'),
    import('#shared/db/keys.ts'),
    import('#shared/domain/records.ts'),
  ]);
  const [low, high] = changeRange('SALE', Number(day.openVersion) - 1, Number(day.version));
  const changes = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': registerPk(register.sellerId, register.cash), ':low': low, ':high': high },
  });
  return changes.map(itemSize);
}

/** The size of an indexed item's change item (its copy under `#V#<vsk>`, shared/db/streams.ts), read back unmeasured. */
async function changeSize(readBack: ReadBack, key: { pk: string; sk: string }): Promise<number> {
  const { changeKey } = await import('#shared/db/keys.ts');
  const { vsk } = await readBack(key);
  if (typeof vsk !== 'string') throw new Error(`Item ${key.pk} ${key.sk} has no vsk`);
  return itemSize(await readBack(changeKey(key.pk, vsk)));
}

/**
 * The price of a fiscal write by a register (shared/fiscal/ledger.ts): its API key, the seller's liveness (its counter),
 * the register's counter and the items the write asks for (undefined: missing, still read), the latest day, and one
 * transaction of `puts` unless it writes nothing. A route that reads ahead (`ahead`: a sale write, a print) reads them
 * all in the pipeline's one BatchGet (AHEAD); another reads the key and the seller's counter there, then a BatchGet of
 * the register's counter and the items asked for, then the latest day's GetItem.
 * A put over an item costs the larger of both images, a delete the image it deletes.
 */
function ledgerWrite(
  reads: { key: number; sellerCounter: number; counter: number; asked: readonly (number | undefined)[]; day: number },
  puts: readonly Put[],
  ahead: boolean,
): Model {
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  return {
    commands: [AHEAD, ...(ahead ? [] : ['BatchGetItem', 'GetItem']), ...(puts.length > 0 ? ['TransactWriteItems'] : [])],
    capacity: {
      tableRcu: sum(
        [reads.key, reads.sellerCounter, reads.counter, ...reads.asked.map((size) => size ?? 0), reads.day].map(readUnits),
      ),
      lsiRcu: 0,
      tableWcu: TRANSACTION * sum(puts.map(({ before, after }) => writeUnits(Math.max(before ?? 0, after ?? 0)))),
      lsiWcu: 0,
    },
  };
}

/** The price of a read that finds every item it needs in the pipeline's one BatchGet (AHEAD): items of `sizes` bytes. */
function readAheadOnly(sizes: readonly number[]): Model {
  return {
    commands: [AHEAD],
    capacity: { tableRcu: sizes.reduce((sum, size) => sum + readUnits(size), 0), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
  };
}

/**
 * The fiscal rows: a register posts sales (then replays them, then prints their receipts), and the close and Z
 * report of a day of DAY_SALES sales, on a register whose first day it is and on one with EARLIER_DAYS earlier
 * days; then the offline verification of a JOURNAL_ENTRIES-entry generated e-journal. Every figure comes from
 * the handler; the sales that only fill the days are posted through it too (with their Normal print), the two
 * registers side by side, outside any measurement.
 */
async function measureFiscal(readBack: ReadBack): Promise<{ operations: Operation[]; summary: string[] }> {
  const started = performance.now();
  const [{ hashApiKey }, { dayKey, saleKey }, { verifyJournal }, { publicKeyPemFor }, fiscal] = await Promise.all([
    import('#shared/auth/api-keys.ts'),
    import('#shared/fiscal/ledger.ts'),
    import('#shared/fiscal/verify-journal.ts'),
    import('#shared/signing/signer.ts'),
    import('#functions/fiscal/handler.ts'),
  ]);
  const sizeOf = async (key: { pk: string; sk: string }) => itemSize(await readBack(key));

  // Two registers of the bench seller, of an application that needs no control unit.
  const activate = await benchApplication('se.example.bench', 'BE');
  const fresh = await activate('Kassa-2');
  const seasoned = await activate('Kassa-3');

  const post = (till: Till, sale: ReturnType<typeof saleOf>) =>
    invoke(fiscal.handler, 'POST', `${till.base}/sales`, 201, sale, till.caller);
  const printReceipt = (till: Till, identifier: string) =>
    invoke(fiscal.handler, 'POST', `${till.base}/sales/${identifier}/receipt`, 201, undefined, till.caller);
  const closeDay = (till: Till) => invoke(fiscal.handler, 'POST', `${till.base}/days/current`, 201, undefined, till.caller);
  const readReport = (till: Till, dayNumber: number) =>
    invoke(fiscal.handler, 'GET', `${till.base}/days/${dayNumber}/report`, 200, undefined, till.caller);
  const registerOf = (till: Till) => ({ sellerId: SELLER, cash: till.name });
  const counterKey = (till: Till) => registerKeys.counter(SELLER, till.name);
  /** The register's last journal entry, as its counter's ledger names it. */
  const lastEntry = async (till: Till) => {
    const { ledger } = (await readBack(counterKey(till))) as { ledger: Ledger };
    return registerKeys.journalEntry(SELLER, till.name, ledger.journal.sequence);
  };
  const sellerCounter = () => sizeOf(sellerKeys.counter(SELLER));
  const keySize = (till: Till & { apiKey: string }) => sizeOf(apiKeyKey(hashApiKey(till.apiKey)));

  // (f) sales of the fresh register's first day: posted without prints, replayed, then printed.
  const warmSales = Array.from({ length: WARMUP }, () => saleOf(false));
  const sales = Array.from({ length: REPS }, () => saleOf(false));
  const firstDay = dayKey(registerOf(fresh), 1);
  for (const sale of warmSales) await post(fresh, sale);
  const posts: Sample[] = [];
  for (const sale of sales) posts.push(await post(fresh, sale));
  const lastSale = saleKey(registerOf(fresh), sales.at(-1)?.identifier ?? '');
  const posted = {
    key: await keySize(fresh),
    sellerCounter: await sellerCounter(),
    counter: await sizeOf(counterKey(fresh)),
    sale: await sizeOf(lastSale),
    saleChange: await changeSize(readBack, lastSale),
    day: await sizeOf(firstDay),
    entry: await sizeOf(await lastEntry(fresh)),
    // A sale write reads the register's activation (its control unit's serial).
    activation: await sizeOf(activationKeys.activation(fresh.activationId)),
  };
  const salePost: Operation = {
    label: `sale POST, 3 lines, 2 VAT rates (n=${REPS})`,
    samples: posts,
    model: ledgerWrite(
      { ...posted, asked: [undefined, posted.activation] },
      [
        { before: posted.counter, after: posted.counter },
        { after: posted.sale },
        { after: posted.saleChange },
        { before: posted.day, after: posted.day },
        { after: posted.entry },
      ],
      true,
    ),
  };

  // A replay finds the sale stored with the same body's digest and answers as the first POST did.
  const replay = async (sale: ReturnType<typeof saleOf>) => {
    const sample = await post(fresh, sale);
    const written = reported(sample.calls);
    const writes = sample.calls.filter((call) => !READS.test(call.command)).map((call) => call.command);
    if (writes.length > 0 || written.tableWcu + written.lsiWcu > 0) {
      throw new Error(`A replayed sale POST wrote: ${writes.join(', ')}; ${written.tableWcu} + ${written.lsiWcu} WCU reported`);
    }
    if ((sample.body as { identifier: string }).identifier !== sale.identifier) throw new Error('A replay answered another sale');
    return sample;
  };
  for (const sale of warmSales) await replay(sale);
  const replays: Sample[] = [];
  for (const sale of sales) replays.push(await replay(sale));
  const salePostReplayed: Operation = {
    label: `sale POST replayed, writes nothing (n=${REPS})`,
    samples: replays,
    model: ledgerWrite({ ...posted, asked: [posted.sale, posted.activation] }, [], true),
  };

  // The receipts: each takes the next receipt number, in the sale, the day's totals, the journal and its record.
  for (const sale of warmSales) await printReceipt(fresh, sale.identifier);
  const prints: Sample[] = [];
  for (const sale of sales) prints.push(await printReceipt(fresh, sale.identifier));
  const lastPrinted = prints.at(-1)?.body as { receiptNumber: number; receiptUrl: string };
  const printed = {
    sale: await sizeOf(lastSale),
    saleChange: await changeSize(readBack, lastSale),
    day: await sizeOf(firstDay),
    entry: await sizeOf(await lastEntry(fresh)),
    receipt: await sizeOf(registerKeys.receipt(SELLER, fresh.name, lastPrinted.receiptNumber)),
    link: await sizeOf(registerKeys.receiptLink(lastPrinted.receiptUrl.split('/').at(-1) ?? '')),
  };
  // What a receipt prints of the seller and the register: its profile, the registration, the latest activation.
  const context = [
    await sizeOf(sellerKeys.profile(SELLER)),
    await sizeOf(registrationKeys.registration(SELLER, fresh.name)),
    await sizeOf(activationKeys.activation(fresh.activationId)),
  ];
  // A print reads its context ahead with the ledger's items: the seller's profile and the registration (the latest
  // activation is the register's own, which the print reads anyway).
  const printWrite = ledgerWrite(
    { ...posted, asked: [posted.sale, posted.activation, context[0], context[1]], day: printed.day },
    [
      { before: posted.counter, after: posted.counter },
      { before: posted.sale, after: printed.sale },
      { after: printed.saleChange },
      { before: posted.saleChange },
      { before: printed.day, after: printed.day },
      { after: printed.entry },
      { after: printed.receipt },
      { after: printed.link },
    ],
    true,
  );
  const receiptPrint: Operation = { label: `receipt print (n=${REPS})`, samples: prints, model: printWrite };

  // The printed receipt read again as the printer's text and as the customer's page, everything read ahead: the key, the
  // seller's liveness, the registration and counter, the sale and the receipt's context; nothing is written.
  const readReceipt = (accept: string) =>
    invoke(
      fiscal.handler,
      'GET',
      `${fresh.base}/sales/${sales.at(-1)?.identifier ?? ''}/receipt`,
      200,
      undefined,
      fresh.caller,
      accept,
    );
  const receiptReadModel = readAheadOnly([posted.key, posted.sellerCounter, posted.counter, printed.sale, ...context]);
  const receiptReads: Operation[] = [];
  for (const accept of ['text/plain', 'text/html']) {
    await repeat(WARMUP, () => readReceipt(accept));
    const samples = await repeat(REPS, () => readReceipt(accept));
    if (typeof samples[0]?.body !== 'string') throw new Error(`The receipt as ${accept} is no text`);
    receiptReads.push({ label: `receipt read as ${accept} (n=${REPS})`, samples, model: receiptReadModel });
  }

  // The days: the fresh register's first day filled up to DAY_SALES sales; beside it, the seasoned register's
  // EARLIER_DAYS days, each closed and its Z report printed, then a day of DAY_SALES sales. The two lanes run
  // side by side, so their samples are not kept.
  const fill = async (till: Till, count: number) => {
    for (let i = 0; i < count; i++) await post(till, saleOf(true));
  };
  const seeding = performance.now();
  await Promise.all([
    fill(fresh, DAY_SALES - WARMUP - REPS),
    (async () => {
      for (let dayNumber = 1; dayNumber <= EARLIER_DAYS; dayNumber++) {
        await fill(seasoned, EARLIER_DAY_SALES);
        await closeDay(seasoned);
        await invoke(fiscal.handler, 'POST', `${seasoned.base}/days/${dayNumber}/report`, 201, undefined, seasoned.caller);
      }
      await fill(seasoned, DAY_SALES);
    })(),
  ]);
  const seedSeconds = (performance.now() - seeding) / 1000;

  const days = [
    { till: fresh, dayNumber: 1, history: "register's 1st day" },
    { till: seasoned, dayNumber: EARLIER_DAYS + 1, history: `after ${EARLIER_DAYS} earlier days` },
  ];
  const measuredDays = [];
  for (const { till, dayNumber, history } of days) {
    const day = dayKey(registerOf(till), dayNumber);
    const open = {
      key: await keySize(till),
      sellerCounter: await sellerCounter(),
      counter: await sizeOf(counterKey(till)),
      day: await sizeOf(day),
    };
    // The close folds the day's sales per category from its sales (one paged Query of the version index) and keeps
    // them in the closed day, which the Z report then reads alone.
    const breakdown = salesQuery(await daySaleSizes(registerOf(till), await readBack(day)));
    const close = await closeDay(till);
    const closed = {
      counter: await sizeOf(counterKey(till)),
      day: await sizeOf(day),
      dayChange: await changeSize(readBack, day),
      entry: await sizeOf(await lastEntry(till)),
    };
    // Before its write, the close reads the register's export context (shared/fiscal/export-context.ts), which its
    // journal entry keeps beside the Z report: the seller's profile and the registration together, then the latest
    // activation, the installation its production number names and that installation's application.
    const registered = (await readBack(registrationKeys.registration(SELLER, till.name))) as { productionNumber: string | null };
    if (registered.productionNumber === null) throw new Error(`Register ${till.name} has no installation`);
    const installation = (await readBack(installationKey(registered.productionNumber))) as { applicationPackage: string };
    const exportContext = [
      await sizeOf(sellerKeys.profile(SELLER)),
      itemSize(registered),
      await sizeOf(activationKeys.activation(till.activationId)),
      itemSize(installation),
      await sizeOf(applicationKeys.application(installation.applicationPackage)),
    ];
    const closeWrite = ledgerWrite(
      { ...open, asked: [] },
      [
        { before: open.counter, after: closed.counter },
        { before: open.day, after: closed.day },
        { after: closed.dayChange },
        { after: closed.entry },
      ],
      false,
    );
    const dayClose: Operation = {
      label: `day close, ${DAY_SALES.toLocaleString('en')} sales, ${history} (n=1)`,
      samples: [close],
      model: {
        commands: [...exportContext.map(() => 'GetItem'), ...closeWrite.commands, ...breakdown.commands],
        capacity: {
          ...closeWrite.capacity,
          tableRcu:
            closeWrite.capacity.tableRcu +
            exportContext.reduce((sum, size) => sum + readUnits(size), 0) +
            breakdown.capacity.tableRcu,
        },
      },
    };
    await repeat(WARMUP, () => readReport(till, dayNumber));
    const reads = await repeat(REPS, () => readReport(till, dayNumber));
    if ((reads[0]?.body as { type: string }).type !== 'Z') throw new Error(`Day ${dayNumber} of ${till.name} has no Z report`);
    // Everything read ahead: the key, the seller's liveness, the registration and counter, the day (its path names it),
    // the report's seller profile and the register's latest activation (its own). A closed day keeps its sales per
    // category, so no sale is read.
    const zReport: Operation = {
      label: `Z report read, ${DAY_SALES.toLocaleString('en')} sales, ${history} (n=${REPS})`,
      samples: reads,
      model: readAheadOnly([
        open.key,
        open.sellerCounter,
        await sizeOf(registrationKeys.registration(SELLER, till.name)),
        closed.counter,
        closed.day,
        await sizeOf(sellerKeys.profile(SELLER)),
        await sizeOf(activationKeys.activation(till.activationId)),
      ]),
    };
    measuredDays.push({ dayClose, zReport });
  }
  // Neither the close nor the report reads the earlier days: they make the same calls, their Queries read as many items,
  // and the other calls report the same capacity. The Queries' pages are left out: the two registers' sales differ by a
  // few bytes (their versions and times are numbers, sized by their digits), so the 1 MB pages of a thousand change items
  // may end one item apart, and round to one 4 KB unit more on one register. Reads made in parallel (the report's seller,
  // registration and categories) finish in any order: compare the calls made.
  const figures = ({ samples: [sample] }: Operation) =>
    JSON.stringify(
      sample && [
        sample.calls.map((call) => call.command).sort(),
        sample.calls.filter((call) => call.command === 'Query').reduce((sum, call) => sum + call.scanned, 0),
        reported(sample.calls.filter((call) => call.command !== 'Query')),
      ],
    );
  for (const kind of ['dayClose', 'zReport'] as const) {
    const [first, later] = measuredDays.map((day) => day[kind]);
    if (first && later && figures(first) !== figures(later)) {
      throw new Error(`${later.label} costs ${figures(later)}, on a register's first day ${figures(first)}`);
    }
  }

  // The journal: a generated-e-journals answer of exactly JOURNAL_ENTRIES entries, a from/to slice of the fresh
  // register's journal whose bounds fall between transactions (the entries of one share their `created`).
  const journalPath = `/v33/${SELLER}/generated-e-journals/${fresh.name}`;
  const readJournal = (query = '') => invoke(fiscal.handler, 'GET', `${journalPath}${query}`, 200, undefined, fresh.caller);
  const created = ((await readJournal()).body as SignedJournal).entries.map((entry) => entry.created);
  const start = created.findIndex(
    (time, index) =>
      index + JOURNAL_ENTRIES <= created.length &&
      created[index - 1] !== time &&
      created[index + JOURNAL_ENTRIES] !== created[index + JOURNAL_ENTRIES - 1],
  );
  if (start < 0) throw new Error(`No slice of ${JOURNAL_ENTRIES} entries in a journal of ${created.length}`);
  const slice = `?from=${created[start]}&to=${created[start + JOURNAL_ENTRIES - 1]}`;
  const { body, calls: sliceCalls } = await readJournal(slice);
  const journal = body as SignedJournal;
  if (journal.entries.length !== JOURNAL_ENTRIES) throw new Error(`The slice has ${journal.entries.length} entries`);
  const pem = await publicKeyPemFor(journal.publicKeyFileName);
  if (pem === undefined) throw new Error(`No public key ${journal.publicKeyFileName}`);
  const verifyOnce = (): Sample & { wallMs: number } => {
    const wall = performance.now();
    const cpuStart = process.cpuUsage();
    const verdict = verifyJournal(journal, pem);
    const cpu = process.cpuUsage(cpuStart);
    const wallMs = performance.now() - wall;
    if (!verdict.valid || verdict.entries !== JOURNAL_ENTRIES)
      throw new Error(`The journal did not verify: ${JSON.stringify(verdict)}`);
    return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs, calls: [], body: verdict };
  };
  verifyOnce();
  const verifications = Array.from({ length: VERIFY_RUNS }, verifyOnce);
  const verification: Operation = {
    label: `journal verification, ${JOURNAL_ENTRIES.toLocaleString('en')} entries (n=${VERIFY_RUNS})`,
    samples: verifications,
    model: { commands: [], capacity: { tableRcu: 0, lsiRcu: 0, tableWcu: 0, lsiWcu: 0 } },
  };
  const walls = verifications.map((run) => run.wallMs);

  const seeded = DAY_SALES - WARMUP - REPS + EARLIER_DAYS * EARLIER_DAY_SALES + DAY_SALES;
  return {
    operations: [
      salePost,
      salePostReplayed,
      receiptPrint,
      ...receiptReads,
      ...measuredDays.map((day) => day.dayClose),
      ...measuredDays.map((day) => day.zReport),
      verification,
    ],
    summary: [
      `Fiscal: the rows took ${((performance.now() - started) / 1000).toFixed(0)} s, ${seedSeconds.toFixed(0)} s of it posting ` +
        `the ${seeded.toLocaleString('en')} sales that fill the days through the handler (two registers side by side); day close and Z report make the same calls, read as many items and report the same capacity outside their Queries on a register's ` +
        `first day as after ${EARLIER_DAYS} earlier days of ${EARLIER_DAY_SALES} sales (checked).`,
      `Journal: verifyJournal over a ${JOURNAL_ENTRIES.toLocaleString('en')}-entry generated-e-journals answer ` +
        `(${Math.round(Buffer.byteLength(JSON.stringify(journal)) / KB)} KB of JSON, sequences ${journal.entries[0]?.sequence}-${journal.head.sequence}) ` +
        `took ${median(walls).toFixed(1)} ms wall (median of ${VERIFY_RUNS}, ${Math.min(...walls).toFixed(1)}-${Math.max(...walls).toFixed(1)}); ` +
        `the slice's request read ${sliceCalls.reduce((sum, call) => sum + call.scanned, 0).toLocaleString('en')} journal entries ` +
        `(the register's whole journal has ${created.length.toLocaleString('en')}) with ${sliceCalls.filter((call) => call.command === 'Query').length} Query call(s).`,
    ],
  };
}

/** The sale-capacity rows: a sale of SALE_LINES new products when the day has sold 10 and 10,000 distinct products. */
const SALE_LINES = 10;
const DAY_PRODUCTS = [10, 10_000] as const;
/** The lines of the sales that fill the day between the two (the schema's most). */
const FILL_LINES = 500;

/** A Paid cash sale, unprinted, of one piece each of the products named, at 12.50 and 25 % VAT. */
const salesOfProducts = (products: readonly string[]) => ({
  identifier: randomUUID(),
  sellerIdentifier: 'Anna',
  saleState: 'Paid',
  refund: false,
  refundFor: null,
  brutto: 1250 * products.length,
  vat: 250 * products.length,
  saleProducts: products.map((productIdentifier) => ({
    productIdentifier,
    name: productIdentifier,
    deltaUnit: true,
    delta: 1,
    vat: 250,
    netto: 1000,
    brutto: 1250,
  })),
  payments: [{ paymentType: 'Cash', amount: 1250 * products.length }],
  vatRateSums: [{ vatRate: 2500, vat: 250 * products.length, netto: 1000 * products.length, brutto: 1250 * products.length }],
  prints: [],
});

/**
 * The write capacity of a sale does not grow with what its day sold (docs/decisions.md, "Where a day's per-product
 * totals live"): a register's sale of SALE_LINES new products when its day has sold 10 distinct products, and again
 * after sales of FILL_LINES products each brought the day to 10,000; the bench fails unless both cost the same
 * round trips and reported capacity, and each is priced as the sale POST is (shared/fiscal/ledger.ts).
 */
async function measureSaleCapacity(readBack: ReadBack): Promise<{ operations: Operation[]; summary: string[] }> {
  const [{ hashApiKey }, { dayKey, saleKey }, fiscal] = await Promise.all([
    import('#shared/auth/api-keys.ts'),
    import('#shared/fiscal/ledger.ts'),
    import('#functions/fiscal/handler.ts'),
  ]);
  const sizeOf = async (key: { pk: string; sk: string }) => itemSize(await readBack(key));
  const till = await (await benchApplication('se.example.bench.totals', 'BT'))('Kassa-4');
  const register = { sellerId: SELLER, cash: till.name };
  let sold = 0;
  const sell = (count: number) => {
    const products = Array.from({ length: count }, (_, index) => `p${sold + index}`);
    sold += count;
    return invoke(fiscal.handler, 'POST', `${till.base}/sales`, 201, salesOfProducts(products), till.caller);
  };
  const fillTo = async (products: number) => {
    while (sold < products) await sell(Math.min(FILL_LINES, products - sold));
  };
  const operations: Operation[] = [];
  for (const products of DAY_PRODUCTS) {
    await fillTo(products);
    const before = { counter: await sizeOf(registerKeys.counter(SELLER, till.name)), day: await sizeOf(dayKey(register, 1)) };
    const sample = await sell(SALE_LINES);
    const { ledger } = (await readBack(registerKeys.counter(SELLER, till.name))) as { ledger: Ledger };
    const sold = saleKey(register, (sample.body as { identifier: string }).identifier);
    const after = {
      counter: await sizeOf(registerKeys.counter(SELLER, till.name)),
      sale: await sizeOf(sold),
      saleChange: await changeSize(readBack, sold),
      day: await sizeOf(dayKey(register, 1)),
      entry: await sizeOf(registerKeys.journalEntry(SELLER, till.name, ledger.journal.sequence)),
    };
    operations.push({
      label: `sale POST, ${SALE_LINES} new products, the day having sold ${products.toLocaleString('en')} (n=1)`,
      samples: [sample],
      model: ledgerWrite(
        {
          key: await sizeOf(apiKeyKey(hashApiKey(till.apiKey))),
          sellerCounter: await sizeOf(sellerKeys.counter(SELLER)),
          counter: before.counter,
          asked: [undefined, await sizeOf(activationKeys.activation(till.activationId))],
          day: before.day,
        },
        [
          { before: before.counter, after: after.counter },
          { after: after.sale },
          { after: after.saleChange },
          { before: before.day, after: after.day },
          { after: after.entry },
        ],
        true,
      ),
    });
  }
  const figures = ({ samples: [sample] }: Operation) =>
    JSON.stringify(sample && [sample.calls.map((call) => call.command), reported(sample.calls)]);
  const [first, later] = operations;
  if (first && later && figures(first) !== figures(later)) {
    throw new Error(`${later.label} costs ${figures(later)}; ${first.label} ${figures(first)}`);
  }
  return {
    operations,
    summary: [
      `Sale capacity: a sale of ${SALE_LINES} new products costs the same round trips and reported capacity when its day has sold ` +
        `${DAY_PRODUCTS.map((products) => products.toLocaleString('en')).join(' and ')} distinct products (checked).`,
    ],
  };
}

// ---- Floors: the operations' DynamoDB calls sent by a bare client (scripts/bench/replay.ts) ------------

const FLOOR_REPS = 20;
/** A row of one request (a day close) still gets a floor of several sends. */
const FLOOR_MIN_REPS = 5;

/** An operation's floor: the CPU times of its sends, and how many calls each made. */
interface Floor {
  cpuMs: number[];
  trips: number;
}

/** Per operation with DynamoDB calls: its floor, the calls of its last sample with the median round trips. */
async function measureFloors(operations: readonly Operation[]): Promise<Map<Operation, Floor>> {
  const floors = new Map<Operation, Floor>();
  for (const operation of operations) {
    const trips = median(operation.samples.map((sample) => sample.calls.length));
    const typical = operation.samples.findLast((sample) => sample.calls.length === trips) ?? operation.samples.at(-1);
    if (!typical || typical.calls.length === 0) continue;
    const reps = Math.min(FLOOR_REPS, Math.max(FLOOR_MIN_REPS, operation.samples.length));
    floors.set(operation, { cpuMs: await floorCpu(typical.calls, reps), trips: typical.calls.length });
  }
  return floors;
}

// ---- Report --------------------------------------------------------------------------------------

function report(
  operations: readonly Operation[],
  floors: ReadonlyMap<Operation, Floor>,
  diffs: readonly DiffFigures[],
  fiscal: readonly string[],
  seconds: number,
): string {
  const rows = [
    ['', 'CPU / request', '/ floor', 'round trips', 'RCU table', 'RCU LSI', 'WCU table', 'WCU LSI'],
    ...operations.flatMap((operation) => {
      const { label, samples, model } = operation;
      const reports = samples.map((sample) => reported(sample.calls));
      const cpu = median(samples.map((sample) => sample.cpuMs));
      const trips = median(samples.map((sample) => sample.calls.length));
      const floor = floors.get(operation);
      const floorCpu = floor && median(floor.cpuMs);
      const row = [
        label,
        `${cpu.toFixed(2)} ms`,
        floorCpu ? `${(cpu / floorCpu).toFixed(1)}x` : '—',
        String(trips),
        ...CAPACITY_FIELDS.map((field) => {
          const measured = median(reports.map((capacity) => capacity[field]));
          const computed = model.capacity[field];
          return `${measured} / ${computed}${measured === computed ? '' : ' !'}`;
        }),
      ];
      if (!floor || floorCpu === undefined) return [row];
      const floorRow = [
        `  floor: the same calls, bare client (n=${floor.cpuMs.length})`,
        `${floorCpu.toFixed(2)} ms`,
        '',
        String(floor.trips),
      ];
      return [row, [...floorRow, ...CAPACITY_FIELDS.map(() => '')]];
    }),
  ];
  return [
    table(rows),
    '',
    ...diffs.map(
      ({ plural, total, itemsRead, bytes, computedRcu, reportedRcu, all }) =>
        `${plural}-diff over ${total.toLocaleString('en')} ${plural} with ${CHANGED} changed: the Query of their change items read ${itemsRead} items ` +
        `(${bytes.toLocaleString('en')} B) -> ${computedRcu} RCU computed, ${reportedRcu} reported; ` +
        `reading all ${total.toLocaleString('en')} ${plural} would be ~${all.computedRcu} RCU` +
        (all.reported ? `, ${all.reported.rcu} reported for ${all.reported.by}.` : '.'),
    ),
    ...fiscal,
    '',
    'Legend',
    '- Operations: the source handlers invoked in-process with an HTTP API v2 event, after warm-up: functions/catalog for',
    '  POST /v26/{sellerId}/taxes, GET and PUT /v26/{sellerId}/taxes/{id}, GET /v26/{sellerId}/taxes-diff/{from}/{to},',
    `  GET /v26/{sellerId}/products-diff/{from}/{to} of a second seller with 1 tax and ${PRODUCTS.toLocaleString('en')} products (one written`,
    `  through the handler, the others copied from its stored item into the table, ${CHANGED} of them then PUT through the handler);`,
    '  functions/users for GET /v33/auth/handshake; functions/images for PUT and GET /v33/{sellerId}/images/current/{file}',
    '  (a 200 KB PNG, base64 in the event as API Gateway sends it; bytes in the local folder store, CPU includes its file I/O);',
    `  functions/stats for GET /v33/{sellerId}/products/stats and /sales/stats?period=N&cashRegisterName=... of a third seller`,
    `  whose one register has ${STATS_SALES.toLocaleString('en')} sales over ${STATS_DAYS} days (seeded as the ledger stored days before their per-product`,
    '  figures moved out of the day item, docs/decisions.md: such days keep them, so these reads cost their days, not their sales).',
    '  "API key" rows call as a register (X-Api-Key), the others as a user (Basic);',
    "  CPU = process.cpuUsage() user+system around the call (DynamoDB Local's Java process not included); every figure is the median per request.",
    '- Fiscal rows: functions/fiscal on v33 paths under /{sellerId}/registrations/{cash}, each called by the register (X-Api-Key; registers',
    '  activated through activations-advanced, every sale posted through the handler): POST .../sales of a Paid cash sale of 3 lines at',
    '  25 % and 12 % VAT without prints; the same POSTs replayed (the bench fails if one writes); POST .../sales/{id}/receipt of those sales;',
    `  POST .../days/current and GET .../days/{n}/report of a day of ${DAY_SALES.toLocaleString('en')} sales (the others posted with their Normal print)`,
    `  on a register whose first day it is and on one with ${EARLIER_DAYS} earlier days of ${EARLIER_DAY_SALES} sales, each closed and its Z report printed`,
    "  (a day closes once: n=1). A fiscal write reads the key, the seller's counter, the register's counter + the items it needs and",
    '  the latest day (a sale write and a print: all in the one BatchGet read ahead; a close: the key and the seller read ahead, then a',
    '  BatchGet and the day), then commits one transaction: the counter, the sale and its change item (and the delete of its change',
    "  item at the version it replaces), the day (and its change item once closed), its journal entries, a receipt number's record.",
    "  A close first reads the register's export context (the seller's profile and registration, the latest activation, the installation,",
    '  the application: 5 GetItems), which its DAY_CLOSED entry keeps with the Z report; a PRINT entry keeps its receipt.',
    "  The close folds the day's sales per category from its sales: a Query of their change items, a page (at most 1 MB)",
    "  after another, each 1 RCU per 4 KB of its items (the day's sales only); the closed day keeps them for its Z report.",
    `- sale capacity: POST .../sales by a third register of a Paid cash sale, unprinted, of ${SALE_LINES} products the day has not sold,`,
    `  when the day has sold ${DAY_PRODUCTS.map((products) => products.toLocaleString('en')).join(' and ')} distinct products (filled by sales of ${FILL_LINES} new products each);`,
    '  priced as the sale POST; the bench fails unless both cost the same round trips and reported capacity.',
    `- journal verification: verifyJournal (shared/fiscal/verify-journal.ts) in-process, no DynamoDB, over a signed generated-e-journals answer`,
    `  of ${JOURNAL_ENTRIES.toLocaleString('en')} entries (a from/to slice of the first register's journal); CPU = the verification's CPU time.`,
    `- journal export: GET /v33/{sellerId}/registrations/{cash}/journal-export with Accept-Encoding gzip, called by the register (X-Api-Key), of a`,
    `  register on a control unit (seller profile, application, activation and installation made through the handlers) whose journal holds`,
    `  ${EXPORT_SALES.toLocaleString('en')} printed sales over ${EXPORT_DAYS} closed days, seeded as sale POSTs with their Normal print and closes journal them;`,
    "  measured in a child process (scripts/bench/journal-export-child.ts, --expose-gc) after a warm-up; CPU = the request's CPU time there.",
    "  Priced as the key and the seller's liveness (read ahead), the registration + counter (BatchGet), the 5 reads of the export context, and one",
    '  strongly consistent Query page (at most 1 MB) after another, each 1 RCU per 4 KB of its items together.',
    ...kdLegend,
    ...cloudKdLegend,
    '- floor rows: the DynamoDB calls of the operation (its last request with the median round trips), each with the',
    '  input its handler sent, sent again by a bare @aws-sdk/client-dynamodb client (no middleware, validation, mapping or',
    "  HTTP pipeline; the SDK's logger middleware removed, as the service's client removes it) after 3 warm-up sends, calls",
    "  sent together by the handler sent together; CPU measured as the operation's. A write goes to the same keys under a",
    '  prefix of one byte (so the floor changes no data the bench reads),',
    "  its conditions OR'd with one that always holds (they guard the handler's decision): the same calls and items,",
    "  every one succeeding as for the handler. / floor: the operation's CPU over its floor's (the goal: at most 1.5x).",
    "  The kd rows' CPU is the whole process's (broker, bridge and simulator too), the journal export's its child process's.",
    "- round trips: DynamoDB calls per request, failed ones included; each request first reads ahead, in one BatchGetItem, its API key (a register), the seller's counter and the items its route names (shared/http/api.ts); a user is then read by one Query of its partition.",
    '- Capacity cells: reported by DynamoDB Local (ConsumedCapacity, INDEXES) / computed from the pricing rules below; ! marks a difference.',
    '- Pricing rules: strongly consistent GetItem/BatchGetItem = 1 RCU per 4 KB per item, rounded up (a missing item costs 1);',
    '  Query = 1 RCU per 4 KB of all items read together, rounded up; write = 1 WCU per 1 KB per item, rounded up;',
    '  TransactWriteItems = 2x (prepare + commit); the table has no index: an item with a vsk has a change item, its copy under',
    '  #V#<vsk> (the version index, shared/db/streams.ts), put in the same transaction (1 WCU per KB), and a changed vsk also',
    '  deletes the copy at the old version (1 WCU per KB of it), each 2x inside the transaction.',
    '- Item size = sum of attribute name + value: string = UTF-8 bytes, number = 1 byte per 2 significant digits + 1, boolean/null = 1,',
    "  map/list = 3 + contents + 1 per element; a change item is the whole item with its own sort key and `esk`, the entity's.",
    '  Sizes come from the stored items read back; a put over an item is priced at the larger of its two images (a sale of 3 lines',
    '  is over 1 KB; the catalog items are far below it).',
    '- Known DynamoDB Local 1.25.1 differences from AWS: a missing key in BatchGetItem is reported as 0 RCU (AWS charges 1;',
    '  awslabs/amazon-dynamodb-local-samples#7), and TransactWriteItems is not reported per item as AWS charges it: its items',
    '  neither at 2 nor at 4 WCU per KB each; read the computed figure for transactions. The table has no LSI: its columns read 0.',
    `Bench took ${seconds.toFixed(0)} s.`,
  ].join('\n');
}

// ---- Main ----------------------------------------------------------------------------------------

/** The journal export job's row: it also sets the environment its handlers read (`exportJobEnvironment`). */
const EXPORT_JOB = 'journal-export-job';
/**
 * `BENCH_ONLY=fiscal` or `BENCH_ONLY=sale-capacity` runs only those rows (no cold start, no other table): a check of
 * one change's pricing without the whole bench. `BENCH_ONLY=heat` runs the fleet model of the table's partition keys
 * (scripts/bench/heat.ts). `BENCH_ONLY=history` the history row (scripts/bench/history.ts). `BENCH_ONLY=kd-cloud` the cloud
 * kd rows (scripts/bench/kd-cloud.ts). `BENCH_ONLY=journal-export-job` a year of a busy register's journal exported as one
 * job (scripts/bench/journal-export-job.ts). `BENCH_ONLY=operations` runs every operation's row and floor, without
 * the cold-start table (its fresh processes take most of the bench's time). `BENCH_ONLY=first-response` runs only the
 * cold-start table's first responses of the project's build (a check of one change's cold start).
 */
const ONLY = {
  fiscal: measureFiscal,
  'sale-capacity': measureSaleCapacity,
  heat: () => measureHeat(invoke),
  history: async () => (await import('./bench/history.ts')).measureHistory({ invoke }),
  'kd-cloud': (readBack: ReadBack) => measureCloudKd(cloudKdKit(readBack)),
  [EXPORT_JOB]: async () =>
    (await import('./bench/journal-export-job.ts')).measureJournalExportJob({ invoke, event, batchPut, itemSize }),
} as const;
/** What the cloud kd rows borrow: the in-process invoke, stored items read back and the pricing rules. */
function cloudKdKit(readBack: ReadBack): Parameters<typeof measureCloudKd>[0] {
  return { invoke, readBack, pricing: { readUnits, writeUnits, itemSize, transaction: TRANSACTION } };
}
const FIRST_RESPONSE = 'first-response';
const OPERATIONS = 'operations';

/**
 * The first responses alone: the bench seller, one tax and one register's API key answer each function's request,
 * after the fiscal rows gave the seller registers with sales, as the whole bench does before its first responses.
 */
async function firstResponsesOnly(targets: Parameters<typeof measureFirstResponses>[0]): Promise<string> {
  const [{ newApiKey, storeApiKey }, catalog] = await Promise.all([
    import('#shared/auth/api-keys.ts'),
    import('#functions/catalog/handler.ts'),
  ]);
  const readBack = await connect();
  await createBenchSeller();
  await measureFiscal(readBack);
  const tax = (await invoke(catalog.handler, 'POST', `/v26/${SELLER}/taxes`, 201, TAX)).body as { identifier: string };
  const apiKey = newApiKey();
  await storeApiKey(apiKey, {
    activationId: 1,
    sellerId: SELLER,
    cashRegisterName: 'Kassa 1',
    status: 'WORKING',
    validFrom: 0,
    validTo: Date.now() + 365 * 86_400_000,
    features: ['SYNCHRONIZATION'],
  });
  const lean = targets.filter((target) => target.variant === 'lambda');
  const requests = firstRequests(apiKey, tax.identifier);
  const responses = measureFirstResponses(lean, requests, context);
  return firstResponseTable(lean, responses, requests);
}

async function main(): Promise<void> {
  const started = performance.now();
  const only = process.env.BENCH_ONLY;
  if (only !== undefined && only !== FIRST_RESPONSE && only !== OPERATIONS && !(only in ONLY)) {
    throw new Error(`BENCH_ONLY is one of ${[...Object.keys(ONLY), OPERATIONS, FIRST_RESPONSE].join(', ')}`);
  }
  // Imports first: DynamoDB Local's JVM would compete for the 2 cores while they are timed.
  const targets = only === undefined || only === FIRST_RESPONSE ? await buildTargets() : [];
  const imports = only === undefined ? measureImports(targets) : new Map<string, never[]>();
  const instructionCounts = only === undefined ? await measureInstructions(targets) : undefined;
  const dynamo = await startDynamo();
  const imageDir = mkdtempSync(join(tmpdir(), 'bench-images-'));
  const signingKey = join(imageDir, 'activation-signing-key.pem');
  try {
    await ensureTable(dynamo.endpoint, TABLE);
    // shared/config.ts reads these once, on first use: set before any handler is imported.
    Object.assign(process.env, {
      TABLE_NAME: TABLE,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      AWS_REGION: 'local',
      LOG_REQUESTS: 'false',
      // The maintenance switch is read once per process here, not every 15 s: a refresh landing inside a measured
      // request added a GetItem its pricing model does not have (a cost per container and 15 s, not per request).
      MAINTENANCE_CACHE_SECONDS: '86400',
      // Image bytes in a temporary folder (the local store), removed below.
      IMAGE_STORE: 'local',
      IMAGE_DIR: imageDir,
      // The local signer (the e-journal's signed head), its key made in the same temporary folder.
      ACTIVATION_SIGNER: 'local',
      ACTIVATION_KEY_FILE: signingKey,
      ...(await kdEnvironment()),
      // The export job's store and Lambda's API, served by the row (read once, with the rest of the configuration).
      ...(only === EXPORT_JOB ? await (await import('./bench/journal-export-job.ts')).exportJobEnvironment() : {}),
    });
    (await import('#shared/signing/local-signer.ts')).ensureLocalSigningKey(signingKey);
    if (only === FIRST_RESPONSE) {
      console.log(await firstResponsesOnly(targets));
      return;
    }
    if (only === OPERATIONS) {
      const { operations, diffs, fiscal } = await measureOperations();
      console.log(report(operations, await measureFloors(operations), diffs, fiscal, (performance.now() - started) / 1000));
      return;
    }
    if (only !== undefined) {
      const readBack = await connect();
      await createBenchSeller();
      const measured = await ONLY[only as keyof typeof ONLY](readBack);
      checkCommands(measured.operations);
      const floors = await measureFloors(measured.operations);
      console.log(report(measured.operations, floors, [], measured.summary, (performance.now() - started) / 1000));
      return;
    }
    const { operations, diffs, fiscal, requests } = await measureOperations();
    const floors = await measureFloors(operations);
    // The seller, tax and API key the operations left behind answer the first requests.
    const responses = measureFirstResponses(targets, requests, context);
    console.log(coldStartReport(targets, imports, responses, requests, instructionCounts));
    console.log();
    console.log(report(operations, floors, diffs, fiscal, (performance.now() - started) / 1000));
  } finally {
    await dynamo.stop();
    rmSync(imageDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`Bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  // The kd handler's MQTT client (shared/iot/mqtt-publisher.ts) lives as long as its process, as in a Lambda, and
  // keeps reconnecting to the stopped broker: it would hold the bench open.
  process.exit();
}
