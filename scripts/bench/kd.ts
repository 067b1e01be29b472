/**
 * The bench's kd rows (docs/conventions.md §25): a register's kd through the local MQTT broker (aedes), the edge
 * bridge and the control-unit simulator over TCP, all in the bench's process beside DynamoDB Local, with the local
 * reply rule writing the unit's reply into the table as IoT Core's rule does in AWS. The kd handler runs in-process
 * as the bench's other functions do; its answer waits for the reply, so a request's wall-clock time is the whole
 * round trip. Beside it: the same kd repeated (answered from its claim) and one kd-facets page.
 */
import { randomUUID } from 'node:crypto';
import { freePort } from '#infra/local/processes.ts';
import type { Caller, Handler, Model, Operation, Sample } from '../bench.ts';
import type { Call } from './calls.ts';
import { median, quantile } from './stats.ts';
import { maintenanceSwitchKey } from '#shared/http/maintenance-mode.ts';
import { registerKeys } from '#shared/fiscal/ledger.ts';
import { sellerKeys } from '#shared/domain/seller.ts';
import { activationKeys, controlUnitKeys, registrationKeys } from '#shared/domain/records.ts';
import { KD_LOG_PREFIX, type KdLogScope, kdKeys } from '#shared/kd/records.ts';
import { bridgeKeys } from '#shared/kd/protocol.ts';
import { registerIdOf } from '#shared/kd/codec.ts';
import { apiKeyKey } from '#shared/auth/api-keys.ts';
import { userKeys } from '#shared/auth/users.ts';

/** The unit's serial, and its register (its id at the unit: KD1). */
const SERIAL = 'BENCHCU0000000001';
const CASH = 'Kd-1';
const WARMUP = 5;
/** The timed kd requests, each a new receipt number. */
export const KD_REQUESTS = 200;
/** Repeated kds (answered from the claim) and kd-facets reads. */
const REPS = 50;
/** The round trip's goal on this machine: p95 at most this. */
const GOAL_P95_MS = 100;
/** How the kd's poll of the reply (functions/kd/flow.ts) waits: 5 ms, then every 10 ms. */
const POLL = 'reads at 0, 5, 15, 25, 35, ... ms (5 ms, then every 10 ms)';

/** What the bench lends the kd rows: its in-process invoke, stored items read back, and its pricing rules. */
export interface KdKit {
  invoke: (handler: Handler, method: string, path: string, status: number, body?: unknown, caller?: Caller) => Promise<Sample>;
  readBack: (key: { pk: string; sk: string }) => Promise<Record<string, unknown>>;
  pricing: {
    readUnits: (bytes: number) => number;
    writeUnits: (bytes: number) => number;
    itemSize: (item: Record<string, unknown>) => number;
    /** TransactWriteItems' factor (prepare + commit). */
    transaction: number;
  };
  /** The seller the register is activated for, and the user (Basic) who reads the Kd log: both exist already. */
  seller: string;
  user: string;
}

/**
 * The environment the kd handler needs, set before any handler is imported (shared/config.ts reads it once): the
 * MQTT publisher, on a broker at a port free now, where measureKd starts it; the cloud control-unit system, both its
 * services at one port free now, where measureCloudKd (scripts/bench/kd-cloud.ts) starts the stand-in of both.
 */
export async function kdEnvironment(): Promise<{ KD_PUBLISHER: string; MQTT_URL: string; TCS_URL: string; IDM_URL: string }> {
  const broker = await freePort();
  let standIn = await freePort();
  // Both servers start later: two ports free now must still be two.
  while (standIn === broker) standIn = await freePort();
  const cloud = `http://127.0.0.1:${standIn}`;
  return { KD_PUBLISHER: 'mqtt', MQTT_URL: `mqtt://127.0.0.1:${broker}`, TCS_URL: cloud, IDM_URL: cloud };
}

