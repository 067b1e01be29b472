/**
 * `npm run provision-bridge -- --serial <serial> --stage <stage> [--out <dir>] [--ca <file>] [--region <region>]`:
 * makes a control unit's edge bridge known to AWS IoT Core, with the caller's AWS credentials. It creates the
 * thing `cu-<serial>` (attribute `serial`, which the bridge policy's topics are built from), an active key
 * pair and certificate, attaches the stage's bridge policy (`cash-register-<stage>-bridge`, infra/iot.yml) and
 * the certificate to the thing, and writes into `<out>` (default `./bridge-<serial>`):
 *   cu-<serial>.cert.pem, cu-<serial>.private.key (mode 0600), AmazonRootCA1.pem, bridge.json
 * where bridge.json is the bridge's config (`npm run edge -- --config <out>/bridge.json`). Last it writes the
 * unit's provisioning record (`CU#<serial>` / `#BRIDGE`) into the stage's table (`cash-register-<stage>-2`, scripts/stage.ts): until then a kd to the
 * unit answers 503 REQUIRES_SETUP.
 *
 * The Amazon root CA is never downloaded: `--ca <file>`, else Debian's copy (package ca-certificates), else the
 * operator puts https://www.amazontrust.com/repository/AmazonRootCA1.pem at the path bridge.json names.
 *
 * Re-running is safe. A thing that has a certificate already gets no second one (the private key exists only in
 * the folder the first run wrote): the run completes what an interrupted run left undone (the policy on the
 * thing's certificates, the provisioning record) and changes nothing else. To replace a unit's credentials,
 * detach and revoke its certificate first (docs/operations.md), then run again.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeEndpointCommand,
  IoTClient,
  ListThingPrincipalsCommand,
} from '@aws-sdk/client-iot';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { putItem } from '#shared/db/documents.ts';
import { type BridgeRecord, thingName, bridgeKeys } from '#shared/kd/protocol.ts';
import { stageTable } from './stage.ts';

/** Debian's copy of the Amazon root CA that signs IoT Core's ATS endpoints (package ca-certificates). */
export const DEBIAN_AMAZON_ROOT_CA = '/usr/share/ca-certificates/mozilla/Amazon_Root_CA_1.crt';
export const AMAZON_ROOT_CA_URL = 'https://www.amazontrust.com/repository/AmazonRootCA1.pem';

/** A serial usable as a thing name and as one MQTT topic level (no `/`, `+`, `#`). */
export const SERIAL_PATTERN = /^[A-Za-z0-9_-]{1,20}$/;

export interface ProvisionOptions {
  serial: string;
  stage: string;
  out: string;
  /** The root CA file to copy; undefined: Debian's, when installed. */
  ca?: string;
  iot: IoTClient;
  now: number;
  /** Where Debian keeps the root CA (tests point it elsewhere). */
  debianCa?: string;
}

export interface ProvisionResult {
  /** False when the thing had a certificate already: no key or certificate was made. */
  created: boolean;
  /** Undefined when `out` holds no key of the thing (a re-run into another folder): no config is written there. */
  configPath: string | undefined;
  /** The CA's path; false when it is not there yet and the operator must put it there. */
  caPresent: boolean;
  recordWritten: boolean;
}

export const bridgePolicyName = (stage: string) => `cash-register-${stage}-bridge`;

