/** What `npm start` shows of a request's log line without --verbose (infra/local/output.ts). */
import { describe, expect, it } from 'vitest';
import { shortLine } from '../../infra/local/output.ts';

const at = new Date(2026, 10, 27, 12, 0, 1);
const logLine = (fields: Record<string, unknown>) =>
  JSON.stringify({ _aws: { Timestamp: 0, CloudWatchMetrics: [] }, level: 'info', requestId: 'r-1', ...fields });

describe("npm start's short request lines", () => {
  it('shows a request as its time, route, status, duration and caller on one line', () => {
    const line = logLine({ method: 'GET', route: 'GET /v33/{sellerId}/taxes', status: 200, ms: 12, caller: 'user' });
    expect(shortLine(line, at)).toBe('12:00:01 GET /v33/{sellerId}/taxes 200 12 ms user');
  });

  it("names a refusal's exception and code", () => {
    const line = logLine({
      route: 'GET unmatched',
      status: 404,
      ms: 2,
      caller: 'anonymous',
      exception: 'NotFound',
      code: 'ENDPOINT_NOT_FOUND',
    });
    expect(shortLine(line, at)).toBe('12:00:01 GET unmatched 404 NotFound ENDPOINT_NOT_FOUND 2 ms anonymous');
  });

  it("adds a 5xx's failure, its first line only", () => {
    const failure = { name: 'TypeError', stack: 'TypeError: x is undefined\n    at f (file.ts:1:1)' };
    const line = logLine({ route: 'POST /v33/sellers', status: 500, ms: 3, exception: 'InternalServerError', failure });
    expect(shortLine(line, at)).toBe('12:00:01 POST /v33/sellers 500 InternalServerError 3 ms\n  TypeError: x is undefined');
  });

  it('drops a line of metrics alone (a kd outcome): --verbose shows it', () => {
    expect(shortLine(JSON.stringify({ _aws: { Timestamp: 0 }, outcome: 'Signed', KdOutcome: 1 }), at)).toBeUndefined();
  });

  it('passes any other line as it is, and drops empty lines', () => {
    expect(shortLine('offline: something to say', at)).toBe('offline: something to say');
    expect(shortLine('{"level":"warn","message":"m"}', at)).toBe('{"level":"warn","message":"m"}');
    expect(shortLine('   ', at)).toBeUndefined();
  });
});
