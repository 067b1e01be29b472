import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAll, root } from '../../scripts/build.ts';
import { ensureLocalSigningKey } from '../../shared/signing/local-signer.ts';
import { ensureTable, type LocalDynamo, startDynamo } from './dynamodb.ts';
import { freePort, stopChild, waitFor } from './processes.ts';

export interface StackOptions {
  /** HTTP port of the API (default: a free port). */
  port?: number;
  /** Keep DynamoDB Local's data in this folder instead of memory. */
  dataDir?: string;
  admin: { username: string; password: string };
  /** Print each request's log line (default true). */
  logRequests?: boolean;
}

export interface LocalStack {
  baseUrl: string;
  dynamoEndpoint: string;
  tableName: string;
  /** Where `POST /email` leaves its messages, one `.eml` file each. */
  outboxDir: string;
  stop(): Promise<void>;
}

/** Preloaded into serverless-offline so that image bodies arrive base64-encoded, as in AWS. */
const BINARY_BODIES = new URL('./offline-binary-bodies.ts', import.meta.url).href;

/** The table name of the local stage, as serverless.yml derives it (`${service}-${stage}`). */
export const LOCAL_TABLE = 'cash-register-local';

/**
 * The whole service on this machine: DynamoDB Local with the table of infra/table.yml, the local
 * admin (docs/conventions.md §8), and every function under serverless-offline. Used by `npm start` and the tests.
 */
export async function startStack(options: StackOptions): Promise<LocalStack> {
  await buildAll();
  const dynamo: LocalDynamo = await startDynamo(options.dataDir ? { dataDir: options.dataDir } : {});
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
    // E-mail lands in a folder beside them; payments go to the simulator, which signs with this run's secret.
    const outboxDir = join(keyDir, 'outbox');
    const local = {
      MAIL_TRANSPORT: 'outbox',
      MAIL_SENDER: 'cash-register@localhost.invalid',
      MAIL_OUTBOX_DIR: outboxDir,
      GATEWAY_PROVIDER: 'simulator',
      GATEWAY_SECRET: randomBytes(32).toString('hex'),
    };
    const { createUserIfAbsent } = await import('#shared/auth/users.ts');
    await createUserIfAbsent({
      ...options.admin,
      email: 'admin@localhost.invalid',
      role: 'HYPER_ADMIN',
      softwareVendor: null,
      sellers: [],
    });

    const port = options.port ?? (await freePort());
    const [lambdaPort, websocketPort, albPort] = [await freePort(), await freePort(), await freePort()];
    const offline = spawn(join(root, 'node_modules/.bin/sls'), ['offline', 'start', '--stage', 'local'], {
      cwd: root,
      detached: true,
      stdio: ['ignore', options.logRequests === false ? 'ignore' : 'inherit', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        OFFLINE_LAMBDA_PORT: String(lambdaPort),
        OFFLINE_WEBSOCKET_PORT: String(websocketPort),
        OFFLINE_ALB_PORT: String(albPort),
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        ACTIVATION_SIGNER: 'local',
        ACTIVATION_KEY_FILE: keyFile,
        IMAGE_STORE: 'local',
        IMAGE_DIR: imageDir,
        ...local,
        // Binary bodies reach the functions base64-encoded, as API Gateway sends them (see the file).
        NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${BINARY_BODIES}`].filter(Boolean).join(' '),
        LOG_REQUESTS: String(options.logRequests ?? true),
        SLS_TELEMETRY_DISABLED: '1',
      },
    });
    const baseUrl = `http://localhost:${port}`;
    await waitFor('serverless-offline', offline, () => fetch(`${baseUrl}/v33/`).then(() => true), 120_000);
    return {
      baseUrl,
      dynamoEndpoint: dynamo.endpoint,
      tableName: LOCAL_TABLE,
      outboxDir,
      stop: async () => {
        await stopChild(offline);
        await dynamo.stop();
        if (keyDir !== options.dataDir) rmSync(keyDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
}