/** A kd as measured: the bench's sample, its wall-clock time, and when (ms after it began) the reply reached the table. */
interface KdSample extends Sample {
  wallMs: number;
  /** Reads of the reply item (the poll), the last one finding it. */
  polls: number;
  /** The rule's PutItem of the reply finished. */
  replyMs: number;
  /** The poll's read that found it finished. */
  foundMs: number;
  /** Reads of the maintenance switch: one per MAINTENANCE_CACHE_SECONDS per process, in whichever request comes then. */
  switchReads: number;
}

export async function measureKd(kit: KdKit): Promise<{ operations: Operation[]; summary: string[] }> {
  const { invoke, seller } = kit;
  const [{ startBroker }, { startKdRules }, { startLocalUnit }, { db }, vendors, activations, kd] = await Promise.all([
    import('#infra/local/broker.ts'),
    import('#infra/local/kd-rules.ts'),
    import('#infra/local/stack.ts'),
    import('#shared/db/client.ts'),
    import('#functions/vendors/handler.ts'),
    import('#functions/activations/handler.ts'),
    import('#functions/kd/handler.ts'),
  ]);
  const broker = await startBroker(Number(new URL(process.env.MQTT_URL ?? '').port));
  const quiet = () => undefined;
  const rules = await startKdRules(broker.url, quiet);
  const unit = await startLocalUnit(SERIAL, broker.url, { log: quiet });
  try {
    // An application that needs a control unit, and a register of the seller activated on the unit.
    const { id: softwareVendor } = (await invoke(vendors.handler, 'POST', '/v33/software-vendors', 201, { name: 'Bench CU AB' }))
      .body as { id: number };
    const applicationPackage = 'se.example.bench.cu';
    await invoke(vendors.handler, 'POST', '/v33/application-descriptions', 201, {
      applicationPackage,
      productionNumberPrefix: 'BC',
      controlUnitRequired: true,
      name: 'Bench CU',
      softwareVendor,
      autoActivationCondition: 'NO_FEATURES',
      corporateIdValidationMethod: 'NONE',
    });
    const { apiKey, activationId } = (
      await invoke(activations.handler, 'POST', '/v33/activations-advanced', 201, {
        country: 'SE',
        corporateId: seller.slice(2),
        companyName: 'Bench',
        cashRegisterName: CASH,
        features: [],
        validFrom: Date.now() - 86_400_000,
        validTo: Date.now() + 365 * 86_400_000,
        applicationPackage,
        controlUnitSerial: SERIAL,
        controlUnitLocation: 'DEVICE',
        controlUnitGeolocation: { city: 'Malmö', postalCode: '211 20' },
        installationCreationInfo: { deviceId: randomUUID().slice(0, 16), buildInfo: { os: 'bench' }, programVersion: '1.0' },
      })
    ).body as { apiKey: string; activationId: number };
    const register: Caller = { 'x-api-key': apiKey };

    // The key of every call made during a request, with its end time: when the reply item is written and read.
    let traced: { command: string; pk: unknown; at: number }[] | undefined;
    db().middlewareStack.add(
      (next, { commandName = '' }) =>
        async (args) => {
          const result = await next(args);
          // DynamoDB's own input: the partition key as an attribute value.
          const input = args.input as { Key?: { pk?: { S?: string } }; Item?: { pk?: { S?: string } } };
          traced?.push({
            command: commandName.replace(/Command$/, ''),
            pk: (input.Key ?? input.Item)?.pk?.S,
            at: performance.now(),
          });
          return result;
        },
      { step: 'initialize', name: 'benchKdTrace' },
    );
    const switchPk = maintenanceSwitchKey().pk;
    const replyPrefix = bridgeKeys.reply('').pk;
    const isReply = (pk: unknown) => typeof pk === 'string' && pk.startsWith(replyPrefix);
    /** The bench's invoke, timed, with the request's reads of the reply and the maintenance switch. */
    const measure = async (...request: Parameters<KdKit['invoke']>): Promise<KdSample> => {
      const trace: NonNullable<typeof traced> = [];
      traced = trace;
      const start = performance.now();
      const sample = await invoke(...request).finally(() => {
        traced = undefined;
      });
      const polls = trace.filter((call) => call.command === 'GetItem' && isReply(call.pk));
      const put = trace.find((call) => call.command === 'PutItem' && isReply(call.pk));
      return {
        ...sample,
        wallMs: performance.now() - start,
        polls: polls.length,
        replyMs: (put?.at ?? NaN) - start,
        foundMs: (polls.at(-1)?.at ?? NaN) - start,
        switchReads: trace.filter((call) => call.pk === switchPk).length,
      };
    };

    // Receipt n is dated n seconds after `first`: the Kd log lists the records in receipt order.
    const first = Date.now() - 86_400_000;
    const bodyOf = (receiptNumber: number) => ({
      vatRateToSum: { '25': 12_500, '12': 11_200 },
      refund: false,
      printType: 'Normal',
      receiptNumber,
      date: first + receiptNumber * 1000,
    });
    const path = `/v33/${seller}/registration/${CASH}/kd`;
    const send = (receiptNumber: number) => measure(kd.handler, 'POST', path, 201, bodyOf(receiptNumber), register);
    for (let receipt = 1; receipt <= WARMUP; receipt++) await send(receipt);
    const kds: KdSample[] = [];
    for (let receipt = WARMUP + 1; receipt <= WARMUP + KD_REQUESTS; receipt++) kds.push(await send(receipt));
    const last = WARMUP + KD_REQUESTS;
    if (unit.simulator.counters().registered !== last) {
      throw new Error(`The unit registered ${unit.simulator.counters().registered} receipts, ${last} were sent`);
    }

    // Repeats of signed receipts: the claim answers, nothing is written and the unit is not asked.
    const asked = unit.simulator.counters().requests;
    const repeats: KdSample[] = [];
    for (let receipt = WARMUP + 1; receipt <= WARMUP + REPS; receipt++) {
      const sample = await send(receipt);
      const writes = sample.calls.filter((call) => !/^(Get|BatchGet|Query)/.test(call.command));
      if (writes.length > 0) throw new Error(`A repeated kd wrote: ${writes.map((call) => call.command).join(', ')}`);
      repeats.push(sample);
    }
    if (unit.simulator.counters().requests !== asked) throw new Error('A repeated kd reached the unit');

    // The register's Kd log as a user reads it: the first page (100 records).
    const readFacets = () => measure(kd.handler, 'GET', `/v33/kd-facets?seller=${seller}&cashRegisterName=${CASH}`, 200);
    for (let i = 0; i < WARMUP; i++) await readFacets();
    const facets: KdSample[] = [];
    for (let i = 0; i < REPS; i++) facets.push(await readFacets());

    const model = await kdModels(kit, { apiKey, activationId, last, facets: facets[0] });
    const kdModel = (polls: number): Model => ({
      commands: [...model.kd.commands, ...Array<string>(polls).fill('GetItem')],
      // Each read before the reply is there finds no item: 1 RCU.
      capacity: { ...model.kd.capacity, tableRcu: model.kd.capacity.tableRcu + polls - 1 + model.replyRcu },
    });
    // Every request's calls are the priced ones, its reads of the reply and of the maintenance switch (which the
    // rows' figures, medians, leave out) aside.
    const sorted = (commands: readonly string[]) => [...commands].sort().join();
    for (const [label, samples, priced] of [
      ['kd', kds, (sample: KdSample) => kdModel(sample.polls)],
      ['repeated kd', repeats, () => model.repeat],
      ['kd-facets', facets, () => model.facets],
    ] as const) {
      for (const sample of samples) {
        const made = sample.calls.map((call) => call.command);
        const commands = [...priced(sample).commands, ...Array<string>(sample.switchReads).fill('GetItem')];
        if (sorted(made) !== sorted(commands)) {
          throw new Error(`${label}: the pricing model prices ${commands.join(', ')}, the handler made ${made.join(', ')}`);
        }
      }
    }

    const polls = kds.map((sample) => sample.polls);
    const ms = (values: readonly number[]) =>
      `p50 ${quantile(values, 0.5).toFixed(0)} / p95 ${quantile(values, 0.95).toFixed(0)} ms`;
    const walls = kds.map((sample) => sample.wallMs);
    const p95 = quantile(walls, 0.95);
    const histogram = [...new Set(polls)]
      .sort((a, b) => a - b)
      .map((count) => `${count}: ${polls.filter((poll) => poll === count).length}`)
      .join(', ');
    return {
      operations: [
        { label: `kd, signed by the unit (n=${KD_REQUESTS})`, samples: kds, model: kdModel(quantile(polls, 0.5)) },
        { label: `kd repeated, answered from its claim (n=${REPS})`, samples: repeats, model: model.repeat },
        { label: `kd-facets, 1 page of ${model.facetsRecords} records (n=${REPS})`, samples: facets, model: model.facets },
      ],
      summary: [
        `kd round trip (register -> kd handler -> broker -> bridge -> simulator over TCP -> bridge -> broker -> rule -> table ` +
          `-> the handler's poll), ${KD_REQUESTS} kds after ${WARMUP} warm-up: wall ${ms(walls)} ` +
          `(min ${Math.min(...walls).toFixed(0)}, max ${Math.max(...walls).toFixed(0)}); goal p95 <= ${GOAL_P95_MS} ms ` +
          `${p95 <= GOAL_P95_MS ? 'met' : 'missed'}. The reply was in the table after ${ms(kds.map((s) => s.replyMs))}, ` +
          `read by the poll after ${ms(kds.map((s) => s.foundMs))}; reads of the reply per kd (${POLL}): ${histogram}. ` +
          `CPU of the whole process (handler, broker, rule, bridge and simulator): ${median(kds.map((s) => s.cpuMs)).toFixed(1)} ms median.`,
      ],
    };
  } finally {
    await unit.stop();
    await rules.stop();
    await broker.stop();
  }
}

