/**
 * The typed client's export helper (client/src/exports.ts) against a fake service: the requests it makes, the waits
 * between its reads (250 ms doubling to 10 s, cut at the deadline), the file it answers and the errors it throws. The
 * fake's file is gzipped and hashed here with node:zlib and node:crypto, not with the helper's own code.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clientOf,
  type Credentials,
  type ErrorBody,
  ExportError,
  type ExportState,
  exportJournal,
  exportSalesCsv,
} from '../../client/src/index.ts';
import type { paths as V33 } from '../../client/src/generated/v33.ts';

const BASE = 'https://api.example';
const EXPORTS = '/v33/SE5560360793/registrations/K1/journal-exports';
const ID = '0017000000000000badcafe1';
const DOCUMENT = `<?xml version="1.0"?>\n<Journal>${'<Kassakvitto/>'.repeat(1000)}</Journal>\n`;
const FILE = gzipSync(DOCUMENT);
const SHA256 = createHash('sha256').update(FILE).digest('hex');

const job = { id: ID, status: 'PENDING' as const, from: 1, to: 2, created: 3 };
const state = (fields: Partial<ExportState> = {}): ExportState => ({
  ...job,
  finished: null,
  bytes: null,
  sha256: null,
  url: null,
  expires: null,
  error: null,
  ...fields,
});
const done = (fields: Partial<ExportState> = {}) =>
  state({ status: 'DONE', finished: 4, bytes: FILE.length, sha256: SHA256, url: 'https://files.example/f?sig=1', ...fields });

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const gzipFile = (bytes: Uint8Array = FILE) =>
  new Response(new Uint8Array(bytes), {
    headers: { 'Content-Type': 'application/gzip', 'Content-Disposition': 'attachment; filename="Export_1-2.xml.gz"' },
  });

/** A request as the fake service saw it. */
interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/**
 * A service that answers the POST with `started`, each read of the export with the next of `reads` (the last one
 * again once they run out) and each GET of a file link with `files` in turn; it records every request.
 */
function service(reads: (() => Response)[], files: (() => Response)[] = [() => gzipFile()], started = () => json(202, job)) {
  const seen: Seen[] = [];
  let read = 0;
  let file = 0;
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    if (request.url.startsWith('https://files.example/')) return (files[Math.min(file++, files.length - 1)] ?? gzipFile)();
    if (request.method === 'POST') return started();
    return (reads[Math.min(read++, reads.length - 1)] ?? (() => json(500, {})))();
  };
  return { fetch, seen };
}

/** The client a register app makes, with this fake as its fetch. */
const clientWith = (fetch: (request: Request) => Promise<Response>, auth: Credentials = { apiKey: 'key-1' }) =>
  clientOf<V33>({ baseUrl: BASE, auth, fetch });

let delays: number[];
/** Waits no time: records the delay and moves the (fake) clock on by it. */
const wait = async (ms: number) => {
  delays.push(ms);
  vi.setSystemTime(Date.now() + ms);
};

