import { createHash } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { config } from '#shared/config.ts';
import { signerFrom } from './public-key.ts';
import type { ActivationSigner } from './signer.ts';

/** KMS signs a RAW message of at most 4096 bytes; a longer one is sent as its SHA-256 digest (same signature). */
const MAX_RAW_MESSAGE_BYTES = 4096;

let client: KMSClient | undefined;

/** The KMS client: one per process, created on first use. */
function kms(): KMSClient {
  client ??= new KMSClient({ region: config().region });
  return client;
}

/**
 * Signs with an asymmetric KMS key (ECC_NIST_P256, ECDSA_SHA_256). KMS answers ECDSA signatures in
 * DER already; its public key (SubjectPublicKeyInfo DER) is fetched once per cold start.
 */
export function kmsSigner(keyId: string): ActivationSigner {
  return signerFrom(
    `KMS key ${keyId}`,
    async () => {
      const { PublicKey } = await kms().send(new GetPublicKeyCommand({ KeyId: keyId }));
      if (!PublicKey) throw new Error(`KMS returned no public key for ${keyId}`);
      return PublicKey;
    },
    async (message) => {
      const raw = message.byteLength <= MAX_RAW_MESSAGE_BYTES;
      const { Signature } = await kms().send(
        new SignCommand({
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
