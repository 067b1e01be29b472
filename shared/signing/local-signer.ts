import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { dirname } from 'node:path';
import { signerFrom } from './public-key.ts';
import type { ActivationSigner } from './signer.ts';

/**
 * The local stage's stand-in for KMS: the same ECDSA P-256 / SHA-256 DER signatures, made with a
 * PKCS#8 PEM key file. The file is read at first use, not at import.
 */
export function localSigner(keyFile: string): ActivationSigner {
  let privateKey: KeyObject | undefined;
  const key = (): KeyObject => {
    if (privateKey) return privateKey;
    const loaded = createPrivateKey(readFileSync(keyFile));
    if (loaded.asymmetricKeyType !== 'ec' || loaded.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error(`Activation key file ${keyFile} is not an EC P-256 private key`);
    }
    privateKey = loaded;
    return loaded;
  };
  return signerFrom(
    `Activation key file ${keyFile}`,
    async () => createPublicKey(key()).export({ format: 'der', type: 'spki' }),
    async (message) => sign('sha256', message, { key: key(), dsaEncoding: 'der' }),
  );
}

/**
 * Creates a new EC P-256 key (PKCS#8 PEM, readable by the owner only) at `path` unless a file is
 * already there: registers keep verifying against the key they were given, so it is never replaced.
 */
export function ensureLocalSigningKey(path: string): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  // 'wx': two starts racing must not overwrite each other's key.
  try {
    writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