export async function provisionBridge(options: ProvisionOptions): Promise<ProvisionResult> {
  const { serial, stage, iot } = options;
  const thing = thingName(serial);
  const out = resolve(options.out);
  mkdirSync(out, { recursive: true, mode: 0o700 });

  // Same name and attributes: CreateThing answers the existing thing.
  await iot.send(new CreateThingCommand({ thingName: thing, attributePayload: { attributes: { serial } } }));
  const { principals = [] } = await iot.send(new ListThingPrincipalsCommand({ thingName: thing }));
  const policyName = bridgePolicyName(stage);
  let created = false;
  if (principals.length === 0) {
    const certificate = await iot.send(new CreateKeysAndCertificateCommand({ setAsActive: true }));
    const { certificateArn, certificatePem, keyPair } = certificate;
    if (!certificateArn || !certificatePem || !keyPair?.PrivateKey) throw new Error('IoT returned no certificate or key');
    // Written before anything refers to the certificate: the key exists nowhere else.
    writeFileSync(join(out, `${thing}.cert.pem`), certificatePem, { mode: 0o644 });
    const keyPath = join(out, `${thing}.private.key`);
    writeFileSync(keyPath, keyPair.PrivateKey, { mode: 0o600 });
    chmodSync(keyPath, 0o600); // a file left there before keeps its mode through writeFileSync
    principals.push(certificateArn);
    created = true;
  }
  for (const principal of principals) {
    // Attaching an attached policy is a no-op in IoT.
    await iot.send(new AttachPolicyCommand({ policyName, target: principal }));
    await iot.send(new AttachThingPrincipalCommand({ thingName: thing, principal }));
  }

  const { endpointAddress } = await iot.send(new DescribeEndpointCommand({ endpointType: 'iot:Data-ATS' }));
  if (!endpointAddress) throw new Error('IoT returned no iot:Data-ATS endpoint');
  const caPath = join(out, 'AmazonRootCA1.pem');
  const caSource = options.ca ?? options.debianCa ?? DEBIAN_AMAZON_ROOT_CA;
  if (existsSync(caSource)) copyFileSync(caSource, caPath);
  else if (options.ca !== undefined) throw new Error(`No CA file at ${options.ca}`);
  const config = {
    serial,
    broker: `mqtts://${endpointAddress}:8883`,
    cert: join(out, `${thing}.cert.pem`),
    key: join(out, `${thing}.private.key`),
    ca: caPath,
  };
  const configPath = existsSync(config.key) ? join(out, 'bridge.json') : undefined;
  if (configPath) writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o644 });

  const record: BridgeRecord = { serial, thingName: thing, provisioned: options.now };
  const recordWritten = await putIfAbsent(stageTable(stage), { ...bridgeKeys.bridge(serial), ...record });
  return { created, configPath, caPresent: existsSync(caPath), recordWritten };
}

/** The first run's record stays: `provisioned` says when the unit got its certificate. */
async function putIfAbsent(tableName: string, item: Record<string, unknown>): Promise<boolean> {
  try {
    await putItem({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' });
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serial: { type: 'string' },
      stage: { type: 'string' },
      out: { type: 'string' },
      ca: { type: 'string' },
      region: { type: 'string' },
    },
  });
  const { serial, stage } = values;
  if (!serial || !SERIAL_PATTERN.test(serial) || !stage || !/^[a-zA-Z0-9-]+$/.test(stage)) {
    console.error(
      'usage: npm run provision-bridge -- --serial <1-20 of A-Z a-z 0-9 _ -> --stage <stage> [--out <dir>] [--ca <file>] [--region <region>]',
    );
    process.exit(2);
  }
  if (values.region) process.env.AWS_REGION = values.region;
  process.env.TABLE_NAME = stageTable(stage);
  const result = await provisionBridge({
    serial,
    stage,
    out: values.out ?? `bridge-${serial}`,
    ...(values.ca ? { ca: values.ca } : {}),
    iot: new IoTClient({}),
    now: Date.now(),
  });
  console.log(
    result.created
      ? `Provisioned thing ${thingName(serial)} with a new certificate.`
      : `Thing ${thingName(serial)} has a certificate already: no new one was made (the key is in the folder of the first run).`,
  );
  console.log(
    result.configPath
      ? `Bridge config: ${result.configPath} (npm run edge -- --config ${result.configPath})`
      : 'This folder holds no key of the thing: no bridge config was written here.',
  );
  if (!result.caPresent) console.log(`Put the Amazon root CA (${AMAZON_ROOT_CA_URL}) at the path bridge.json names as "ca".`);
  console.log(
    result.recordWritten
      ? `Wrote the provisioning record of ${serial} into ${stageTable(stage)}.`
      : `The provisioning record of ${serial} exists already in ${stageTable(stage)}.`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
