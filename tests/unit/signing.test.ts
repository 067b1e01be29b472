/**
 * Signed activation codes (docs/conventions.md §11) as a register sees them: a code signed by the local
 * signer or by KMS verifies offline against the served PEM, and any change to it does not.
 */
import { spawnSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { responseExamples } from '#schemas/examples.ts';
import { responseSchemas } from '#schemas/index.ts';
import { activationSigning } from '#shared/config.ts';
import {
  type ActivationDescriptor,
  DESCRIPTOR_FIELDS_V2,
  signActivationCode,
  type SignedActivationCode,
  verifyActivationCode,
} from '#shared/signing/activation-code.ts';
import { kmsSigner } from '#shared/signing/kms-signer.ts';
import { ensureLocalSigningKey, localSigner } from '#shared/signing/local-signer.ts';
import { activationSigner, publicKeyPemFor } from '#shared/signing/signer.ts';

const root = join(import.meta.dirname, '../..');
const descriptor: ActivationDescriptor = {
  activationId: 42,
  status: 'ACTIVE',
  issued: 1_767_225_600_000,
  country: 'SE',
  corporateId: '5560360793',
  sellerName: 'Kafé Åkersberga',
  cashRegisterName: 'Kassa1',
  applicationPackage: 'se.example.pos',
  productionNumber: 'PN-0001',
  validFrom: 1_767_225_600_000,
  validTo: 1_798_761_600_000,
  features: ['CASH_REGISTER', 'RESTAURANT'],
  controlUnitLocation: 'REMOTE',
  controlUnitSerial: null,
};

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'signing-test-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
const spkiDer = (key: KeyObject) => createPublicKey(key).export({ format: 'der', type: 'spki' });
const base64Flip = (text: string) => {
  const bytes = Buffer.from(text, 'base64');
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
  return bytes.toString('base64');
};

let keyFile: string;
beforeAll(() => {
  keyFile = join(tempDir(), 'keys', 'activation-signing-key.pem');
  ensureLocalSigningKey(keyFile);
  // Before anything reads the configuration: this file's process signs locally.
  process.env.ACTIVATION_SIGNER = 'local';
  process.env.ACTIVATION_KEY_FILE = keyFile;
});

describe('activation codes signed by the local signer', () => {
  it('verify against the signer’s PEM and give back the descriptor', async () => {
    // Prepare
    const signer = localSigner(keyFile);

    // Act
    const code = await signActivationCode(descriptor, signer);
    const result = verifyActivationCode(code, await signer.publicKeyPem());

    // Assess
    expect(code.activationInfoVersion).toBe(2);
    expect(code.publicKeyFileName).toMatch(/^activation-key-[0-9a-f]{16}\.pem$/);
    expect(Object.keys(JSON.parse(code.activationDescriptorInfo))).toEqual([...DESCRIPTOR_FIELDS_V2]);
    expect(result).toEqual({ valid: true, descriptor });
  });

  it('serialize equal descriptors to the same text whatever their key order', async () => {
    // Prepare
    const signer = localSigner(keyFile);
    const reordered = Object.fromEntries(Object.entries(descriptor).reverse()) as unknown as ActivationDescriptor;

    // Act
    const [first, second] = [await signActivationCode(descriptor, signer), await signActivationCode(reordered, signer)];

    // Assess
    expect(second.activationDescriptorInfo).toBe(first.activationDescriptorInfo);
  });

  it('do not verify once the descriptor is changed', async () => {
    // Prepare
    const signer = localSigner(keyFile);
    const code = await signActivationCode(descriptor, signer);
    const tampered = {
      ...code,
      activationDescriptorInfo: code.activationDescriptorInfo.replace('1798761600000', '1898761600000'),
    };

    // Act
    const result = verifyActivationCode(tampered, await signer.publicKeyPem());

    // Assess
    expect(tampered.activationDescriptorInfo).not.toBe(code.activationDescriptorInfo);
    expect(result).toEqual({ valid: false, reason: 'signature does not match activationDescriptorInfo' });
  });

  it('do not verify once the signature is changed, or is not base64', async () => {
    // Prepare
    const signer = localSigner(keyFile);
    const code = await signActivationCode(descriptor, signer);
    const pem = await signer.publicKeyPem();

    // Act
    const flipped = verifyActivationCode({ ...code, signature: base64Flip(code.signature) }, pem);
    const notBase64 = verifyActivationCode({ ...code, signature: `${code.signature.slice(0, -4)}!!!!` }, pem);
    const empty = verifyActivationCode({ ...code, signature: '' }, pem);

    // Assess
    expect(flipped).toEqual({ valid: false, reason: 'signature does not match activationDescriptorInfo' });
    expect(notBase64).toEqual({ valid: false, reason: 'signature is not base64' });
    expect(empty).toEqual({ valid: false, reason: 'signature is not base64' });
  });

  it('with an activationInfoVersion the verifier does not know are invalid', async () => {
    // Prepare
    const signer = localSigner(keyFile);
    const code = await signActivationCode(descriptor, signer);

    // Act
    const result = verifyActivationCode({ ...code, activationInfoVersion: 3 }, await signer.publicKeyPem());

    // Assess
    expect(result).toEqual({ valid: false, reason: 'unknown activationInfoVersion 3' });
  });

  it('do not verify against another key, and a key that is not PEM is invalid rather than an error', async () => {
    // Prepare
    const code = await signActivationCode(descriptor, localSigner(keyFile));
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'pem', type: 'spki' }).toString();

    // Act
    const results = [other, rsa, 'not a key'].map((pem) => verifyActivationCode(code, pem));

    // Assess
    expect(results).toEqual([
      { valid: false, reason: 'signature does not match activationDescriptorInfo' },
      { valid: false, reason: 'public key is not an EC P-256 key' },
      { valid: false, reason: 'public key is not a PEM public key' },
    ]);
  });

  it('whose signed text is not JSON are invalid, and malformed codes are invalid rather than an error', async () => {
    // Prepare
    const signer = localSigner(keyFile);
    const text = 'activationId=42';
    const signature = (await signer.sign(Buffer.from(text))).toString('base64');
    const pem = await signer.publicKeyPem();

    // Act
    const notJson = verifyActivationCode({ activationInfoVersion: 2, activationDescriptorInfo: text, signature }, pem);
    const notObject = verifyActivationCode(null as unknown as SignedActivationCode, pem);
    const noText = verifyActivationCode({ activationInfoVersion: 2, signature } as SignedActivationCode, pem);

    // Assess
    expect(notJson).toEqual({ valid: false, reason: 'activationDescriptorInfo is not JSON' });
    expect(notObject).toEqual({ valid: false, reason: 'code is not an object' });
    expect(noText).toEqual({ valid: false, reason: 'activationDescriptorInfo is not a string' });
  });
});

