import type { Usage } from '#shared/db/meter.ts';
import { ApiError } from '#shared/errors.ts';
import { type Directive, emfMetadata } from './metrics.ts';

/** Who called, as far as the log may say: the kind of credentials that were valid, never a name. */
export type CallerKind = 'user' | 'activation' | 'anonymous';

export interface RequestRecord {
  /** API Gateway's request id (`requestContext.requestId`): what a client or API Gateway's access log quotes. */
  requestId: string;
  /** The Lambda invocation's id: what the function's own log lines (START, REPORT) carry. */
  lambdaRequestId: string;
  /** The function's name as Lambda knows it (`cash-register-<stage>-<group>`). */
  functionName: string;
  /** The first request of this process, which paid for the Init. */
  coldStart: boolean;
  /** `v15`, `v26`, `v33`, or `none` for a path without a version. */
  version: string;
  method: string;
  /** The route's template with its version (`/v33/{sellerId}/taxes/{identifier}`), or `unmatched`: never the raw path. */
  route: string;
  caller: CallerKind;
  status: number;
  ms: number;
  dynamodb: Usage;
  error: unknown;
}

/** Published for every request: by API version, by function and version. */
const REQUEST_METRICS: Directive = {
  dimensions: [['version'], ['function', 'version']],
  metrics: { Requests: 'Count', Faults: 'Count', Latency: 'Milliseconds', ReadCapacity: 'Count', WriteCapacity: 'Count' },
};
/** Traffic and latency per route pattern of a function. */
const ROUTE_METRICS: Directive = { dimensions: [['function', 'route']], metrics: { Requests: 'Count', Latency: 'Milliseconds' } };
/** Errors (any 4xx or 5xx answer) by the exception answered. */
const ERROR_METRICS: Directive = { dimensions: [['function', 'exception']], metrics: { Errors: 'Count' } };

/**
 * One JSON line per request, which is also its metrics line (CloudWatch Embedded Metric Format,
 * shared/http/metrics.ts): the request's ids, cold start, version, route pattern (never the raw path, whose seller
 * id can be a personal identity number), caller kind, status, exception and code, time and DynamoDB cost.
 * Bodies, credentials, seller ids and user names are never logged. `LOG_REQUESTS=false` (tests, the bench)
 * keeps only the lines of 5xx answers.
 */
const logEveryRequest = process.env.LOG_REQUESTS !== 'false';

export const log = {
  request(entry: RequestRecord): void {
    const { error, functionName, route, ...rest } = entry;
    const failed = entry.status >= 400;
    const exception = error instanceof ApiError ? error.exception : failed ? 'InternalServerError' : undefined;
    const line: Record<string, unknown> = {
      _aws: emfMetadata(failed ? [REQUEST_METRICS, ROUTE_METRICS, ERROR_METRICS] : [REQUEST_METRICS, ROUTE_METRICS]),
      level: entry.status >= 500 ? 'error' : 'info',
      ...rest,
      function: functionName,
      route: `${entry.method} ${route}`,
      Requests: 1,
      Faults: entry.status >= 500 ? 1 : 0,
      Latency: entry.ms,
      ReadCapacity: entry.dynamodb.readCapacity,
      WriteCapacity: entry.dynamodb.writeCapacity,
    };
    if (exception !== undefined) {
      line.exception = exception;
      line.Errors = 1;
    }
    if (error instanceof ApiError) line.code = error.code;
    else if (error instanceof Error) line.failure = { name: error.name, stack: error.stack };
    else if (error !== undefined) line.failure = { name: typeof error };
    if (logEveryRequest || entry.status >= 500) console.log(JSON.stringify(line));
  },
};
