/**
 * The part of the Lambda SDK that starts the export worker. `worker.ts` loads it with `import()` on first use, and the
 * build makes it a self-contained file of its own (scripts/build.ts, isolated SDKs).
 */
export { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