/** A register activated on a control unit, as the kd rows price its kds. */
export interface KdRegister {
  sellerId: string;
  cash: string;
  serial: string;
  apiKey: string;
  activationId: number;
}

/** The first `limit` records of the seller's Kd log directory (one partition), in receipt date order or its reverse. */
async function sellerKdLog(sellerId: string, limit: number, descending: boolean): Promise<Record<string, unknown>[]> {
  const [{ table }, { queryItems }] = await Promise.all([import('#shared/db/client.ts'), import('#shared/db/documents.ts')]);
  const [directory] = kdKeys.logDirectory({ sellerId });
  const { Items = [] } = await queryItems({
    TableName: table(),
    ConsistentRead: true,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': directory?.pk, ':prefix': KD_LOG_PREFIX },
    ScanIndexForward: !descending,
    Limit: limit,
  });
  return Items;
}

/**
 * The pricing of a register's kd and of its repeat from the stored items' sizes (read back after the timed kds; every
 * kd's items are of one shape): a kd without reads of the reply (a bridge's kd adds them), and a repeated kd. The
 * unit's bridge record and status are read whether they exist or not (a cloud unit has neither: 1 RCU each).
 */
export async function kdPricing(
  kit: Pick<KdKit, 'readBack' | 'pricing'>,
  register: KdRegister,
  /** The last kd's receipt number. */
  last: number,
): Promise<{ kd: Model; replyRcu: number; repeat: Model; sellerCounterBytes: number }> {
  const { readBack } = kit;
  const { readUnits, writeUnits, itemSize, transaction } = kit.pricing;
  const { sellerId: seller, cash, serial } = register;
  const [{ hashApiKey }, { table }, { getItem }] = await Promise.all([
    import('#shared/auth/api-keys.ts'),
    import('#shared/db/client.ts'),
    import('#shared/db/documents.ts'),
  ]);
  const sizeOf = async (key: { pk: string; sk: string }) => itemSize(await readBack(key));
  /** The size of an item that may be missing (0: a missing item is still read). */
  const sizeIfAny = async (key: { pk: string; sk: string }) => {
    const { Item } = await getItem({ TableName: table(), Key: key, ConsistentRead: true });
    return Item ? itemSize(Item) : 0;
  };
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

  // The register's reads before its claim: its key, the seller's liveness, its activation; then (BatchGet) its
  // counter, the unit's bridge record and last status, the unit, and the register's id at the unit.
  const first = [
    await sizeOf(apiKeyKey(hashApiKey(register.apiKey))),
    await sizeOf(sellerKeys.counter(seller)),
    await sizeOf(activationKeys.activation(register.activationId)),
  ];
  const counterKey = registerKeys.counter(seller, cash);
  const counter = await readBack(counterKey);
  const units = [
    itemSize(counter),
    await sizeIfAny(bridgeKeys.bridge(serial)),
    await sizeIfAny(bridgeKeys.status(serial)),
    await sizeOf(controlUnitKeys.unit(serial)),
    await sizeOf(kdKeys.registerId(seller, registerIdOf(cash))),
  ];
  const claim = await readBack(kdKeys.claim(seller, cash, last, 'Normal'));
  const signedClaim = itemSize(claim);
  const pendingClaim = itemSize({ ...claim, state: 'PENDING', controlCode: null });
  const reply = await sizeOf(bridgeKeys.reply(String(claim.correlationId)));
  // The last kd's journal entries: KD_REQUEST, then KD_OUTCOME (the register's last).
  const { sequence } = (counter.ledger as { journal: { sequence: number } }).journal;
  const requestEntry = await sizeOf(registerKeys.journalEntry(seller, cash, sequence - 1));
  const outcomeEntry = await sizeOf(registerKeys.journalEntry(seller, cash, sequence));
  // Its Kd log record, one copy in each directory (all, the seller's, the unit's, the vendor's). The listed view has no
  // id: the seller's directory (one partition) is read directly, its latest record (the receipts are dated in their
  // order) names the copies' keys, and each copy is read back under its own (in all and the vendor's, in the id's shard).
  const [latest] = await sellerKdLog(seller, 1, true);
  if (latest?.receiptNumber !== last) throw new Error(`The seller's latest Kd log record is not receipt ${last}`);
  const vendor = Number(claim.request && (claim.request as { softwareVendor: number }).softwareVendor);
  const scopes: KdLogScope[] = [undefined, { sellerId: seller }, { serial }, { vendor }];
  const logCopies = await Promise.all(scopes.map((scope) => sizeOf(kdKeys.log(scope, Number(latest.kdDate), String(latest.id)))));

  const reads = [...first.map(readUnits), ...units.map(readUnits)];
  const kd: Model = {
    commands: [
      // The key and the seller's counter read ahead (shared/http/api.ts), the activation, ...
      ...['BatchGetItem', 'GetItem', 'BatchGetItem', 'BatchGetItem', 'TransactWriteItems'],
      'PutItem',
      ...['BatchGetItem', 'TransactWriteItems'],
    ],
    capacity: {
      // The claim is missing when read (1 RCU); the settle reads the counter and the pending claim.
      tableRcu: sum(reads) + readUnits(0) + readUnits(units[0] ?? 0) + readUnits(pendingClaim),
      lsiRcu: 0,
      tableWcu:
        transaction * (writeUnits(itemSize(counter)) + writeUnits(requestEntry) + writeUnits(pendingClaim)) +
        writeUnits(reply) +
        transaction *
          (writeUnits(itemSize(counter)) +
            writeUnits(outcomeEntry) +
            writeUnits(Math.max(pendingClaim, signedClaim)) +
            sum(logCopies.map(writeUnits))),
      lsiWcu: 0,
    },
  };
  const repeat: Model = {
    commands: ['BatchGetItem', 'GetItem', 'BatchGetItem', 'BatchGetItem'],
    capacity: { tableRcu: sum(reads) + readUnits(signedClaim), lsiRcu: 0, tableWcu: 0, lsiWcu: 0 },
  };
  return { kd, replyRcu: readUnits(reply), repeat, sellerCounterBytes: first[1] ?? 0 };
}

