/**
 * LAMBDA ONLY. The bundles (scripts/build.ts) alias `@aws-sdk/credential-provider-node`, the SDK's default
 * credential chain, to this module: its default provider reads the environment and nothing else.
 *
 * Why: every SDK client's runtime config imports the whole chain statically (environment, SSO and its OIDC
 * client, INI profiles and STS, credential_process, web identity, container and instance metadata), and
 * passing `credentials` in code does not remove the import. That is ~93 KiB of code loaded, and Init time
 * billed, in every cold start.
 *
 * Why that is safe on Lambda: the runtime puts the execution role's credentials in AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN of every function, sets no AWS_PROFILE and has no ~/.aws
 * files, so the default chain would stop at its first link, the environment, anyway. The local stack and
 * the tests give the DynamoDB client explicit credentials (shared/db/client.ts) and never create KMS or S3
 * clients (local signer and image folder), so they never ask this module.
 *
 * What fails elsewhere: a bundle run with a profile (AWS_PROFILE, ~/.aws/config or credentials), SSO
 * (`aws sso login`), credential_process, web identity or an instance or container role fails its first
 * AWS call with CredentialsProviderError "Unable to find environment variable credentials": those providers
 * are not in the bundle. Export the keys (e.g. `aws configure export-credentials --format env`), or run the
 * sources (`npm run create-admin` and the other scripts do; they load the full chain).
 */
import { type FromEnvInit, fromEnv } from '@aws-sdk/credential-provider-env';

/** The default provider the clients call: environment credentials (the SDK memoizes what this answers). */
export const defaultProvider = (init?: FromEnvInit) => fromEnv(init);
