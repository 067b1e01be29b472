import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bridge, type BridgeOptions } from '../../edge/bridge.ts';
import { SERIAL } from '../../edge/config.ts';
import { CuSimulator } from '../../edge/simulator.ts';
import { buildAll, root } from '../../scripts/build.ts';
import { stageTable } from '../../scripts/stage.ts';
import { buildDocs, DOCS_BUILD_DIR } from '../../scripts/docs.ts';
import { table } from '../../shared/db/client.ts';
import { getItem, putItem } from '../../shared/db/documents.ts';
import { type BridgeRecord, thingName, bridgeKeys } from '../../shared/kd/protocol.ts';
import { ensureLocalSigningKey } from '../../shared/signing/local-signer.ts';
import { startBroker } from './broker.ts';
import { startCloudStandIn } from './cloud-unit.ts';
import { startExportFiles } from './export-files.ts';
import { ensureTable, type LocalDynamo, startDynamo } from './dynamodb.ts';
import { startKdRules } from './kd-rules.ts';
import { shortLine } from './output.ts';
import { freePort, stopChild, waitFor } from './processes.ts';

export interface StackOptions {
  /** HTTP port of the API (default: a free port). */
  port?: number;
  /** Keep DynamoDB Local's data in this folder instead of memory. */
  dataDir?: string;
  admin: { username: string; password: string };
  /** Print a line per request, and each kd exchange's (default true). */
  logRequests?: boolean;
  /**
   * Print serverless-offline's output as it comes: its route table, and each request's whole JSON log line (default
   * false: nothing of it before the stack serves, then one short line per request, infra/local/output.ts).
   */
  verbose?: boolean;
  /**
   * Stop an invocation at its function's `timeout` as Lambda does (default true). The tests turn it off: on two
   * busy cores a request of a load test can outlast its function's timeout, and what they assert is the answer.
   */
  lambdaTimeouts?: boolean;
  /** The control units served, one simulator and one bridge each (default: env CONTROL_UNITS, else SIMCU000000000001). */
  controlUnits?: string[];
}

/**
 * A control unit on this machine: the simulator on a free TCP port and the edge bridge between it and
 * the local broker, with its provisioning record (`#BRIDGE`) in the table, as provision-bridge writes it in AWS.
 */