describe('the local signing key', () => {
  it('is created readable by its owner only, and kept on the next start', () => {
    // Prepare
    const path = join(tempDir(), 'nested', 'dir', 'key.pem');

    // Act
    ensureLocalSigningKey(path);
    const first = readFileSync(path, 'utf8');
    ensureLocalSigningKey(path);

    // Assess
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(first).toContain('-----BEGIN PRIVATE KEY-----');
    expect(readFileSync(path, 'utf8')).toBe(first);
  });

  it('names its public key file after the key: stable for one key, different for another', async () => {
    // Prepare
    const otherFile = join(tempDir(), 'other.pem');
    ensureLocalSigningKey(otherFile);
    const expected = createHash('sha256')
      .update(createPublicKey(readFileSync(keyFile)).export({ format: 'der', type: 'spki' }))
      .digest('hex');

    // Act
    const names = await Promise.all(
      [localSigner(keyFile), localSigner(keyFile), localSigner(otherFile)].map((s) => s.publicKeyFileName()),
    );

    // Assess
    expect(names[0]).toBe(`activation-key-${expected.slice(0, 16)}.pem`);
    expect(names[1]).toBe(names[0]);
    expect(names[2]).not.toBe(names[0]);
  });

  it('that is not EC P-256 is refused naming the file', async () => {
    // Prepare
    const path = join(tempDir(), 'rsa.pem');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }));

    // Act
    const signing = localSigner(path).sign(Buffer.from('x'));

    // Assess
    await expect(signing).rejects.toThrow(`Activation key file ${path} is not an EC P-256 private key`);
  });
});

