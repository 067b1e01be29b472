/**
 * `npm run provision-bridge`: IoT Core is mocked (aws-sdk-client-mock), the provisioning record goes into
 * DynamoDB Local's table of stage `local`, the files into a temporary folder.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeEndpointCommand,
  IoTClient,
  ListThingPrincipalsCommand,
} from '@aws-sdk/client-iot';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { readItem } from '#shared/db/reads.ts';
import { root } from '../../scripts/build.ts';
import { provisionBridge } from '../../scripts/provision-bridge.ts';
import { bridgeKeys } from '#shared/kd/protocol.ts';

const iot = mockClient(IoTClient);
afterEach(() => iot.reset());

const ENDPOINT = 'a1b2c3d4e5f6g7-ats.iot.eu-north-1.amazonaws.com';
const CERT_ARN = 'arn:aws:iot:eu-north-1:123456789012:cert/0123abcd';
const serialOf = (n: number) => `PBTEST${Date.now().toString(36).toUpperCase()}${n}`;

/** IoT as it answers for a thing with these principals attached already. */
function iotWith(principals: string[]) {
  iot.on(CreateThingCommand).resolves({ thingName: 'x' });
  iot.on(ListThingPrincipalsCommand).resolves({ principals });
  iot.on(CreateKeysAndCertificateCommand).resolves({
    certificateArn: CERT_ARN,
    certificateId: '0123abcd',
    certificatePem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    keyPair: { PublicKey: 'public', PrivateKey: '-----BEGIN RSA PRIVATE KEY-----\nsecret\n-----END RSA PRIVATE KEY-----\n' },
  });
  iot.on(AttachPolicyCommand).resolves({});
  iot.on(AttachThingPrincipalCommand).resolves({});
  iot.on(DescribeEndpointCommand).resolves({ endpointAddress: ENDPOINT });
}

function caFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ca-')), 'root.pem');
  writeFileSync(path, '-----BEGIN CERTIFICATE-----\nAmazonRoot\n-----END CERTIFICATE-----\n');
  return path;
}

describe('npm run provision-bridge', () => {
  it('creates thing cu-<serial> (attribute serial), an active certificate with the stage policy, the files and the record', async () => {
    // Prepare
    iotWith([]);
    const serial = serialOf(1);
    const out = mkdtempSync(join(tmpdir(), 'bridge-'));
    const ca = caFile();

    // Act
    const result = await provisionBridge({ serial, stage: 'local', out, ca, iot: new IoTClient({}), now: 1_700_000_000_000 });

    // Assess
    expect(iot.commandCalls(CreateThingCommand).map((call) => call.args[0].input)).toEqual([
      { thingName: `cu-${serial}`, attributePayload: { attributes: { serial } } },
    ]);
    expect(iot.commandCalls(CreateKeysAndCertificateCommand).map((call) => call.args[0].input)).toEqual([{ setAsActive: true }]);
    expect(iot.commandCalls(AttachPolicyCommand).map((call) => call.args[0].input)).toEqual([
      { policyName: 'cash-register-local-bridge', target: CERT_ARN },
    ]);
    expect(iot.commandCalls(AttachThingPrincipalCommand).map((call) => call.args[0].input)).toEqual([
      { thingName: `cu-${serial}`, principal: CERT_ARN },
    ]);
    expect(iot.commandCalls(DescribeEndpointCommand).map((call) => call.args[0].input)).toEqual([
      { endpointType: 'iot:Data-ATS' },
    ]);
    expect(result).toEqual({ created: true, configPath: join(out, 'bridge.json'), caPresent: true, recordWritten: true });
    expect(JSON.parse(readFileSync(join(out, 'bridge.json'), 'utf8'))).toEqual({
      serial,
      broker: `mqtts://${ENDPOINT}:8883`,
      cert: join(out, `cu-${serial}.cert.pem`),
      key: join(out, `cu-${serial}.private.key`),
      ca: join(out, 'AmazonRootCA1.pem'),
    });
    expect(readFileSync(join(out, `cu-${serial}.private.key`), 'utf8')).toContain('secret');
    expect(statSync(join(out, `cu-${serial}.private.key`)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(out, 'AmazonRootCA1.pem'), 'utf8')).toContain('AmazonRoot');
    expect(await readItem(bridgeKeys.bridge(serial))).toEqual({
      ...bridgeKeys.bridge(serial),
      serial,
      thingName: `cu-${serial}`,
      provisioned: 1_700_000_000_000,
    });
  });

  it('run again for a thing with a certificate: no new certificate, the policy made sure of, the first record kept', async () => {
    // Prepare
    iotWith([]);
    const serial = serialOf(2);
    const out = mkdtempSync(join(tmpdir(), 'bridge-'));
    const ca = caFile();
    await provisionBridge({ serial, stage: 'local', out, ca, iot: new IoTClient({}), now: 1_700_000_000_000 });
    const firstKey = readFileSync(join(out, `cu-${serial}.private.key`), 'utf8');
    iot.reset();
    iotWith([CERT_ARN]);

    // Act
    const again = await provisionBridge({ serial, stage: 'local', out, ca, iot: new IoTClient({}), now: 1_800_000_000_000 });
    const elsewhere = await provisionBridge({
      serial,
      stage: 'local',
      out: mkdtempSync(join(tmpdir(), 'bridge-')),
      ca,
      iot: new IoTClient({}),
      now: 1_800_000_000_000,
    });

    // Assess
    expect(iot.commandCalls(CreateKeysAndCertificateCommand)).toHaveLength(0);
    expect(iot.commandCalls(AttachPolicyCommand).map((call) => call.args[0].input.target)).toEqual([CERT_ARN, CERT_ARN]);
    expect(again).toEqual({ created: false, configPath: join(out, 'bridge.json'), caPresent: true, recordWritten: false });
    expect(elsewhere).toMatchObject({ created: false, configPath: undefined, recordWritten: false });
    expect(readFileSync(join(out, `cu-${serial}.private.key`), 'utf8')).toBe(firstKey);
    expect((await readItem(bridgeKeys.bridge(serial)))?.provisioned).toBe(1_700_000_000_000);
  });

  it('without --ca and no CA installed, writes the config naming where the CA goes and says it is missing', async () => {
    // Prepare
    iotWith([]);
    const serial = serialOf(3);
    const out = mkdtempSync(join(tmpdir(), 'bridge-'));

    // Act
    const result = await provisionBridge({
      serial,
      stage: 'local',
      out,
      debianCa: join(out, 'not-installed.crt'),
      iot: new IoTClient({}),
      now: 1_700_000_000_000,
    });

    // Assess
    expect(result).toMatchObject({ created: true, caPresent: false });
    expect(JSON.parse(readFileSync(join(out, 'bridge.json'), 'utf8')).ca).toBe(join(out, 'AmazonRootCA1.pem'));
  });

  it('refuses a serial that cannot be a thing name and topic level, or a missing stage (exit 2), before calling AWS', async () => {
    // Act
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ['scripts/provision-bridge.ts', ...args], { cwd: root }).then(
        () => 0,
        (error: { code: number }) => error.code,
      );
    const codes = await Promise.all([
      run(['--serial', 'CU/1', '--stage', 'local']),
      run(['--serial', 'CU+1', '--stage', 'local']),
      run(['--serial', 'A'.repeat(21), '--stage', 'local']),
      run(['--serial', 'CU1']),
    ]);

    // Assess
    expect(codes).toEqual([2, 2, 2, 2]);
  });
});
