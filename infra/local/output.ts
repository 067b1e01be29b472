/**
 * What `npm start` prints of serverless-offline's output without `--verbose`: nothing before the stack serves (the
 * route table, the Lambda invoke URLs), then one short line per request instead of its JSON log line (shared/http/log.ts,
 * also the request's metrics line). `--verbose` prints serverless-offline's output as it comes.
 */

/** The fields of a request's log line that the short line shows. */
interface RequestLine {
  route: string;
  status: number;
  ms?: number;
  caller?: string;
  exception?: string;
  code?: string | null;
  failure?: { name?: string; stack?: string };
}

const isRequestLine = (value: unknown): value is RequestLine =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { route?: unknown }).route === 'string' &&
  typeof (value as { status?: unknown }).status === 'number';

/** A line of metrics alone (CloudWatch Embedded Metric Format, shared/http/metrics.ts), such as a kd's outcome. */
const isMetricsLine = (value: unknown): boolean => typeof value === 'object' && value !== null && '_aws' in value;

/** The local time of day, as the terminal's clock shows it. */
const clock = (date: Date) => date.toTimeString().slice(0, 8);

/**
 * A line of serverless-offline's output as `npm start` shows it: a request's log line as
 * `12:00:01 GET /v33/{sellerId}/taxes 200 12 ms user` (with the exception and code of a refusal, and the failure of a
 * 5xx on a second line); a line of metrics alone and an empty line not at all; any other line as it is.
 */
export function shortLine(line: string, now = new Date()): string | undefined {
  if (line.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return line;
  }
  if (!isRequestLine(parsed)) return isMetricsLine(parsed) ? undefined : line;
  const { route, status, ms, caller, exception, code, failure } = parsed;
  const refusal = [exception, code].filter((part) => typeof part === 'string' && part !== '').join(' ');
  const short = [clock(now), route, String(status), refusal, ms === undefined ? '' : `${ms} ms`, caller ?? '']
    .filter((part) => part !== '')
    .join(' ');
  const cause = failure?.stack?.split('\n')[0] ?? failure?.name;
  return cause === undefined ? short : `${short}\n  ${cause}`;
}
