import { AsyncLocalStorage } from 'node:async_hooks';

/** What one request cost in DynamoDB: round trips and capacity units as DynamoDB reported them. */
export interface Usage {
  roundTrips: number;
  readCapacity: number;
  writeCapacity: number;
  /**
   * Milliseconds spent waiting for DynamoDB's answers, summed over the calls (calls made together count each): with
   * the request's `ms`, where a slow request's time went (docs/decisions.md, Tail latency).
   */
  waitMs: number;
  /** Capacity per table or index name, as reported (ReturnConsumedCapacity INDEXES). */
  byTarget: Record<string, { read: number; write: number }>;
}

const storage = new AsyncLocalStorage<Usage>();

export const emptyUsage = (): Usage => ({ roundTrips: 0, readCapacity: 0, writeCapacity: 0, waitMs: 0, byTarget: {} });

/** Runs `work` with a fresh usage record that every DynamoDB call inside it adds to. */
export function metered<T>(work: () => Promise<T>, usage: Usage = emptyUsage()): Promise<T> {
  return storage.run(usage, work);
}

/** The usage record of the request in progress, if any. */
export const currentUsage = (): Usage | undefined => storage.getStore();

interface CapacityReport {
  TableName?: string;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  CapacityUnits?: number;
  Table?: { ReadCapacityUnits?: number; WriteCapacityUnits?: number };
  LocalSecondaryIndexes?: Record<string, { ReadCapacityUnits?: number; WriteCapacityUnits?: number }>;
  GlobalSecondaryIndexes?: Record<string, { ReadCapacityUnits?: number; WriteCapacityUnits?: number }>;
}

/** Adds one DynamoDB response's round trip, its wait and its ConsumedCapacity to the current request's usage. */
export function record(consumed: CapacityReport | CapacityReport[] | undefined, kind: 'read' | 'write', waitMs: number): void {
  const usage = storage.getStore();
  if (!usage) return;
  usage.roundTrips += 1;
  usage.waitMs = Math.round((usage.waitMs + waitMs) * 10) / 10;
  for (const report of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
    // Some reports give only CapacityUnits; the operation says which kind they are.
    const total = report.CapacityUnits ?? 0;
    usage.readCapacity += report.ReadCapacityUnits ?? (kind === 'read' ? total : 0);
    usage.writeCapacity += report.WriteCapacityUnits ?? (kind === 'write' ? total : 0);
    const add = (name: string, units: { ReadCapacityUnits?: number; WriteCapacityUnits?: number } | undefined) => {
      if (!units) return;
      usage.byTarget[name] ??= { read: 0, write: 0 };
      const target = usage.byTarget[name];
      target.read += units.ReadCapacityUnits ?? 0;
      target.write += units.WriteCapacityUnits ?? 0;
    };
    add('table', report.Table);
    for (const [name, units] of Object.entries({ ...report.LocalSecondaryIndexes, ...report.GlobalSecondaryIndexes })) {
      add(name, units);
    }
  }
}