describe('the configured signer', () => {
  it('is the local signer of ACTIVATION_KEY_FILE, one per process', async () => {
    // Act
    const signer = activationSigner();

    // Assess
    expect(activationSigner()).toBe(signer);
    expect(await signer.publicKeyFileName()).toBe(await localSigner(keyFile).publicKeyFileName());
  });

  it('serves its PEM under its own file name only', async () => {
    // Prepare
    const name = await activationSigner().publicKeyFileName();

    // Act
    const [current, unknown] = [await publicKeyPemFor(name), await publicKeyPemFor('activation-key-0000000000000000.pem')];

    // Assess
    expect(current).toBe(await activationSigner().publicKeyPem());
    expect(current).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(unknown).toBeUndefined();
  });

  it('fails naming the variable when misconfigured', () => {
    const none = { activationSigner: undefined, activationKeyFile: undefined, activationKmsKeyId: undefined };
    expect(() => activationSigning(none)).toThrow('ACTIVATION_SIGNER must be local or kms, not unset');
    expect(() => activationSigning({ ...none, activationSigner: 'hsm' })).toThrow(
      "ACTIVATION_SIGNER must be local or kms, not 'hsm'",
    );
    expect(() => activationSigning({ ...none, activationSigner: 'local' })).toThrow('ACTIVATION_KEY_FILE is required');
    expect(() => activationSigning({ ...none, activationSigner: 'kms' })).toThrow('ACTIVATION_KMS_KEY_ID is required');
    expect(activationSigning({ ...none, activationSigner: 'kms', activationKmsKeyId: 'k' })).toEqual({
      signer: 'kms',
      kmsKeyId: 'k',
    });
  });
});

describe('activation codes signed by KMS', () => {
  let mock: ReturnType<typeof mockClient> | undefined;
  afterEach(() => {
    mock?.restore();
    mock = undefined;
  });

  /** KMS as it answers: the SPKI DER of the key, and DER ECDSA signatures of the RAW message. */
  function mockKms(key: KeyObject) {
    const kms = mockClient(KMSClient);
    kms
      .on(GetPublicKeyCommand)
      .resolves({ KeyId: 'arn:aws:kms:eu-north-1:1:key/k', KeySpec: 'ECC_NIST_P256', PublicKey: spkiDer(key) });
    kms
      .on(SignCommand)
      .callsFake((input: { Message: Uint8Array }) => ({ Signature: sign('sha256', input.Message, { key, dsaEncoding: 'der' }) }));
    return kms;
  }

  it('verify against the PEM the KMS signer reports, signed once with RAW ECDSA_SHA_256', async () => {
    // Prepare
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    mock = mockKms(privateKey);
    const signer = kmsSigner('alias/cash-register-test-activation-signing');

    // Act
    const code = await signActivationCode(descriptor, signer);
    const pem = await signer.publicKeyPem();
    const result = verifyActivationCode(code, pem);

    // Assess
    expect(result).toEqual({ valid: true, descriptor });
    expect(pem).toBe(createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }));
    expect(code.publicKeyFileName).toBe(
      `activation-key-${createHash('sha256').update(spkiDer(privateKey)).digest('hex').slice(0, 16)}.pem`,
    );
    const signCalls = mock.commandCalls(SignCommand);
    expect(signCalls).toHaveLength(1);
    expect(signCalls[0]?.args[0].input).toEqual({
      KeyId: 'alias/cash-register-test-activation-signing',
      Message: Buffer.from(code.activationDescriptorInfo, 'utf8'),
      MessageType: 'RAW',
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
    // The public key is fetched once per cold start.
    expect(mock.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
  });

  it('try fetching the public key again after KMS failed once', async () => {
    // Prepare
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    mock = mockKms(privateKey);
    mock
      .on(GetPublicKeyCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ PublicKey: spkiDer(privateKey) });
    const signer = kmsSigner('k');

    // Act
    const first = signer.publicKeyPem();

    // Assess
    await expect(first).rejects.toThrow('throttled');
    expect(await signer.publicKeyPem()).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
  });

  it('refuse a KMS key that is not EC P-256', async () => {
    // Prepare
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    mock = mockClient(KMSClient);
    mock.on(GetPublicKeyCommand).resolves({ PublicKey: spkiDer(privateKey) });

    // Act
    const reading = kmsSigner('rsa-key').publicKeyFileName();

    // Assess
    await expect(reading).rejects.toThrow('KMS key rsa-key is not an EC P-256 key');
  });
});

