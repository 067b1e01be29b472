import type { ActivationSigner } from './signer.ts';
import type { ActivationDescriptor, SignedActivationCode } from './verify.ts';

export type { ActivationDescriptor, SignedActivationCode, VerificationResult } from './verify.ts';
export { verifyActivationCode } from './verify.ts';

/**
 * One activationInfoVersion: how the descriptor becomes `activationDescriptorInfo` and how that
 * text is signed. A new key algorithm or serialization is a new entry; old entries stay, because
 * devices must verify every earlier version (spec, activation notes).
 */
export interface ActivationInfoVersion {
  serialize(descriptor: ActivationDescriptor): string;
  signatureScheme: string;
}

/**
 * Descriptor fields in the order version 2 writes them. The order is part of the format: a
 * verifier checks the exact bytes, and a fixed order keeps equal descriptors byte-equal.
 */
export const DESCRIPTOR_FIELDS_V2 = [
  'activationId',
  'status',
  'issued',
  'country',
  'corporateId',
  'sellerName',
  'cashRegisterName',
  'applicationPackage',
  'productionNumber',
  'validFrom',
  'validTo',
  'features',
  'controlUnitLocation',
  'controlUnitSerial',
] as const satisfies readonly (keyof ActivationDescriptor)[];

/** Every activationInfoVersion the service has issued. */
export const ACTIVATION_INFO_VERSIONS: Readonly<Record<number, ActivationInfoVersion>> = {
  2: {
    serialize: (descriptor) =>
      JSON.stringify(Object.fromEntries(DESCRIPTOR_FIELDS_V2.map((field) => [field, descriptor[field]]))),
    signatureScheme: 'ECDSA P-256 SHA-256, DER, base64',
  },
};

/** The version new codes are issued in. */
export const CURRENT_ACTIVATION_INFO_VERSION = 2;

/** Serializes and signs a descriptor in the current activationInfoVersion. */
export async function signActivationCode(
  descriptor: ActivationDescriptor,
  signer: ActivationSigner,
): Promise<SignedActivationCode & { publicKeyFileName: string }> {
  const version = ACTIVATION_INFO_VERSIONS[CURRENT_ACTIVATION_INFO_VERSION];
  if (!version) throw new Error(`activationInfoVersion ${CURRENT_ACTIVATION_INFO_VERSION} is not registered`);
  const activationDescriptorInfo = version.serialize(descriptor);
  const [signature, publicKeyFileName] = await Promise.all([
    signer.sign(Buffer.from(activationDescriptorInfo, 'utf8')),
    signer.publicKeyFileName(),
  ]);
  return {
    activationInfoVersion: CURRENT_ACTIVATION_INFO_VERSION,
    activationDescriptorInfo,
    signature: signature.toString('base64'),
    publicKeyFileName,
  };
}
