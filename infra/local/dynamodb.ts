import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { parse } from 'yaml';
import { freePort, stopChild, waitFor } from './processes.ts';

/** The Debian package that provides the Java runtime DynamoDB Local needs. */
export const JAVA_PACKAGE = 'openjdk-17-jre-headless';

export function javaAvailable(): boolean {
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

/** DynamoDB Local 1.25.1, shipped inside the npm package amplify-dynamodb-simulator. */
function emulatorFolder(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * The command that runs DynamoDB Local, telemetry off. The 1.25.1 jar parses `-disableTelemetry` but
 * only honours `DDB_LOCAL_TELEMETRY=0`, which also keeps it from writing `dynamodb-local-metadata.json`
 * into its working directory; the flag is for newer jars, which honour it.
 */
export function dynamoCommand(options: { port: number; dataDir?: string }): { args: string[]; env: NodeJS.ProcessEnv } {
  const folder = emulatorFolder();
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  return {
    args: [
      '-Xmx1g',
      `-Djava.library.path=${join(folder, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(folder, 'DynamoDBLocal.jar'),
      ...storage,
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(options.port),
    ],
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
  };
}

/** Starts DynamoDB Local in memory, or on `dataDir` when given, and waits until it answers. */
export async function startDynamo(options: { port?: number; dataDir?: string } = {}): Promise<LocalDynamo> {
  if (!javaAvailable()) {
    throw new Error(`Java is missing: DynamoDB Local needs it. Install it with: apt-get install -y ${JAVA_PACKAGE}`);
  }
  const port = options.port ?? (await freePort());
  const { args, env } = dynamoCommand({ port, ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
  // In a process group of its own, as serverless-offline's: a Ctrl-C in the terminal reaches the stack's process, which
  // stops what it started in order (the bridges' last statuses are written before the table goes), not Java first.
  const child: ChildProcess = spawn('java', args, { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const killOnExit = () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  await waitFor(`DynamoDB Local on port ${port}`, child, () => client.send(new ListTablesCommand({})).then(() => true));
  return { endpoint, stop: () => stopChild(child) };
}

export const localClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

interface TableResource {
  Properties: Omit<CreateTableCommandInput, 'TableName'> & {
    TimeToLiveSpecification?: { AttributeName: string; Enabled: boolean };
  } & Record<string, unknown>;
}

const tableProperties = () =>
  (parse(readFileSync(new URL('../table.yml', import.meta.url), 'utf8')) as { Resources: { DataTable: TableResource } }).Resources
    .DataTable.Properties;

/** The table's definition from infra/table.yml, the same one CloudFormation deploys. */
export function tableDefinition(tableName: string): CreateTableCommandInput {
  const { AttributeDefinitions, KeySchema, LocalSecondaryIndexes, GlobalSecondaryIndexes, BillingMode } = tableProperties();
  return { TableName: tableName, AttributeDefinitions, KeySchema, LocalSecondaryIndexes, GlobalSecondaryIndexes, BillingMode };
}

/** Creates the table unless it exists (a data folder keeps it between starts). */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  const { TableNames = [] } = await client.send(new ListTablesCommand({}));
  if (!TableNames.includes(tableName)) {
    await client.send(new CreateTableCommand(tableDefinition(tableName)));
    // Expiry is not part of CreateTable: it is set on the table after (kd replies, infra/table.yml).
    const ttl = tableProperties().TimeToLiveSpecification;
    if (ttl) await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: ttl }));
  }
  client.destroy();
}