export interface LocalUnit {
  serial: string;
  simulator: CuSimulator;
  /** The simulator's address, `tcp://127.0.0.1:<port>`. */
  address: string;
  /** The bridge running now (a new one after each startBridge). */
  bridge: Bridge;
  /** Stops the bridge cleanly: it finishes its exchange and publishes `online: false`. */
  stopBridge(): Promise<void>;
  /** Starts a new bridge (after stopBridge or its kill) and resolves once it is online. */
  startBridge(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalUnit(
  serial: string,
  brokerUrl: string,
  bridgeOptions: Pick<BridgeOptions, 'log' | 'reconnect' | 'unitTimeoutMs'> = {},
): Promise<LocalUnit> {
  const simulator = new CuSimulator({ serial });
  const address = `tcp://127.0.0.1:${await simulator.listen(0)}`;
  const record: BridgeRecord = { serial, thingName: thingName(serial), provisioned: Date.now() };
  await putItem({ TableName: table(), Item: { ...bridgeKeys.bridge(serial), ...record } });
  const newBridge = () => new Bridge({ ...bridgeOptions, serial, broker: brokerUrl, unit: address });
  const unit: LocalUnit = {
    serial,
    simulator,
    address,
    bridge: newBridge(),
    stopBridge: () => unit.bridge.stop(),
    startBridge: async () => {
      await unit.bridge.stop();
      unit.bridge = newBridge();
      unit.bridge.start();
      await unit.bridge.online();
    },
    stop: async () => {
      await unit.bridge.stop();
      await simulator.close();
    },
  };
  unit.bridge.start();
  await unit.bridge.online();
  await untilSeen(serial, true);
  return unit;
}

/**
 * Resolves once the table holds the unit's status with this `online` (the rules write it after the bridge
 * publishes), so the service sees what the bridge said; a status that never comes fails after `timeoutMs`.
 */
export async function untilSeen(serial: string, online: boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Item } = await getItem({ TableName: table(), Key: bridgeKeys.status(serial), ConsistentRead: true });
    if (Item?.online === online) return;
    if (Date.now() > deadline) throw new Error(`the table never showed ${serial}'s bridge ${online ? 'online' : 'offline'}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `CONTROL_UNITS` (comma-separated serials), default one simulated unit. */
export function controlUnitSerials(value = process.env.CONTROL_UNITS): string[] {
  const serials = (value || 'SIMCU000000000001')
    .split(',')
    .map((serial) => serial.trim())
    .filter(Boolean);
  const bad = serials.find((serial) => !SERIAL.test(serial));
  if (bad !== undefined) throw new Error(`CONTROL_UNITS: "${bad}" is not a serial (1 to 20 letters, digits, - or _)`);
  return serials;
}

export interface LocalStack {
  baseUrl: string;
  /** The API reference's overview (`<baseUrl>/docs`): the fallback function serves the pages scripts/docs.ts builds. */
  docsUrl: string;
  dynamoEndpoint: string;
  tableName: string;
  /** Where `POST /email` leaves its messages, one `.eml` file each. */
  outboxDir: string;
  /** Where the images' bytes are kept (S3's part; their records are in the table). */
  imageDir: string;
  /** Where export files are kept (S3's part), and the base of their download links. */
  exportDir: string;
  exportFilesUrl: string;
  /** The key this run signs export links with (the tests sign links of their own with it). */
  exportUrlSecret: string;
  /** The local MQTT broker (`mqtt://127.0.0.1:<port>`) the kd function publishes to and the bridges connect to. */
  mqttUrl: string;
  /** Each served control unit's simulator address, by serial. */
  units: Record<string, string>;
  /**
   * The cloud control-unit system the functions use (`TCS_URL` and `IDM_URL` when set, else the stand-in served here,
   * infra/local/cloud-unit.ts); `standIn` says which.
   */
  cloudSystem: { tcsUrl: string; idmUrl: string; standIn: boolean };
  /** A served unit (its simulator, and stopping or starting its bridge). */
  unit(serial: string): LocalUnit;
  stop(): Promise<void>;
}

/** Preloaded into serverless-offline so that its events carry bodies and request ids as API Gateway's do. */
const OFFLINE_EVENTS = new URL('./offline-events.ts', import.meta.url).href;

/** The table name of the local stage, as serverless.yml derives it (scripts/stage.ts). */
export const LOCAL_TABLE = stageTable('local');

/**
 * The whole service on this machine: DynamoDB Local with the table of infra/table.yml, the local
 * admin (docs/conventions.md §8), and every function under serverless-offline. Used by `npm start` and the tests.
 */
export async function startStack(options: StackOptions): Promise<LocalStack> {
  const serials = options.controlUnits ?? controlUnitSerials();
  // The port is chosen first, so the reference pages name the stack's own base URL as their server.
  const port = options.port ?? (await freePort());
  await Promise.all([buildAll(), buildDocs(DOCS_BUILD_DIR, `http://localhost:${port}`)]);
  const dynamo: LocalDynamo = await startDynamo(options.dataDir ? { dataDir: options.dataDir } : {});
  // What has started, stopped in reverse order (also when a later start fails).
  const started: (() => Promise<void>)[] = [() => dynamo.stop()];
  const stopStarted = async () => {
    for (const stop of started.splice(0).reverse()) await stop();
  };
  try {
    await ensureTable(dynamo.endpoint, LOCAL_TABLE);
    process.env.TABLE_NAME = LOCAL_TABLE;
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    // With DATA_DIR the key outlives restarts, so registers keep verifying; in memory, each run has its own.
    const keyDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cash-register-'));
    const keyFile = join(keyDir, 'activation-signing-key.pem');
    ensureLocalSigningKey(keyFile);
    process.env.ACTIVATION_SIGNER = 'local';
    process.env.ACTIVATION_KEY_FILE = keyFile;
    // Image bytes in a folder beside the key: under DATA_DIR they outlive restarts with the records naming them.
    const imageDir = join(keyDir, 'images');
    process.env.IMAGE_STORE = 'local';
    process.env.IMAGE_DIR = imageDir;
    // Control units: the broker, the rules that write replies and statuses into the table (IoT Core's
    // topic rules in AWS), and one simulator and bridge per unit; the kd function publishes to this broker.
    const broker = await startBroker();
    started.push(() => broker.stop());
    const log = options.logRequests === false ? () => undefined : (line: string) => console.log(line);
    const rules = await startKdRules(broker.url, log);
    started.push(() => rules.stop());
    const units = new Map<string, LocalUnit>();
    for (const serial of serials) {
      const unit = await startLocalUnit(serial, broker.url, { log });
      started.push(() => unit.stop());
      units.set(serial, unit);
    }
    // Cloud control units: the system at TCS_URL and IDM_URL when both are set, else the stand-in of both.
    const named =
      process.env.TCS_URL && process.env.IDM_URL ? { tcsUrl: process.env.TCS_URL, idmUrl: process.env.IDM_URL } : undefined;
    const standIn = named
      ? undefined
      : await startCloudStandIn({ log, ...(options.dataDir ? { stateFile: join(options.dataDir, 'cloud-units.json') } : {}) });
    if (standIn) started.push(() => standIn.stop());
    const cloudSystem = named
      ? { ...named, standIn: false }
      : { tcsUrl: standIn?.url ?? '', idmUrl: standIn?.url ?? '', standIn: true };
    // E-mail lands in a folder beside them; payments go to the simulator, which signs with this run's secret.
    const outboxDir = join(keyDir, 'outbox');
    // Export files in a folder beside them, downloaded through links this run signs (S3's pre-signed GETs in AWS).
    const exportDir = join(keyDir, 'exports');
    const exportSecret = randomBytes(32).toString('hex');
    const exportFiles = await startExportFiles({ dir: exportDir, secret: exportSecret });
    started.push(() => exportFiles.stop());
    const local = {
      KD_PUBLISHER: 'mqtt',
      MQTT_URL: broker.url,
      MAIL_TRANSPORT: 'outbox',
      MAIL_SENDER: 'cash-register@localhost.invalid',
      MAIL_OUTBOX_DIR: outboxDir,
      GATEWAY_PROVIDER: 'simulator',
      GATEWAY_SECRET: randomBytes(32).toString('hex'),
      TCS_URL: cloudSystem.tcsUrl,
      IDM_URL: cloudSystem.idmUrl,
      EXPORT_STORE: 'local',
      EXPORT_DIR: exportDir,
      EXPORT_URL_BASE: exportFiles.url,
      EXPORT_URL_SECRET: exportSecret,
    };
    const { createUserIfAbsent } = await import('#shared/auth/users.ts');
    await createUserIfAbsent({
      ...options.admin,
      email: 'admin@localhost.invalid',
      role: 'HYPER_ADMIN',
      softwareVendor: null,
      sellers: [],
    });

    const [lambdaPort, websocketPort, albPort] = [await freePort(), await freePort(), await freePort()];
    const timeouts = options.lambdaTimeouts === false ? ['--noTimeout'] : [];
    const output = options.logRequests === false ? 'ignore' : options.verbose ? 'inherit' : 'pipe';
    const offline = spawn(join(root, 'node_modules/.bin/sls'), ['offline', 'start', '--stage', 'local', ...timeouts], {
      cwd: root,
      detached: true,
      stdio: ['ignore', output, 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        OFFLINE_LAMBDA_PORT: String(lambdaPort),
        OFFLINE_WEBSOCKET_PORT: String(websocketPort),
        OFFLINE_ALB_PORT: String(albPort),
        // The export worker is started through serverless-offline's Lambda API, as Lambda's in AWS.
        LAMBDA_ENDPOINT: `http://localhost:${lambdaPort}`,
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        ACTIVATION_SIGNER: 'local',
        ACTIVATION_KEY_FILE: keyFile,
        IMAGE_STORE: 'local',
        IMAGE_DIR: imageDir,
        DOCS_DIR: DOCS_BUILD_DIR,
        ...local,
        // Bodies and request ids reach the functions as API Gateway sends them (see the file).
        NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${OFFLINE_EVENTS}`].filter(Boolean).join(' '),
        LOG_REQUESTS: String(options.logRequests ?? true),
        SLS_TELEMETRY_DISABLED: '1',
      },
    });
    started.push(() => stopChild(offline));
    const baseUrl = `http://localhost:${port}`;
    // Short lines once it serves; before, its route table. The readiness probes' lines are dropped whenever they come:
    // one line for each probe answered.
    let serving = false;
    let probesAnswered = 0;
    let probeLinesDropped = 0;
    if (offline.stdout) {
      createInterface({ input: offline.stdout }).on('line', (line) => {
        if (line.includes('"route":"GET /health"') && (!serving || probeLinesDropped < probesAnswered)) {
          probeLinesDropped += 1;
          return;
        }
        const short = serving ? shortLine(line) : undefined;
        if (short !== undefined) console.log(short);
      });
    }
    // GET /health: a healthy stack answers 200 (a probe of an API path would log a 404 before any request).
    const probe = () =>
      fetch(`${baseUrl}/health`).then((answer) => {
        probesAnswered += 1;
        return answer.ok;
      });
    await waitFor('serverless-offline', offline, probe, 120_000);
    serving = true;
    return {
      baseUrl,
      docsUrl: `${baseUrl}/docs`,
      dynamoEndpoint: dynamo.endpoint,
      tableName: LOCAL_TABLE,
      outboxDir,
      imageDir,
      exportDir,
      exportFilesUrl: exportFiles.url,
      exportUrlSecret: exportSecret,
      mqttUrl: broker.url,
      units: Object.fromEntries([...units].map(([serial, unit]) => [serial, unit.address])),
      cloudSystem,
      unit: (serial) => {
        const unit = units.get(serial);
        if (!unit) throw new Error(`the stack serves no control unit ${serial} (CONTROL_UNITS)`);
        return unit;
      },
      stop: async () => {
        await stopStarted();
        if (keyDir !== options.dataDir) rmSync(keyDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopStarted();
    throw error;
  }
}
