/**
 * `npm start`: the local stack in the foreground. PORT (default 3000) picks the HTTP port,
 * DATA_DIR keeps DynamoDB Local's data in a folder, ADMIN_USERNAME / ADMIN_PASSWORD name the
 * local hyper admin (default admin / admin; local stage only), CONTROL_UNITS the simulated control units
 * (comma-separated serials; default SIMCU000000000001). Ctrl-C stops everything.
 */
import { mkdirSync } from 'node:fs';
import { JAVA_PACKAGE, javaAvailable } from '../infra/local/dynamodb.ts';
import { startStack } from '../infra/local/stack.ts';

if (!javaAvailable()) {
  console.error(`Java is missing; DynamoDB Local needs it. Install it with:\n  sudo apt-get install -y ${JAVA_PACKAGE}`);
  process.exit(1);
}

const admin = { username: process.env.ADMIN_USERNAME || 'admin', password: process.env.ADMIN_PASSWORD || 'admin' };
const dataDir = process.env.DATA_DIR;
if (dataDir) mkdirSync(dataDir, { recursive: true });

const stack = await startStack({
  port: Number(process.env.PORT || 3000),
  admin,
  ...(dataDir ? { dataDir } : {}),
});

console.log(`
Cash-register back end is running.
  Base URL:  ${stack.baseUrl}  (e.g. ${stack.baseUrl}/v33/sellers)
  API docs:  ${stack.docsUrl}  (one page per version, and what differs between them)
  Admin:     ${admin.username} / ${admin.password}  (ROLE_HYPER_ADMIN, local stage only)
  DynamoDB:  ${stack.dynamoEndpoint}, table ${stack.tableName}${dataDir ? `, data in ${dataDir}` : ', in memory'}
  E-mail:    ${stack.outboxDir}  (POST /email writes one .eml file per message; nothing is sent)
  Payments:  the gateway simulator (amounts ending in .01 decline, .02 error, .03 forged; others accept)
  MQTT:      ${stack.mqttUrl}  (local broker; the kd rules write replies and bridge statuses into the table)
${Object.entries(stack.units)
  .map(([serial, address]) => `  Unit:      ${serial}  simulator ${address}, its bridge online`)
  .join('\n')}
Press Ctrl-C to stop.`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    await stack.stop();
    process.exit(0);
  });
}