beforeEach(() => {
  delays = [];
  vi.useFakeTimers({ toFake: ['Date'], now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const order = { sellerId: 'SE5560360793', cash: 'K1' };

describe('exportJournal', () => {
  it('starts the export, reads it after 250 ms doubling to 10 s, downloads the link without credentials and gunzips it', async () => {
    const running = Array.from({ length: 8 }, () => () => json(200, state({ status: 'RUNNING' })));
    const fake = service([...running, () => json(200, done())]);
    const states: string[] = [];
    const file = await exportJournal(
      clientWith(fake.fetch),
      { ...order, from: new Date(1000), to: 2000 },
      { fetch: fake.fetch, wait, onState: (s) => states.push(s.status) },
    );

    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    expect(new TextDecoder().decode(file.bytes)).toBe(DOCUMENT);
    expect(file.state).toEqual(done());
    expect(file.fileName).toBe('Export_1-2.xml');
    expect(states).toEqual(['PENDING', ...Array(8).fill('RUNNING'), 'DONE']);

    const [post, ...rest] = fake.seen;
    expect(post).toMatchObject({ method: 'POST', url: `${BASE}${EXPORTS}`, body: '{"from":1000,"to":2000}' });
    expect(post?.headers.get('X-Api-Key')).toBe('key-1');
    const reads = rest.slice(0, -1);
    expect(reads.map((r) => `${r.method} ${r.url}`)).toEqual(Array(9).fill(`GET ${BASE}${EXPORTS}/${ID}`));
    expect(reads.every((r) => r.headers.get('X-Api-Key') === 'key-1')).toBe(true);
    const link = rest.at(-1);
    expect(link?.url).toBe('https://files.example/f?sig=1');
    expect([link?.headers.get('X-Api-Key'), link?.headers.get('Authorization')]).toEqual([null, null]);
  });

  it('signs the requests to the service with Basic for a user, and sends no period it was not given', async () => {
    const fake = service([() => json(200, done())]);
    await exportJournal(clientWith(fake.fetch, { username: 'anna', password: 'secret' }), order, { fetch: fake.fetch, wait });
    expect(fake.seen[0]?.body).toBe('{}');
    expect(fake.seen[0]?.headers.get('Authorization')).toBe(`Basic ${Buffer.from('anna:secret').toString('base64')}`);
    expect(fake.seen.at(-1)?.headers.get('Authorization')).toBeNull();
  });

  it('answers the file as downloaded with gzipped: true', async () => {
    const fake = service([() => json(200, done())]);
    const file = await exportJournal(clientWith(fake.fetch), order, { fetch: fake.fetch, wait, gzipped: true });
    expect(Buffer.from(file.bytes).equals(FILE)).toBe(true);
    expect(file.fileName).toBe('Export_1-2.xml.gz');
  });

  it('takes the running export a second POST answers (200) as its own', async () => {
    const running = { ...job, status: 'RUNNING' as const };
    const fake = service([() => json(200, done())], undefined, () => json(200, running));
    const states: string[] = [];
    await exportJournal(clientWith(fake.fetch), order, { fetch: fake.fetch, wait, onState: (s) => states.push(s.status) });
    expect(states).toEqual(['RUNNING', 'DONE']);
  });

  it('reads an export given by id at once, without a POST', async () => {
    const fake = service([() => json(200, done())]);
    const file = await exportJournal(clientWith(fake.fetch), { ...order, exportId: ID }, { fetch: fake.fetch, wait });
    expect(delays).toEqual([]);
    expect(fake.seen.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(fake.seen[0]?.url).toBe(`${BASE}${EXPORTS}/${ID}`);
    expect(new TextDecoder().decode(file.bytes)).toBe(DOCUMENT);
  });

  it('gives up at the deadline, its last wait cut to the time left', async () => {
    const fake = service([() => json(200, state({ status: 'RUNNING' }))]);
    const error = await exportJournal(clientWith(fake.fetch), order, { fetch: fake.fetch, wait, timeoutMs: 20_000 }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ExportError);
    expect(error).toMatchObject({ reason: 'timeout', state: { status: 'RUNNING' } });
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 4250]);
  });

  it('honours a smaller first delay and cap', async () => {
    const fake = service([...Array.from({ length: 5 }, () => () => json(200, state())), () => json(200, done())]);
    await exportJournal(clientWith(fake.fetch), order, { fetch: fake.fetch, wait, initialDelayMs: 100, maxDelayMs: 300 });
    expect(delays).toEqual([100, 200, 300, 300, 300, 300]);
  });

  it('reads again after a 5xx or a network error, and throws at once on a 4xx', async () => {
    let calls = 0;
    const flaky = service([
      () => json(503, { exception: 'ServiceUnavailable', code: null, message: 'busy', error: 'x', details: [] }),
      () => {
        throw new TypeError('fetch failed');
      },
      () => json(200, done()),
    ]);
    const counted = (request: Request) => ((calls += 1), flaky.fetch(request));
    await exportJournal(clientWith(counted), order, { fetch: counted, wait });
    expect(calls).toBe(5);

    const body = { error: 'NotFoundJsonException', exception: 'NotFound', code: null, message: 'No such export', details: [] };
    const gone = service([() => json(404, body)]);
    await expect(exportJournal(clientWith(gone.fetch), order, { fetch: gone.fetch, wait })).rejects.toMatchObject({
      reason: 'refused',
      status: 404,
      body,
    });
  });

  it('throws the failed export’s error body', async () => {
    const error: ErrorBody = {
      error: 'InconsistentDataJsonException',
      exception: 'InconsistentData',
      code: 'JOURNAL_EXPORT_INCOMPLETE',
      message: 'The seller has no address',
      details: [],
    };
    const fake = service([() => json(200, state({ status: 'RUNNING' })), () => json(200, state({ status: 'FAILED', error }))]);
    const thrown = await exportJournal(clientWith(fake.fetch), order, { fetch: fake.fetch, wait }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ExportError);
    expect(thrown).toMatchObject({ reason: 'failed', body: error, state: { status: 'FAILED' } });
    expect((thrown as Error).message).toContain('InconsistentData JOURNAL_EXPORT_INCOMPLETE: The seller has no address');
    expect(fake.seen.some((r) => r.url.startsWith('https://files.example/'))).toBe(false);
  });

  it('throws the refusal of its POST, with its status and body, and reads nothing', async () => {
    const body = {
      error: 'ForbiddenJsonException',
      exception: 'Forbidden',
      code: 'INSUFFICIENT_ACCESS_RIGHTS',
      message: 'No access',
      details: [],
    };
    const fake = service([], undefined, () => json(403, body));
    await expect(exportJournal(clientWith(fake.fetch), order, { fetch: fake.fetch, wait })).rejects.toMatchObject({
      reason: 'refused',
      status: 403,
      body,
    });
    expect(fake.seen).toHaveLength(1);
  });

  it('refuses a file whose size or SHA-256 is not the export’s', async () => {
    for (const named of [done({ bytes: FILE.length + 1 }), done({ sha256: '0'.repeat(64) })]) {
      const fake = service([() => json(200, named)]);
      await expect(exportJournal(clientWith(fake.fetch), order, { fetch: fake.fetch, wait })).rejects.toMatchObject({
        reason: 'integrity',
      });
    }
  });

  it('asks for a fresh link once when the link fails, and throws when that one fails too', async () => {
    const expired = () => new Response('<Error><Code>AccessDenied</Code></Error>', { status: 403 });
    const fake = service(
      [() => json(200, done()), () => json(200, done({ url: 'https://files.example/f?sig=2' }))],
      [expired, () => gzipFile()],
    );
    const file = await exportJournal(clientWith(fake.fetch), order, { fetch: fake.fetch, wait });
    expect(new TextDecoder().decode(file.bytes)).toBe(DOCUMENT);
    expect(fake.seen.filter((r) => r.url.startsWith('https://files.example/')).map((r) => r.url)).toEqual([
      'https://files.example/f?sig=1',
      'https://files.example/f?sig=2',
    ]);

    const broken = service([() => json(200, done())], [expired]);
    await expect(exportJournal(clientWith(broken.fetch), order, { fetch: broken.fetch, wait })).rejects.toMatchObject({
      reason: 'download',
      status: 403,
    });
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const fake = service([() => json(200, state({ status: 'RUNNING' }))]);
    let reads = 0;
    const stop = () => {
      reads += 1;
      if (reads === 3) controller.abort(new Error('stopped'));
    };
    // Its own wait this time (1 ms, doubling): the abort ends it.
    const options = { fetch: fake.fetch, signal: controller.signal, initialDelayMs: 1, onState: stop };
    await expect(exportJournal(clientWith(fake.fetch), order, options)).rejects.toThrow('stopped');
    expect(fake.seen).toHaveLength(3);
  });
});

describe('exportSalesCsv', () => {
  it('starts the seller’s sales CSV export with the GET’s parameters and reads it where the journal’s is read', async () => {
    const fake = service([() => json(200, state({ status: 'RUNNING' })), () => json(200, done())]);
    const csv = { sellerId: 'SE5560360793', period: 365, to: new Date(5000), cashRegisterName: 'K1', fileName: 'year' };
    const file = await exportSalesCsv(clientWith(fake.fetch), csv, { fetch: fake.fetch, wait });
    expect(new TextDecoder().decode(file.bytes)).toBe(DOCUMENT);
    expect(delays).toEqual([250, 500]);
    const [post, ...reads] = fake.seen;
    expect(post).toMatchObject({ method: 'POST', url: `${BASE}/v33/SE5560360793/sales/stats/csv-exports` });
    expect(JSON.parse(post?.body ?? '')).toEqual({ period: 365, to: 5000, cashRegisterName: 'K1', fileName: 'year' });
    expect(reads.slice(0, 2).map((r) => r.url)).toEqual(Array(2).fill(`${BASE}/v33/SE5560360793/sales/stats/csv-exports/${ID}`));
  });
});
