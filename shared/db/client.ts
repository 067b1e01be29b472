import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '#shared/config.ts';
import { serviceBusy } from '#shared/errors.ts';
import { record } from './meter.ts';

const READS = /^(Get|BatchGet|Query|TransactGet|Scan)/;
/** DynamoDB's errors for more requests than a table or the account takes at the moment. */
const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

function createClient(): DynamoDBClient {
  const { dynamoEndpoint, region } = config();
  const client = new DynamoDBClient({
    region,
    // Our own retry loops handle transaction conflicts; the SDK retries throttling.
    maxAttempts: 4,
    ...(dynamoEndpoint ? { endpoint: dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  // The SDK's logger middleware copies every input and output, walking them to hide sensitive fields, for a logger
  // that is a no-op here (the client is given none): a 100-sale page cost more CPU in it than in its HTTP round trip.
  client.middlewareStack.remove('loggerMiddleware');
  // Every call asks for its consumed capacity and is counted against the request in progress.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'INDEXES';
      const kind = READS.test(context.commandName ?? '') ? 'read' : 'write';
      const sent = performance.now();
      try {
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: Parameters<typeof record>[0] }).ConsumedCapacity;
        record(consumed, kind, performance.now() - sent);
        return result;
      } catch (error) {
        record(undefined, kind, performance.now() - sent); // a refused call is still a round trip
        // Throttled through all of the SDK's retries: nothing was written, and the client should come back (503), not see a 500.
        throw error instanceof Error && THROTTLING.has(error.name)
          ? serviceBusy('The table is busy; try again', { cause: error })
          : error;
      }
    },
    { step: 'initialize', name: 'meterConsumedCapacity' },
  );
  return client;
}

let client: DynamoDBClient | undefined;

/** The DynamoDB client: one per process, created on first use. Items go through `documents.ts`. */
export function db(): DynamoDBClient {
  client ??= createClient();
  return client;
}

/** The single table's name. */
export const table = (): string => config().tableName;