/** The pricing of the kd rows (`kdPricing`), and of the kd-facets page. */
async function kdModels(
  kit: KdKit,
  known: {
    apiKey: string;
    activationId: number;
    /** The last kd's receipt number. */
    last: number;
    facets: Sample | undefined;
  },
): Promise<{ kd: Model; replyRcu: number; repeat: Model; facets: Model; facetsRecords: number }> {
  const { readBack, seller } = kit;
  const { readUnits, itemSize } = kit.pricing;
  const register = { sellerId: seller, cash: CASH, serial: SERIAL, apiKey: known.apiKey, activationId: known.activationId };
  const { kd, replyRcu, repeat, sellerCounterBytes } = await kdPricing(kit, register, known.last);
  const sizeOf = async (key: { pk: string; sk: string }) => itemSize(await readBack(key));
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

  // The facets page: the user (a Query of its partition: the user and its wrong-password counter, of which the bench
  // user has none), the seller's liveness, the register, one Query of the seller's Kd log directory.
  const page = (known.facets?.body ?? []) as unknown[];
  const query = known.facets?.calls.findLast((call: Call) => call.command === 'Query');
  if (query?.scanned !== page.length) throw new Error(`kd-facets read ${query?.scanned} records for a page of ${page.length}`);
  const pageBytes = sum((await sellerKdLog(seller, page.length, false)).map(itemSize));
  const facets: Model = {
    commands: ['Query', 'GetItem', 'GetItem', 'Query'],
    capacity: {
      tableRcu:
        readUnits(await sizeOf(userKeys.user(kit.user))) +
        readUnits(sellerCounterBytes) +
        readUnits(await sizeOf(registrationKeys.registration(seller, CASH))) +
        readUnits(pageBytes),
      lsiRcu: 0,
      tableWcu: 0,
      lsiWcu: 0,
    },
  };
  return { kd, replyRcu, repeat, facets, facetsRecords: page.length };
}

