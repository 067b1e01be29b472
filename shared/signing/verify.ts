/**
 * Offline verification of a signed activation code (docs/conventions.md §11).
 *
 * Meant to be copied into a register's code base with `ecdsa-p256.ts`: the two depend on node:crypto only
 * (Node.js 18 or newer). Fetch the public key once from `GET /v{N}/noauth/activations/public-keys/{publicKeyFileName}`
 * and keep it with the code. A device must keep accepting every activationInfoVersion listed below.
 */
import { verifyEcdsaP256 } from './ecdsa-p256.ts';

/** What an activation code grants; serialized into `activationDescriptorInfo`. Dates are epoch milliseconds. */
export interface ActivationDescriptor {
  activationId: number;
  status: string;
  issued: number;
  country: string;
  corporateId: string;
  sellerName: string | null;
  cashRegisterName: string;
  applicationPackage: string | null;
  productionNumber: string | null;
  validFrom: number;
  validTo: number;
  features: string[];
  controlUnitLocation: string | null;
  controlUnitSerial: string | null;
}

/** The signed activation code as the server sends it (v15 has no publicKeyFileName). */
export interface SignedActivationCode {
  activationInfoVersion: number;
  /** The descriptor as JSON text; the signature covers exactly its UTF-8 bytes. */
  activationDescriptorInfo: string;
  /** Base64 of the DER-encoded ECDSA signature. */
  signature: string;
  /** The file name under which the server serves the public key. */
  publicKeyFileName?: string;
}

export type VerificationResult = { valid: true; descriptor: ActivationDescriptor } | { valid: false; reason: string };

/** activationInfoVersion -> its signature check (an error reason, or undefined when it holds). */
const SCHEMES: Readonly<Record<number, (text: string, signature: string, publicKeyPem: string) => string | undefined>> = {
  2: (text, signature, publicKeyPem) => verifyEcdsaP256(text, signature, publicKeyPem, 'activationDescriptorInfo'),
};

/**
 * Whether `code` was signed by the holder of `publicKeyPem`, and if so what it grants. Never
 * throws: an unknown version, a malformed field, a wrong key or signature are `valid: false`.
 * Whether the activation is still in force (`status`, `validFrom`, `validTo`) is the caller's check.
 */
export function verifyActivationCode(
  code: Pick<SignedActivationCode, 'activationInfoVersion' | 'activationDescriptorInfo' | 'signature'>,
  publicKeyPem: string,
): VerificationResult {
  const invalid = (reason: string): VerificationResult => ({ valid: false, reason });
  // The code usually comes straight from JSON.parse, so its shape is checked, not assumed.
  const candidate: unknown = code;
  if (typeof candidate !== 'object' || candidate === null) return invalid('code is not an object');
  const { activationInfoVersion, activationDescriptorInfo, signature } = candidate as Record<string, unknown>;
  const scheme = typeof activationInfoVersion === 'number' ? SCHEMES[activationInfoVersion] : undefined;
  if (!scheme) return invalid(`unknown activationInfoVersion ${JSON.stringify(activationInfoVersion) ?? 'undefined'}`);
  if (typeof activationDescriptorInfo !== 'string') return invalid('activationDescriptorInfo is not a string');
  if (typeof signature !== 'string') return invalid('signature is not a string');
  if (typeof publicKeyPem !== 'string') return invalid('public key is not a PEM public key');

  const failure = scheme(activationDescriptorInfo, signature, publicKeyPem);
  if (failure !== undefined) return invalid(failure);
  // Parsed only once its signature holds.
  let descriptor: unknown;
  try {
    descriptor = JSON.parse(activationDescriptorInfo);
  } catch {
    return invalid('activationDescriptorInfo is not JSON');
  }
  if (typeof descriptor !== 'object' || descriptor === null || Array.isArray(descriptor)) {
    return invalid('activationDescriptorInfo is not a JSON object');
  }
  return { valid: true, descriptor: descriptor as ActivationDescriptor };
}
