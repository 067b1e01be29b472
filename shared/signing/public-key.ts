import { createHash, createPublicKey } from 'node:crypto';
import type { ActivationSigner } from './signer.ts';

/**
 * The public key's file name: a digest of the key itself, so a rotated key gets a new name and a
 * name a register already holds keeps meaning the key it was given.
 */
export function publicKeyFileNameFor(spkiDer: Uint8Array): string {
  return `activation-key-${createHash('sha256').update(spkiDer).digest('hex').slice(0, 16)}.pem`;
}

/** SubjectPublicKeyInfo DER -> PEM, refusing any key but EC P-256 (activationInfoVersion 2). */
export function spkiPem(spkiDer: Uint8Array, source: string): string {
  const key = createPublicKey({ key: Buffer.from(spkiDer), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error(`${source} is not an EC P-256 key`);
  }
  return key.export({ format: 'pem', type: 'spki' }).toString();
}

/**
 * An ActivationSigner over a key backend: the public key is fetched once and its PEM and file
 * name derived from it. A failed fetch is not kept, so the next call tries again.
 */
export function signerFrom(
  source: string,
  loadSpkiDer: () => Promise<Uint8Array>,
  sign: (message: Uint8Array) => Promise<Buffer>,
): ActivationSigner {
  let publicKey: Promise<{ pem: string; fileName: string }> | undefined;
  const load = () => {
    publicKey ??= loadSpkiDer()
      .then((der) => ({ pem: spkiPem(der, source), fileName: publicKeyFileNameFor(der) }))
      .catch((error: unknown) => {
        publicKey = undefined;
        throw error;
      });
    return publicKey;
  };
  return {
    publicKeyFileName: async () => (await load()).fileName,
    publicKeyPem: async () => (await load()).pem,
    sign,
  };
}
