import type { Usage } from '#shared/db/meter.ts';
import { ApiError } from '#shared/errors.ts';

/**
 * One JSON line per request: the route pattern (never the raw path, whose seller id can be a
 * personal identity number), status, time and DynamoDB cost. Bodies and credentials are never logged.
 */
const logEveryRequest = process.env.LOG_REQUESTS !== 'false';

export const log = {
  request(entry: { method: string; route: string; status: number; ms: number; dynamodb: Usage; error: unknown }): void {
    const { error, ...rest } = entry;
    const line: Record<string, unknown> = { level: entry.status >= 500 ? 'error' : 'info', ...rest };
    if (error instanceof ApiError) line.exception = error.exception;
    else if (error instanceof Error) line.failure = { name: error.name, stack: error.stack };
    else if (error !== undefined) line.failure = { name: typeof error };
    if (logEveryRequest || entry.status >= 500) console.log(JSON.stringify(line));
  },
};
