/**
 * The bench's floor rows: an operation's DynamoDB calls, as its handler sent them (operation and input, attribute
 * values and all), sent again by a bare `@aws-sdk/client-dynamodb` client (none of the service's middleware, validation,
 * mapping or HTTP pipeline): the CPU the calls alone cost, beside which the operation's CPU is read. Calls the handler sent while
 * another was in flight are sent together again. A write is sent to the same keys under FLOOR_PREFIX, so the floor
 * never changes the data the bench reads; its conditions are made to hold (they guard the handler's decision,
 * which the floor does not make), so every call succeeds as it did for the handler, with the same items.
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** One DynamoDB call as the handler sent it. */
export interface Sent {
  /** The DynamoDB operation: GetItem, Query, ... */
  command: string;
  /** Its input as sent (attribute values), ReturnConsumedCapacity included. */
  input: unknown;
  /** Calls sent while another of the request was in flight share their wave. */
  wave: number;
  failed: boolean;
}

/** Keys a floor write goes to: one byte more than the handler's, in partitions no request reads. */
const FLOOR_PREFIX = '~';
/** Holds on any item, present or not: the handler's condition stays in the request, its values used. */
const HOLDS = 'attribute_not_exists(pk) OR attribute_exists(pk)';

const COMMANDS = {
  BatchGetItem: BatchGetItemCommand,
  BatchWriteItem: BatchWriteItemCommand,
  DeleteItem: DeleteItemCommand,
  GetItem: GetItemCommand,
  PutItem: PutItemCommand,
  Query: QueryCommand,
  Scan: ScanCommand,
  TransactGetItems: TransactGetItemsCommand,
  TransactWriteItems: TransactWriteItemsCommand,
  UpdateItem: UpdateItemCommand,
} as const;
type Operation = keyof typeof COMMANDS;
const isOperation = (command: string): command is Operation => command in COMMANDS;

type Item = Record<string, AttributeValue>;
/** A write's part that names an item (Put: Item; Update, Delete, ConditionCheck: Key) and may hold a condition. */
interface Target {
  Item?: Item;
  Key?: Item;
  ConditionExpression?: string;
}

function retarget(target: Target | undefined, keepCondition: boolean): void {
  if (!target) return;
  for (const item of [target.Item, target.Key]) {
    const pk = item?.pk;
    if (item && pk && 'S' in pk && pk.S !== undefined) item.pk = { S: `${FLOOR_PREFIX}${pk.S}` };
  }
  if (target.ConditionExpression && !keepCondition) target.ConditionExpression = `(${target.ConditionExpression}) OR ${HOLDS}`;
}

interface WriteInput extends Target {
  TransactItems?: { Put?: Target; Update?: Target; Delete?: Target; ConditionCheck?: Target }[];
  RequestItems?: Record<string, { PutRequest?: Target; DeleteRequest?: Target }[]>;
}

/**
 * The input the floor sends for `sent`: a read as the handler sent it; a write to the floor's keys, its conditions
 * holding (a call the handler saw refused keeps its condition, and may be refused again).
 */
function floorInput({ command, input, failed }: Sent): unknown {
  const copy = structuredClone(input) as WriteInput;
  if (/^(Get|BatchGet|Query|Scan|TransactGet)/.test(command)) return copy;
  retarget(copy, failed);
  for (const item of copy.TransactItems ?? []) {
    for (const part of [item.Put, item.Update, item.Delete, item.ConditionCheck]) retarget(part, failed);
  }
  for (const requests of Object.values(copy.RequestItems ?? {})) {
    for (const request of requests) for (const part of [request.PutRequest, request.DeleteRequest]) retarget(part, failed);
  }
  return copy;
}

let client: DynamoDBClient | undefined;

/**
 * The floor's client: the bench's DynamoDB Local, as the handlers' client reaches it, with nothing added and the SDK's
 * logger middleware taken away as shared/db/client.ts takes it (it walks every input and output for a no-op logger):
 * a floor no handler could go below.
 */
function bare(): DynamoDBClient {
  if (!client) {
    client = new DynamoDBClient({
      region: process.env.AWS_REGION ?? 'local',
      endpoint: process.env.DYNAMODB_ENDPOINT,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    client.middlewareStack.remove('loggerMiddleware');
  }
  return client;
}

/** Prepared calls, wave by wave: each makes a new command from its input, as a handler does. */
type Waves = (() => Promise<unknown>)[][];

function prepare(calls: readonly Sent[]): Waves {
  const waves = new Map<number, (() => Promise<unknown>)[]>();
  for (const sent of calls) {
    const { command, failed } = sent;
    if (!isOperation(command)) throw new Error(`The floor cannot send ${command}`);
    const input = floorInput(sent);
    const Command = COMMANDS[command] as new (input: unknown) => Parameters<DynamoDBClient['send']>[0];
    const send = () => bare().send(new Command(input));
    const wave = waves.get(sent.wave) ?? [];
    wave.push(failed ? () => send().catch(() => undefined) : send);
    waves.set(sent.wave, wave);
  }
  return [...waves.values()];
}

const WARMUP = 3;

/** The CPU time (ms, user + system, as the operation rows measure it) of `reps` sends of `calls` after a warm-up. */
export async function floorCpu(calls: readonly Sent[], reps: number): Promise<number[]> {
  const waves = prepare(calls);
  const once = async () => {
    const start = process.cpuUsage();
    for (const wave of waves) await Promise.all(wave.map((send) => send()));
    const cpu = process.cpuUsage(start);
    return (cpu.user + cpu.system) / 1000;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < reps; i++) samples.push(await once());
  return samples;
}

/** Counts the waves of one request's calls: a call sent while none of the request's is in flight opens a new wave. */
export function waveCounter(): { open(): number; close(): void } {
  let inFlight = 0;
  let wave = 0;
  return {
    open() {
      if (inFlight === 0) wave += 1;
      inFlight += 1;
      return wave;
    },
    close() {
      inFlight -= 1;
    },
  };
}
