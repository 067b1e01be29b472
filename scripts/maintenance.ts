/**
 * `npm run maintenance -- on|off|status --stage <stage> [--region <region>] [--retry-after <seconds>] [--table <table>]`:
 * flips the maintenance switch of a deployed stage without a deploy (docs/operations.md), with the caller's AWS
 * credentials; `--table` names a table other than the stage's (the first generation's, before the layout migration).
 * While it is on, every route answers `503 ServiceUnavailable SERVER_IS_DOWN` with `Retry-After` (default 300 s)
 * and `GET /health` stays up (docs/conventions.md §24). Not to be confused with the `maintenance` function, the
 * daily tombstone purge. Exit 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import { stageTable } from './stage.ts';

const usage =
  'usage: npm run maintenance -- on|off|status --stage <stage> [--region <region>] [--retry-after <seconds, default 300>] [--table <table>]';
function args() {
  try {
    return parseArgs({
      options: {
        stage: { type: 'string' },
        region: { type: 'string' },
        table: { type: 'string' },
        'retry-after': { type: 'string', default: '300' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return process.exit(2);
  }
}
const { positionals, values } = args();
const [command] = positionals;
const retryAfterSeconds = Number(values['retry-after']);
if (
  positionals.length !== 1 ||
  (command !== 'on' && command !== 'off' && command !== 'status') ||
  !values.stage ||
  !/^[a-zA-Z0-9-]+$/.test(values.stage) ||
  (values.table !== undefined && !/^[a-zA-Z0-9_.-]+$/.test(values.table)) ||
  !Number.isSafeInteger(retryAfterSeconds) ||
  retryAfterSeconds < 1
) {
  console.error(usage);
  process.exit(2);
}
process.env.TABLE_NAME = values.table ?? stageTable(values.stage);
if (values.region) process.env.AWS_REGION = values.region;

const { table } = await import('#shared/db/client.ts');
const { putItem } = await import('#shared/db/documents.ts');
const { maintenanceSwitchKey } = await import('#shared/http/maintenance-mode.ts');
const { readItem } = await import('#shared/db/reads.ts');

if (command !== 'status') {
  const item = { ...maintenanceSwitchKey(), on: command === 'on', retryAfterSeconds, changedAt: new Date().toISOString() };
  await putItem({ TableName: table(), Item: item });
}
const current = await readItem(maintenanceSwitchKey());
const state = current?.on
  ? `ON since ${current.changedAt}: every route answers 503 SERVER_IS_DOWN with Retry-After ${current.retryAfterSeconds}`
  : 'OFF: the service answers as usual';
console.log(`Maintenance of ${table()} is ${state}.`);
if (command !== 'status') {
  console.log('Running functions see it within their MAINTENANCE_CACHE_SECONDS (15 s unless set when packaging).');
}
