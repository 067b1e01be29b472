/**
 * The recorder of the DynamoDB calls a piece of work sends through the service's client, with what DynamoDB reported
 * of each: the bench's measured requests (scripts/bench.ts), the journal export's runs (scripts/bench/journal-export-child.ts)
 * and the round trips the tests count (tests/integration/round-trips.test.ts).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type Sent, waveCounter } from './replay.ts';

export interface Units {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}
export interface CapacityReport extends Units {
  Table?: Units;
  LocalSecondaryIndexes?: Record<string, Units>;
}

/** One DynamoDB call as the recorder saw it (what the floor sends again); a failed call counts as a round trip too. */
export interface Call extends Sent {
  consumed: CapacityReport[];
  /** Items a Query or Scan read (ScannedCount): what it is charged for. */
  scanned: number;
}

export interface CallRecorder {
  /** What `work` answers, and the calls sent while it ran; one piece of work at a time. */
  record<T>(work: () => Promise<T>): Promise<{ result: T; calls: Call[] }>;
}

/**
 * Puts the recorder on `client`. `onCall` runs as each call is sent and as it is answered (the export samples its
 * memory there). Calls sent outside `record` are not kept, but share the count of waves.
 */
export function recordCalls(client: DynamoDBClient, onCall: () => void = () => undefined): CallRecorder {
  let calls: Call[] | undefined;
  const waves = waveCounter();
  client.middlewareStack.add(
    (next, { commandName = 'unknown' }) =>
      async (args) => {
        // In the order sent; the input is kept as sent (not copied: the measured request does not pay for it).
        const call: Call = {
          command: commandName.replace(/Command$/, ''), // the DynamoDB operation: GetItem, Query, ...
          input: args.input,
          wave: waves.open(),
          failed: false,
          consumed: [],
          scanned: 0,
        };
        calls?.push(call);
        onCall();
        try {
          const result = await next(args);
          onCall();
          const output = result.output as { ConsumedCapacity?: CapacityReport | CapacityReport[]; ScannedCount?: number };
          call.consumed = [output.ConsumedCapacity ?? []].flat();
          call.scanned = output.ScannedCount ?? 0;
          return result;
        } catch (error) {
          call.failed = true;
          throw error;
        } finally {
          waves.close();
        }
      },
    // After the service's own initialize middleware, which asks for the consumed capacity: the input as sent.
    { step: 'initialize', name: 'recordCalls' },
  );
  return {
    async record(work) {
      const made: Call[] = [];
      calls = made;
      try {
        return { result: await work(), calls: made };
      } finally {
        calls = undefined;
      }
    },
  };
}
