import { activationSigning } from '#shared/config.ts';
import { kmsSigner } from './kms-signer.ts';
import { localSigner } from './local-signer.ts';

/** Signs activation codes (docs/conventions.md §11): KMS in AWS, a key file locally. */
export interface ActivationSigner {
  /** `activation-key-<16 hex of SHA-256 of the SPKI DER>.pem`: names the current key. */
  publicKeyFileName(): Promise<string>;
  /** The public key as PEM (SubjectPublicKeyInfo), as served to registers. */
  publicKeyPem(): Promise<string>;
  /** The ECDSA P-256 / SHA-256 signature of `message`, DER-encoded. */
  sign(message: Uint8Array): Promise<Buffer>;
}

let signer: ActivationSigner | undefined;

/**
 * The process's signer, chosen by `ACTIVATION_SIGNER` here and nowhere else. Misconfiguration
 * fails on first use with the variable's name, so functions that never sign need none of it.
 */
export function activationSigner(): ActivationSigner {
  if (signer) return signer;
  const settings = activationSigning();
  signer = settings.signer === 'kms' ? kmsSigner(settings.kmsKeyId) : localSigner(settings.keyFile);
  return signer;
}

/**
 * The PEM for `GET .../public-keys/{publicKeyFileName}`: the current key's PEM when the name is
 * the current key's, undefined otherwise (the route answers 404 NotFound).
 */
export async function publicKeyPemFor(
  fileName: string,
  from: ActivationSigner = activationSigner(),
): Promise<string | undefined> {
  return fileName === (await from.publicKeyFileName()) ? from.publicKeyPem() : undefined;
}
