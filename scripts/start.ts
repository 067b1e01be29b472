/**
 * `npm start`: the local stack in the foreground. PORT (default 3000) picks the HTTP port,
 * DATA_DIR keeps DynamoDB Local's data in a folder, ADMIN_USERNAME / ADMIN_PASSWORD name the
 * local hyper admin (default admin / admin; local stage only), CONTROL_UNITS the simulated control units
 * (comma-separated serials; default SIMCU000000000001), TCS_URL and IDM_URL a cloud control-unit system (default: a stand-in of
 * both, infra/local/cloud-unit.ts). It prints a banner once it serves, then one line per request;
 * `npm start -- --verbose` prints serverless-offline's own output too (its route table, each request's JSON log line).
 * Ctrl-C stops everything.
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { JAVA_PACKAGE, javaAvailable } from '../infra/local/dynamodb.ts';
import { startStack } from '../infra/local/stack.ts';

if (!javaAvailable()) {
  console.error(`Java is missing; DynamoDB Local needs it. Install it with:\n  sudo apt-get install -y ${JAVA_PACKAGE}`);
  process.exit(1);
}

const { values: flags } = (() => {
  try {
    return parseArgs({ options: { verbose: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\nusage: npm start [-- --verbose]`);
    process.exit(2);
  }
})();
if (flags.help) {
  console.log(`usage: npm start [-- --verbose]
The local stack: DynamoDB Local, every function under serverless-offline, the MQTT broker and the simulated units.
  --verbose  serverless-offline's own output too: its route table, each request's whole JSON log line
Environment: PORT (3000), DATA_DIR (in memory), ADMIN_USERNAME / ADMIN_PASSWORD (admin / admin), CONTROL_UNITS,
  TCS_URL / IDM_URL (a cloud control-unit system; default: the stand-in of both).`);
  process.exit(0);
}

const admin = { username: process.env.ADMIN_USERNAME || 'admin', password: process.env.ADMIN_PASSWORD || 'admin' };
const dataDir = process.env.DATA_DIR;
if (dataDir) mkdirSync(dataDir, { recursive: true });

const stack = await startStack({
  port: Number(process.env.PORT || 3000),
  admin,
  verbose: flags.verbose,
  ...(dataDir ? { dataDir } : {}),
});

console.log(`
Cash-register back end is running.
  Base URL:  ${stack.baseUrl}  (e.g. ${stack.baseUrl}/v33/sellers)
  API docs:  ${stack.docsUrl}  (one page per version, and what differs between them)
  Admin:     ${admin.username} / ${admin.password}  (ROLE_HYPER_ADMIN, local stage only)
  DynamoDB:  ${stack.dynamoEndpoint}, table ${stack.tableName}${dataDir ? `, data in ${dataDir}` : ', in memory'}
  E-mail:    ${stack.outboxDir}  (POST /email writes one .eml file per message; nothing is sent)
  Images:    ${stack.imageDir}  (the images' bytes; their records are in the table)
  Payments:  the gateway simulator (amounts ending in .01 decline, .02 error, .03 forged; others accept)
  MQTT:      ${stack.mqttUrl}  (local broker; the kd rules write replies and bridge statuses into the table)
${Object.entries(stack.units)
  .map(([serial, address]) => `  Unit:      ${serial}  simulator ${address}, its bridge online`)
  .join('\n')}
  Cloud CU:  ${stack.cloudSystem.standIn ? `stand-in at ${stack.cloudSystem.tcsUrl} (TCS and IDM; REMOTE activations without a serial enroll there)` : `TCS ${stack.cloudSystem.tcsUrl}, IDM ${stack.cloudSystem.idmUrl}`}
  Requests:  one line each below${flags.verbose ? ", with serverless-offline's output" : " (npm start -- --verbose: serverless-offline's output too)"}
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
