/**
 * The bench's cloud kd rows (docs/conventions.md §27): a register with no unit on the counter, activated REMOTE without
 * a serial and so enrolled at the stage's cloud control-unit system, whose receipts the kd handler signs over HTTP at
 * the system's signing server. The system is the local stand-in of both its services (infra/local/cloud-unit.ts),
 * served in the bench's process on the port kdEnvironment set as TCS_URL and IDM_URL; the handlers run in-process as
 * the bench's other functions do. Rows: the REMOTE activation that enrolls a register, a kd of a new receipt number
 * each, and the same kd repeated (answered from its claim); beside them, the HTTP requests the system got and the
 * wall-clock times.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Model, Operation, Sample } from '../bench.ts';
import { KD_REQUESTS, type KdKit, kdPricing } from './kd.ts';
import { median, quantile, table } from './stats.ts';
import { createUnitShop, type UnitRegister, unitActivationOrder } from './unit-register.ts';
import { controlUnitKeys } from '#shared/domain/records.ts';
import { maintenanceSwitchKey } from '#shared/http/maintenance-mode.ts';

/** The shop: its seller (with the address the enrollment sends as RegisterAddress) and its application. */
const SHOP: UnitRegister = {
  sellerId: 'SE5560360868',
  cash: 'Moln-1',
  serial: null,
  name: 'Molnbutiken',
  applicationPackage: 'se.example.bench.cloud',
  productionNumberPrefix: 'BM',
  validFrom: Date.now() - 86_400_000,
  validTo: Date.now() + 365 * 86_400_000,
  programVersion: '2.1.0',
};
/** Enrollments before the timed ones (the first is the kd register, SHOP.cash), and the timed ones: a new register each. */
const ENROLL_WARMUP = 3;
const ENROLLMENTS = 20;
/**
 * Warm-up kds. Alone (`BENCH_ONLY=kd-cloud`) the rows meet a fresh DynamoDB Local, whose JVM is still compiling: after
 * 5 warm-up kds the timed ones took p50 62 / p95 161 ms wall, after 300 p50 47 / p95 87 ms (36 / 53 ms after the
 * bench's other rows), with the same CPU in the bench's process.
 */
const WARMUP = 200;
/** Repeated kds (answered from the claim). */
const REPS = 50;
/** The system's two endpoints, as the stand-in logs their requests. */
const TCS = 'POST /tcsserver';
const IDM = 'POST /api/EnrollCCU.php';

/** What the cloud rows borrow of the kd rows' kit: the bench's in-process invoke, stored items read back, its pricing. */
export type CloudKdKit = Pick<KdKit, 'invoke' | 'readBack' | 'pricing'>;