describe('npm run verify-activation', () => {
  /** Runs the script as an operator would, with the project's Node. */
  const run = (...args: string[]) => {
    const result = spawnSync(join(root, 'node_modules/.bin/node'), ['scripts/verify-activation.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  /** A code file with the public key file it names beside it, as a register stores them. */
  async function codeOnDisk(change: (code: SignedActivationCode) => SignedActivationCode = (code) => code) {
    const signer = localSigner(keyFile);
    const code = await signActivationCode(descriptor, signer);
    const dir = tempDir();
    writeFileSync(join(dir, code.publicKeyFileName), await signer.publicKeyPem());
    const file = join(dir, 'code.json');
    writeFileSync(file, JSON.stringify(change(code)));
    return file;
  }

  it('prints valid and the descriptor, and exits 0, for a valid code', async () => {
    // Prepare
    const file = await codeOnDisk();

    // Act
    const { status, stdout } = run(file);

    // Assess
    expect(status).toBe(0);
    const [first, ...rest] = stdout.split('\n');
    expect(first).toBe('valid');
    expect(JSON.parse(rest.join('\n'))).toEqual(descriptor);
  });

  it('prints invalid with the reason, and exits 1, for a tampered code', async () => {
    // Prepare
    const file = await codeOnDisk((code) => ({
      ...code,
      activationDescriptorInfo: code.activationDescriptorInfo.replace('42', '43'),
    }));

    // Act
    const { status, stderr } = run(file);

    // Assess
    expect(status).toBe(1);
    expect(stderr.trim()).toBe('invalid: signature does not match activationDescriptorInfo');
  });

  it('takes the key from --key, and exits 2 on a usage error', async () => {
    // Prepare
    // A v15 code: no publicKeyFileName.
    const file = await codeOnDisk(({ activationInfoVersion, activationDescriptorInfo, signature }) => ({
      activationInfoVersion,
      activationDescriptorInfo,
      signature,
    }));
    const keyPem = join(tempDir(), 'key.pem');
    writeFileSync(keyPem, await localSigner(keyFile).publicKeyPem());

    // Act
    const withKey = run(file, '--key', keyPem);
    const withoutKey = run(file);
    const noArguments = run();

    // Assess
    expect(withKey.status).toBe(0);
    expect(withoutKey.status).toBe(2);
    expect(withoutKey.stderr).toContain('give the key with --key');
    expect(noArguments.status).toBe(2);
    expect(noArguments.stderr).toContain('usage: npm run verify-activation');
  });

  it('reads a relative path from the folder it was typed in: under npm run (INIT_CWD) and as the package bin', async () => {
    // Prepare: the code and its key in a folder of their own, named relatively from there.
    const dir = dirname(await codeOnDisk());
    const { INIT_CWD: _ignored, ...environment } = process.env;
    const bin = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin as Record<string, string>;

    // Act: `npm run` starts the script in the package's root and says where it was typed in INIT_CWD.
    const npmRun = spawnSync(join(root, 'node_modules/.bin/node'), ['scripts/verify-activation.ts', 'code.json'], {
      cwd: root,
      env: { ...environment, INIT_CWD: dir },
      encoding: 'utf8',
    });
    // The bin runs by its shebang with the Node npx puts first on PATH, in the folder it was typed in.
    const asBin = spawnSync(join(root, bin['verify-activation'] ?? 'no bin'), ['code.json'], {
      cwd: dir,
      env: { ...environment, PATH: `${join(root, 'node_modules/.bin')}:${environment.PATH ?? ''}` },
      encoding: 'utf8',
    });

    // Assess
    expect([npmRun.status, npmRun.stdout.split('\n')[0]]).toEqual([0, 'valid']);
    expect([asBin.status, asBin.stdout.split('\n')[0]]).toEqual([0, 'valid']);
  });
});

describe('the documented activation code', () => {
  it("names the descriptor's fields in the order version 2 signs them, in its schema and its example", () => {
    // Arrange
    const field = responseSchemas.activationCode.properties.activationDescriptorInfo;
    const example = responseExamples.activationCode?.value as SignedActivationCode | undefined;

    // Act
    const documented = Object.keys(field.contentSchema.properties);
    const listed = [...field.description.matchAll(/`(\w+)`/g)].map(([, name]) => name);
    const exampled = Object.keys(JSON.parse(example?.activationDescriptorInfo ?? '{}') as object);

    // Assess
    expect(documented).toEqual(DESCRIPTOR_FIELDS_V2);
    expect(listed).toEqual(DESCRIPTOR_FIELDS_V2);
    expect(exampled).toEqual(DESCRIPTOR_FIELDS_V2);
  });
});
