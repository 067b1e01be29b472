/**
 * The part of the SSM SDK the cloud control-unit client uses to read its certificate. `cloud-system.ts` loads it with
 * `import()`, and the build makes it a self-contained file of its own (scripts/build.ts, isolated SDKs).
 */
export { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
