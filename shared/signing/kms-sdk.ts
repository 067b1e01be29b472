/**
 * The part of the KMS SDK the activation signer uses. `kms-signer.ts` loads it with `import()` on first
 * use, and the build makes it a self-contained file of its own (scripts/build.ts, isolated SDKs): only what
 * is named here is bundled into it.
 */
export { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
