import type * as Lambda from './lambda-sdk.ts';
import { config } from '#shared/config.ts';
import { serviceBusy } from '#shared/errors.ts';
import type { ExportEvent } from './jobs.ts';

let loaded: Promise<{ sdk: typeof Lambda; client: Lambda.LambdaClient }> | undefined;

/** The SDK and client, loaded on first use; locally Lambda's API is serverless-offline's (`LAMBDA_ENDPOINT`). */
function lambda() {
  const { region, lambdaEndpoint } = config();
  loaded ??= import('./lambda-sdk.ts').then((sdk) => ({
    sdk,
    client: new sdk.LambdaClient({
      region,
      ...(lambdaEndpoint ? { endpoint: lambdaEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  }));
  return loaded;
}

/**
 * Starts the export worker on the job, asynchronously (`InvocationType: Event`: Lambda queues the event and answers at
 * once). Lambda may deliver an event twice; the worker's claim of a PENDING job runs it once.
 */
export async function startWorker(event: ExportEvent): Promise<void> {
  const name = config().exportWorkerFunction;
  if (!name) throw new Error('Environment variable EXPORT_WORKER_FUNCTION is required to start an export');
  const { sdk, client } = await lambda();
  const { StatusCode } = await client.send(
    new sdk.InvokeCommand({ FunctionName: name, InvocationType: 'Event', Payload: Buffer.from(JSON.stringify(event)) }),
  );
  if (StatusCode !== 202) throw serviceBusy(`The export worker could not be started (Lambda answered ${StatusCode})`);
}