/** The kd rows' legend lines (bench.ts's report). */
export const kdLegend = [
  `- kd rows: functions/kd in-process, called by a register (X-Api-Key) activated through activations-advanced on a`,
  `  simulated control unit (edge/simulator.ts over TCP) whose edge bridge (edge/bridge.ts) and the local reply rule`,
  `  (infra/local/kd-rules.ts) run in the bench's process on an aedes broker: v33 POST /{sellerId}/registration/{cash}/kd`,
  `  of a new receipt number each (2 VAT rates); the same kds repeated (the claim answers: nothing written, the unit not`,
  `  asked; both checked); GET /v33/kd-facets?seller=...&cashRegisterName=... (a user, the first page).`,
  `  A kd reads its key and the seller (read ahead), its activation, (BatchGet) its counter, the unit's bridge record and status, the unit`,
  `  and its register id, then its claim; commits counter + KD_REQUEST entry + PENDING claim; publishes; reads the`,
  `  reply until it is there (the row prices the median count of reads, each miss 1 RCU); then reads counter + claim`,
  `  and commits counter + KD_OUTCOME entry + SIGNED claim + 4 Kd log copies. Its round trips and WCU include the rule's`,
  `  PutItem of the reply (IoT Core's rule in AWS, not the function). Its CPU is the whole process's: handler, broker,`,
  `  rule, bridge and simulator. The kd line above the legend: wall-clock p50/p95 over the ${KD_REQUESTS} kds, when the`,
  `  reply reached the table and when the poll read it (${POLL}). The maintenance switch's GetItem`,
  `  (one per MAINTENANCE_CACHE_SECONDS) falls in whichever request comes then: checked, left out of the model.`,
];
