import { createHash } from 'node:crypto';
import type * as Kms from './kms-sdk.ts';
import { config } from '#shared/config.ts';
import { signerFrom } from './public-key.ts';
import type { ActivationSigner } from './signer.ts';

/** KMS signs a RAW message of at most 4096 bytes; a longer one is sent as its SHA-256 digest (same signature). */
const MAX_RAW_MESSAGE_BYTES = 4096;

let loaded: Promise<{ sdk: typeof Kms; client: Kms.KMSClient }> | undefined;

/**
 * The KMS SDK and client: one per process, loaded on first use. A lazy import (a chunk of its own in the
 * bundle) keeps the SDK out of the cold start of the routes that never sign.
 */
function kms() {
  loaded ??= import('./kms-sdk.ts').then((sdk) => ({ sdk, client: new sdk.KMSClient({ region: config().region }) }));
  return loaded;
}

/**
 * Signs with an asymmetric KMS key (ECC_NIST_P256, ECDSA_SHA_256). KMS answers ECDSA signatures in
 * DER already; its public key (SubjectPublicKeyInfo DER) is fetched once per cold start.
 */
export function kmsSigner(keyId: string): ActivationSigner {
  return signerFrom(
    `KMS key ${keyId}`,
    async () => {
      const { sdk, client } = await kms();
      const { PublicKey } = await client.send(new sdk.GetPublicKeyCommand({ KeyId: keyId }));
      if (!PublicKey) throw new Error(`KMS returned no public key for ${keyId}`);
      return PublicKey;
    },
    async (message) => {
      const raw = message.byteLength <= MAX_RAW_MESSAGE_BYTES;
      const { sdk, client } = await kms();
      const { Signature } = await client.send(
        new sdk.SignCommand({
          KeyId: keyId,
          Message: raw ? message : createHash('sha256').update(message).digest(),
          MessageType: raw ? 'RAW' : 'DIGEST',
          SigningAlgorithm: 'ECDSA_SHA_256',
        }),
      );
      if (!Signature) throw new Error(`KMS returned no signature for ${keyId}`);
      return Buffer.from(Signature);
    },
  );
}
