/**
 * `npm run package -- --stage <stage> [--region <region>]`: builds the bundles (scripts/build.ts) and
 * runs `sls package`, which writes the CloudFormation template and one zip per function to `.serverless/`.
 * Stage from `--stage` or STAGE, with no default: a package names the table, keys and alarms of one stage, so
 * the operator says which (exit 2 without). Region from `--region` (default eu-north-1).
 * Needs no AWS credentials and no network: nothing is deployed.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { buildAll, functionNames, root } from './build.ts';

export const DEFAULT_REGION = 'eu-north-1';

/** Where `sls package` writes (its default). */
export const artifactsDir = join(root, '.serverless');

/** The deployment zip of one function, as `package.individually` names it. */
export const functionZip = (name: string) => join(artifactsDir, `${name}.zip`);

const templatePath = join(artifactsDir, 'cloudformation-template-update-stack.json');

/**
 * The environment `sls package` runs in: no telemetry, no notifications (they would reach the network),
 * and never DYNAMODB_ENDPOINT: serverless.yml copies it into every function, and a deployed function must
 * talk to DynamoDB itself, not to the DynamoDB Local a shell or the test run may have pointed it at.
 */
function packagingEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off' };
  // The local stack's settings must never reach a deployed function.
  delete env.DYNAMODB_ENDPOINT;
  delete env.ACTIVATION_SIGNER;
  delete env.ACTIVATION_KEY_FILE;
  delete env.IMAGE_STORE;
  delete env.IMAGE_DIR;
  delete env.KD_PUBLISHER;
  delete env.MQTT_URL;
  delete env.DOCS_DIR;
  return env;
}

/** Builds the bundles and packages the service for `stage`; answers the path of the CloudFormation template. */
export async function packageService(stage: string, region: string = DEFAULT_REGION): Promise<string> {
  if (!/^[a-zA-Z0-9-]+$/.test(stage)) throw new Error(`Invalid stage "${stage}": letters, digits and dashes only.`);
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) throw new Error(`Invalid region "${region}".`);
  await buildAll();
  try {
    await promisify(execFile)(join(root, 'node_modules/.bin/sls'), ['package', '--stage', stage, '--region', region], {
      cwd: root,
      env: packagingEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`sls package failed for stage ${stage}:\n${stdout}${stderr}`, { cause: error });
  }
  if (!existsSync(templatePath)) throw new Error(`sls package wrote no template at ${templatePath}`);
  return templatePath;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { stage: { type: 'string' }, region: { type: 'string' } } });
  const stage = values.stage || process.env.STAGE;
  if (!stage) {
    console.error('usage: npm run package -- --stage <stage> [--region <region>] (or STAGE=<stage>; there is no default stage)');
    process.exit(2);
  }
  const region = values.region || DEFAULT_REGION;
  const started = performance.now();
  const template = await packageService(stage, region);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const show = (path: string) => relative(process.cwd(), path) || '.';
  console.log(`Packaged stage ${stage} (${region}) in ${seconds} s; nothing was deployed.`);
  console.log(`  Template: ${show(template)}`);
  for (const name of functionNames()) {
    const zip = functionZip(name);
    console.log(`  ${name}: ${show(zip)} (${(statSync(zip).size / 1024).toFixed(0)} KiB)`);
  }
}