/** A DynamoDB call with what DynamoDB answered (attribute values): what the activation's pricing reads. */
interface Answered {
  command: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

/** A request as measured: the bench's sample, its wall-clock time and what the system was asked meanwhile. */
interface CloudSample extends Sample {
  wallMs: number;
  /** HTTP requests the stand-in answered during the request, by endpoint and ResponseCode (`POST /tcsserver 200 0`). */
  http: Map<string, number>;
  /** The request's DynamoDB calls with their answers, the maintenance switch's read left out. */
  answered: Answered[];
  /** Reads of the maintenance switch: one per MAINTENANCE_CACHE_SECONDS per process, in whichever request comes then. */
  switchReads: number;
}

type Capacity = Model['capacity'];

export async function measureCloudKd(kit: CloudKdKit): Promise<{ operations: Operation[]; summary: string[] }> {
  const { invoke, readBack } = kit;
  const [{ startCloudStandIn }, { db }, activations, kd] = await Promise.all([
    import('#infra/local/cloud-unit.ts'),
    import('#shared/db/client.ts'),
    import('#functions/activations/handler.ts'),
    import('#functions/kd/handler.ts'),
  ]);
  const url = process.env.TCS_URL ?? '';
  if (!url || process.env.IDM_URL !== url) throw new Error('kdEnvironment() sets TCS_URL and IDM_URL before the handlers load');
  // The stand-in logs one line per request it answers (`cloud unit: POST /tcsserver 200 0`): the count of each.
  const answeredHttp = new Map<string, number>();
  const standIn = await startCloudStandIn({
    port: Number(new URL(url).port),
    log: (line) => {
      const request = line.replace(/^cloud unit: /, '');
      answeredHttp.set(request, (answeredHttp.get(request) ?? 0) + 1);
    },
  });
  try {
    let captured: Answered[] | undefined;
    db().middlewareStack.add(
      (next, { commandName = '' }) =>
        async (args) => {
          const result = await next(args);
          captured?.push({
            command: commandName.replace(/Command$/, ''),
            input: args.input as Record<string, unknown>,
            output: result.output as unknown as Record<string, unknown>,
          });
          return result;
        },
      { step: 'initialize', name: 'benchCloudKdAnswers' },
    );
    const switchPk = maintenanceSwitchKey().pk;
    /** The bench's invoke, timed, with the system's requests and the DynamoDB calls' answers. */
    const measure = async (...request: Parameters<KdKit['invoke']>): Promise<CloudSample> => {
      const calls: Answered[] = [];
      captured = calls;
      const before = new Map(answeredHttp);
      const start = performance.now();
      const sample = await invoke(...request).finally(() => {
        captured = undefined;
      });
      const wallMs = performance.now() - start;
      const http = new Map(
        [...answeredHttp]
          .map(([line, count]) => [line, count - (before.get(line) ?? 0)] as const)
          .filter(([, count]) => count > 0),
      );
      if (calls.length !== sample.calls.length) throw new Error(`${request[1]} ${request[2]}: a DynamoDB call failed`);
      const answered = calls.filter((call) => keyOf(call.input)?.pk !== switchPk);
      return { ...sample, wallMs, http, answered, switchReads: calls.length - answered.length };
    };

    // The shop, and the warm-up enrollments: a REMOTE order without a serial for each new register (the first is the kd
    // register).
    await createUnitShop(invoke, SHOP);
    const enroll = (index: number) =>
      measure(activations.handler, 'POST', '/v33/activations-advanced', 201, unitActivationOrder(SHOP, `Moln-${index}`));
    const first = await enroll(1);
    for (let index = 2; index <= ENROLL_WARMUP; index++) await enroll(index);

    // The kd register: its key and activation, and the serial its enrollment got (the system's RegisterID).
    const { apiKey, activationId } = first.body as { apiKey: string; activationId: number };
    const { serial } = (await readBack(controlUnitKeys.enrollment(SHOP.sellerId, SHOP.cash))) as { serial: string };
    const register = { 'x-api-key': apiKey };
    // Receipt n is dated n seconds after `start`, as the kd rows date theirs.
    const start = Date.now() - 86_400_000;
    const bodyOf = (receiptNumber: number) => ({
      vatRateToSum: { '25': 12_500, '12': 11_200 },
      refund: false,
      printType: 'Normal',
      receiptNumber,
      date: start + receiptNumber * 1000,
    });
    const path = `/v33/${SHOP.sellerId}/registration/${SHOP.cash}/kd`;
    const send = (receiptNumber: number) => measure(kd.handler, 'POST', path, 201, bodyOf(receiptNumber), register);
    for (let receipt = 1; receipt <= WARMUP; receipt++) await send(receipt);
    const kds: CloudSample[] = [];
    for (let receipt = WARMUP + 1; receipt <= WARMUP + KD_REQUESTS; receipt++) kds.push(await send(receipt));
    const last = WARMUP + KD_REQUESTS;

    // Repeats of signed receipts: the claim answers, nothing is written and the system is not asked.
    const repeats: CloudSample[] = [];
    for (let receipt = WARMUP + 1; receipt <= WARMUP + REPS; receipt++) {
      const sample = await send(receipt);
      const writes = sample.calls.filter((call) => !/^(Get|BatchGet|Query)/.test(call.command));
      if (writes.length > 0) throw new Error(`A repeated kd wrote: ${writes.map((call) => call.command).join(', ')}`);
      repeats.push(sample);
    }
    const model = await kdPricing(kit, { sellerId: SHOP.sellerId, cash: SHOP.cash, serial, apiKey, activationId }, last);

    // The timed enrollments, after the kds warmed DynamoDB Local up, each priced at once: the items it updated are read
    // back before the next enrollment changes them.
    const enrollments: CloudSample[] = [];
    const enrollmentPrices: Capacity[] = [];
    for (let index = ENROLL_WARMUP + 1; index <= ENROLL_WARMUP + ENROLLMENTS; index++) {
      const sample = await enroll(index);
      enrollments.push(sample);
      enrollmentPrices.push(await priceCalls(sample.answered, kit));
      const enrolled = await readBack(controlUnitKeys.enrollment(SHOP.sellerId, `Moln-${index}`));
      const unit = await readBack(controlUnitKeys.unit(String(enrolled.serial)));
      if (!unit.cloud) throw new Error(`Register Moln-${index}'s unit ${String(enrolled.serial)} has no cloud enrollment`);
    }
    const enrollment = enrollmentModel(enrollments, enrollmentPrices);

    const signed = `${TCS} 200 0`;
    const enrolled = `${IDM} 200 0`;
    for (const [label, samples, priced, asked] of [
      ['enrollment', enrollments, enrollment, enrolled],
      ['cloud kd', kds, model.kd, signed],
      ['repeated cloud kd', repeats, model.repeat, undefined],
    ] as const) {
      for (const sample of samples) {
        // The priced calls, the maintenance switch's reads (which the rows' medians leave out) aside; a cloud kd has no
        // read of its reply: the link answers it, and writes it for other waiters on the claim.
        const made = sample.calls.map((call) => call.command);
        const commands = [...priced.commands, ...Array<string>(sample.switchReads).fill('GetItem')];
        if (sorted(made) !== sorted(commands)) {
          throw new Error(`${label}: the pricing model prices ${commands.join(', ')}, the handler made ${made.join(', ')}`);
        }
        const http = [...sample.http].map(([line, count]) => `${count}x ${line}`).join(', ');
        if (http !== (asked ? `1x ${asked}` : '')) throw new Error(`${label}: the system got ${http || 'nothing'}`);
      }
    }

    const ms = (samples: readonly CloudSample[]) => {
      const walls = samples.map((sample) => sample.wallMs);
      return `p50 ${quantile(walls, 0.5).toFixed(1)} / p95 ${quantile(walls, 0.95).toFixed(1)} ms`;
    };
    const httpOf = (samples: readonly CloudSample[]) => {
      const total = new Map<string, number>();
      for (const sample of samples) for (const [line, count] of sample.http) total.set(line, (total.get(line) ?? 0) + count);
      const each = [...total].map(([line, count]) => `${count / samples.length} ${line.replace(/ 200 0$/, '')}`);
      return each.length > 0 ? each.join(', ') : '0';
    };
    const labels = {
      enrollment: `activation REMOTE, enrolled at the cloud system (n=${ENROLLMENTS})`,
      kd: `kd, signed at the cloud system (n=${KD_REQUESTS})`,
      repeated: `kd (cloud) repeated, answered from its claim (n=${REPS})`,
    };
    const rows = [
      [labels.enrollment, enrollments],
      [labels.kd, kds],
      [labels.repeated, repeats],
    ] as const;
    return {
      operations: [
        { label: labels.enrollment, samples: enrollments, model: enrollment },
        { label: labels.kd, samples: kds, model: model.kd },
        { label: labels.repeated, samples: repeats, model: model.repeat },
      ],
      summary: [
        '',
        `Cloud control unit (the stand-in of TCS and IDM in the bench's process, plain HTTP on 127.0.0.1), per request:`,
        table([
          ['', 'HTTP requests to the system', 'wall', 'CPU (process)'],
          ...rows.map(([label, samples]) => [
            label,
            httpOf(samples),
            ms(samples),
            `${median(samples.map((sample) => sample.cpuMs)).toFixed(2)} ms`,
          ]),
        ]),
      ],
    };
  } finally {
    await standIn.stop();
  }
}

const sorted = (commands: readonly string[]) => [...commands].sort().join();

const keyOf = (input: Record<string, unknown>): { pk?: string; sk?: string } | undefined => {
  const key = (input.Key ?? input.Item) as Record<string, AttributeValue> | undefined;
  return key && { pk: key.pk?.S, sk: key.sk?.S };
};

const itemOf = (value: unknown): Record<string, unknown> => unmarshall(value as Record<string, AttributeValue>);

/**
 * The enrollment's model: the calls every timed enrollment made (the same for each, checked) and the price its items
 * give by the pricing rules (the same for each, else the bench fails).
 */
function enrollmentModel(samples: readonly CloudSample[], prices: readonly Capacity[]): Model {
  const [sample] = samples;
  const [price] = prices;
  if (!sample || !price) throw new Error('No enrollment was measured');
  const differs = prices.find((each) => JSON.stringify(each) !== JSON.stringify(price));
  if (differs) throw new Error(`Two enrollments priced differently: ${JSON.stringify(price)} and ${JSON.stringify(differs)}`);
  return { commands: sample.answered.map((call) => call.command), capacity: price };
}

/**
 * What the pricing rules charge for a request's calls, from the items DynamoDB answered and the items it wrote: a
 * strongly consistent GetItem or a BatchGetItem's key 1 RCU per 4 KB of its item (a missing one 1), a Query 1 RCU per
 * 4 KB of its items together; a put 1 WCU per KB of its item (the activation's puts are all of new items), an update
 * of the item as read back after the request, and in a TransactWriteItems each Put, Update and ConditionCheck twice
 * (a ConditionCheck is charged as a write of the item it checks).
 */
async function priceCalls(calls: readonly Answered[], kit: CloudKdKit): Promise<Capacity> {
  const { readUnits, writeUnits, itemSize, transaction } = kit.pricing;
  const after = async (key: unknown) => {
    const { pk, sk } = itemOf(key) as { pk: string; sk: string };
    return itemSize(await kit.readBack({ pk, sk }));
  };
  const consistent = (input: { ConsistentRead?: boolean }, command: string) => {
    if (input.ConsistentRead !== true) throw new Error(`An eventually consistent ${command} has no pricing here`);
  };
  let tableRcu = 0;
  let tableWcu = 0;
  for (const { command, input, output } of calls) {
    switch (command) {
      case 'GetItem':
        consistent(input, command);
        tableRcu += readUnits(output.Item ? itemSize(itemOf(output.Item)) : 0);
        break;
      case 'BatchGetItem': {
        const requested = input.RequestItems as Record<
          string,
          { Keys: Record<string, AttributeValue>[]; ConsistentRead?: boolean }
        >;
        const responses = (output.Responses ?? {}) as Record<string, Record<string, AttributeValue>[]>;
        for (const [name, { Keys, ...read }] of Object.entries(requested)) {
          consistent(read, command);
          const found = (responses[name] ?? []).map(itemOf);
          for (const key of Keys.map(itemOf)) {
            const item = found.find((each) => each.pk === key.pk && each.sk === key.sk);
            tableRcu += readUnits(item ? itemSize(item) : 0);
          }
        }
        break;
      }
      case 'Query': {
        consistent(input, command);
        const items = ((output.Items ?? []) as Record<string, AttributeValue>[]).map(itemOf);
        if (output.Count !== output.ScannedCount) throw new Error('A filtered Query has no pricing here');
        tableRcu += readUnits(items.reduce((sum, item) => sum + itemSize(item), 0));
        break;
      }
      case 'PutItem':
        tableWcu += writeUnits(itemSize(itemOf(input.Item)));
        break;
      case 'UpdateItem':
        tableWcu += writeUnits(await after(input.Key));
        break;
      case 'TransactWriteItems': {
        const parts = input.TransactItems as {
          Put?: { Item: unknown };
          Update?: { Key: unknown };
          ConditionCheck?: { Key: unknown };
        }[];
        let units = 0;
        for (const part of parts) {
          if (part.Put) units += writeUnits(itemSize(itemOf(part.Put.Item)));
          else if (part.Update) units += writeUnits(await after(part.Update.Key));
          else if (part.ConditionCheck) units += writeUnits(await after(part.ConditionCheck.Key));
          else throw new Error(`No pricing of a transaction's ${Object.keys(part).join()}`);
        }
        tableWcu += transaction * units;
        break;
      }
      default:
        throw new Error(`No pricing of ${command}`);
    }
  }
  return { tableRcu, lsiRcu: 0, tableWcu, lsiWcu: 0 };
}

/** The cloud rows' legend lines (bench.ts's report). */
export const cloudKdLegend = [
  `- cloud kd rows (docs/conventions.md §27): the stand-in of the cloud control-unit system (infra/local/cloud-unit.ts: its`,
  `  signing server TCS and enrollment service IDM, plain HTTP) runs in the bench's process on the port TCS_URL and IDM_URL name.`,
  `  A seller with an address (the enrollment's RegisterAddress) and an application that needs a control unit; POST`,
  `  /v33/activations-advanced (the bench user, Basic) with controlUnitLocation REMOTE and no serial, of a new register each`,
  `  (${ENROLL_WARMUP} first, the timed ones after the kds): the activation reads the register's enrollment (none), the seller's`,
  `  profile, then sends IDM's Action NEW; it keeps the enrollment (a conditional PutItem), reads the unit of the RegisterID`,
  `  (none), numbers it, and writes the activation's items with the unit (its record has \`cloud\`) in one transaction. It is`,
  `  priced from the items its calls read and wrote (the sizes DynamoDB answered, an updated item read back after the request),`,
  `  by the rules below, a ConditionCheck charged as a write of its item (paritysuite/dynamodb-conformance#67, measured on AWS);`,
  `  the bench fails if two enrollments make other calls or cost otherwise. The first register's v33 POST`,
  `  /{sellerId}/registration/{cash}/kd of a new receipt number each (2 VAT rates, after ${WARMUP} warm-up kds: alone, DynamoDB`,
  `  Local's JVM is fresh) and the same kds repeated (the claim answers: nothing written, the system not asked; both checked).`,
  `  A cloud kd reads and writes as a bridge's kd (the unit's bridge record and status are read, and missing: 1 RCU each, which`,
  `  DynamoDB Local reports as 0) without the reads of the reply: the link sends one TcsRequest and answers its TcsResponse; the`,
  `  PutItem of the reply, for other waiters on the claim, is the function's own. HTTP requests: those the stand-in answered`,
  `  during the request (the bench fails unless an enrollment sent one NEW, a kd one TcsRequest, both answered ResponseCode 0,`,
  `  and a repeat none). Wall: performance.now() around the invoke; CPU: the whole process's (handler and stand-in).`,
];
