/**
 * `npm run create-admin -- --stage <stage> [--region <region>]`: creates the first ROLE_HYPER_ADMIN
 * of a deployed stage (docs/conventions.md §8) in the table `cash-register-<stage>-2` (scripts/stage.ts), with the caller's AWS
 * credentials. The name and password come from ADMIN_USERNAME and ADMIN_PASSWORD (never from the
 * command line, which shell history and process lists keep). An existing user is left as it is.
 */
import { parseArgs } from 'node:util';
import { stageTable } from './stage.ts';

const { values } = parseArgs({ options: { stage: { type: 'string' }, region: { type: 'string' } } });
const username = process.env.ADMIN_USERNAME ?? '';
const password = process.env.ADMIN_PASSWORD ?? '';
if (!values.stage || !/^[a-zA-Z0-9-]+$/.test(values.stage) || !username || password.length < 12) {
  console.error(
    'usage: ADMIN_USERNAME=<name> ADMIN_PASSWORD=<at least 12 characters> npm run create-admin -- --stage <stage> [--region <region>]',
  );
  process.exit(2);
}
process.env.TABLE_NAME = stageTable(values.stage);
if (values.region) process.env.AWS_REGION = values.region;

const { createUserIfAbsent } = await import('#shared/auth/users.ts');
const created = await createUserIfAbsent({
  username,
  password,
  email: process.env.ADMIN_EMAIL || 'admin@localhost.invalid',
  role: 'HYPER_ADMIN',
  softwareVendor: null,
  sellers: [],
});
console.log(
  created
    ? `Created hyper admin ${username} in ${process.env.TABLE_NAME}.`
    : `A user named ${username} exists already in ${process.env.TABLE_NAME}; nothing changed.`,
);
