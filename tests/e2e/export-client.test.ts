/**
 * The typed client's `exportJournal` and `npm run journal-export -- --seller --cash` against the local stack
 * (docs/conventions.md §28): a register on a control unit trades a day, and the helper's file is the one the stack's
 * link serves, gunzipped here with node:zlib; the command line writes the document of a period, which is the
 * synchronous route's for that period but for the moment of export; a failed export is the synchronous route's error.
 * `exportSalesCsv`'s file is the seller's sales CSV as `GET .../sales/stats/csv` answers it.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCashRegisterClient, ExportError, exportJournal, exportSalesCsv } from '../../client/src/index.ts';
import { startUnit } from '../support/edge.ts';
import { saleOf } from '../support/fiscal.ts';
import { expectError, v } from '../support/http.ts';
import { DAY } from '../support/identity.ts';
import { kdOf, unitApp } from '../support/kd.ts';
import { codeFor, exportShop, expectValidExport, type Shop } from '../support/skvfs.ts';

const run = promisify(execFile);

let s: Shop;
let apiKey: string;
let folder: string;

/** A bound on each export, not a measure: the worker runs on two busy cores. */
const timeoutMs = 120_000;

const registerClient = () => createCashRegisterClient(33, { baseUrl: inject('baseUrl'), auth: { apiKey } });

/** The synchronous route's document for the same period, not gzipped. */
const synchronous = (query: string) =>
  v(33).get(`${s.base}/journal-export${query}`, {
    ...s.register,
    headers: { Accept: 'application/xml', 'Accept-Encoding': 'identity' },
  });

/** The document without the moment it was made (`TidpunktForNarExportAvDataFranJournalminnetSker`). */
const untimed = (xml: string) => xml.replace(/(<TidpunktForNar\w+>)[^<]*/g, '$1');

/** Runs the command line as a shop owner would, with the register's key in the environment. */
async function journalExport(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, CASH_REGISTER_API_KEY: apiKey };
  delete env.CASH_REGISTER_URL;
  const cli = ['scripts/journal-export.ts', '--base', inject('baseUrl'), '--seller', s.sellerId, '--cash', s.cash, ...args];
  return run(process.execPath, cli, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'export-client-'));
  s = await exportShop(await unitApp(), (await startUnit()).serial);
  const as = s.register.as;
  apiKey = as !== undefined && as !== 'none' && 'apiKey' in as ? as.apiKey : '';
  const sale = saleOf(12_500, { vat: 2500, vatRateSums: [{ vatRate: 2500, vat: 2500, netto: 10_000, brutto: 12_500 }] });
  const code = await codeFor(s, kdOf(1, sale.brutto, { vatRateToSum: { '25': 12_500 } }));
  const posted = await v(33).post(
    `${s.base}/sales`,
    { ...sale, prints: [{ printType: 'Normal', controlNumber: code }] },
    s.register,
  );
  expect(posted.status).toBe(201);
  expect((await v(33).post(`${s.base}/days/current`, undefined, s.register)).status).toBe(201);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('exportJournal (client/)', () => {
  it(
    'answers the file the stack’s link serves, gunzipped, and as downloaded with gzipped: true',
    { timeout: 2 * timeoutMs },
    async () => {
      const statuses: string[] = [];
      const file = await exportJournal(registerClient(), s, { timeoutMs, onState: (state) => statuses.push(state.status) });
      expect(file.state).toMatchObject({ status: 'DONE', from: null, to: null, error: null });
      expect(statuses[0]).toBe('PENDING');
      expect(statuses.at(-1)).toBe('DONE');
      expect(file.fileName).toMatch(/^ExportAvDataFranJournalminneEnligtSKVFS2021-16_\d{14}-\d{14}\.xml$/);

      // The same export read and downloaded here, with a fresh link and no client code.
      const read = await v(33).get(`${s.base}/journal-exports/${file.state.id}`, s.register);
      expect(read.status).toBe(200);
      const served = Buffer.from(await (await fetch((read.body as { url: string }).url)).arrayBuffer());
      expect(createHash('sha256').update(served).digest('hex')).toBe(file.state.sha256);
      const xml = gunzipSync(served).toString('utf8');
      expect(new TextDecoder().decode(file.bytes)).toBe(xml);
      expect(xml).toContain('<Kassakvitto>');
      await expectValidExport(xml);

      const gzipped = await exportJournal(registerClient(), { ...s, exportId: file.state.id }, { timeoutMs, gzipped: true });
      expect(Buffer.from(gzipped.bytes).equals(served)).toBe(true);
      expect(gzipped.fileName).toBe(`${file.fileName}.gz`);
    },
  );

  it('works for a user of the seller (Basic) as for the register', { timeout: timeoutMs }, async () => {
    const admin = createCashRegisterClient(33, { baseUrl: inject('baseUrl'), auth: inject('admin') });
    const to = Date.now();
    const file = await exportJournal(admin, { ...s, from: new Date(to - DAY), to: new Date(to) }, { timeoutMs });
    expect(file.state).toMatchObject({ status: 'DONE', from: to - DAY, to });
    const answer = await synchronous(`?from=${to - DAY}&to=${to}`);
    expect(answer.status).toBe(200);
    expect(untimed(new TextDecoder().decode(file.bytes))).toBe(untimed(answer.text));
  });

  it('throws the failed export’s error, the synchronous route’s; and a stranger’s refusal', { timeout: timeoutMs }, async () => {
    const from = Date.now() + DAY;
    const to = from + DAY;
    const thrown = await exportJournal(registerClient(), { ...s, from, to }, { timeoutMs }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ExportError);
    const failed = thrown as ExportError;
    expect([failed.reason, failed.state?.status]).toEqual(['failed', 'FAILED']);
    const sync = await synchronous(`?from=${from}&to=${to}`);
    expectError(sync, 404, 'NotFound');
    expect(failed.body).toEqual({ ...(sync.body as object), message: expect.any(String) });

    const other = await exportShop(await unitApp(), (await startUnit()).serial);
    const as = other.register.as;
    const stranger = createCashRegisterClient(33, {
      baseUrl: inject('baseUrl'),
      auth: { apiKey: as !== undefined && as !== 'none' && 'apiKey' in as ? as.apiKey : '' },
    });
    await expect(exportJournal(stranger, s, { timeoutMs })).rejects.toMatchObject({
      reason: 'refused',
      status: 403,
      body: { exception: 'Forbidden', code: 'INSUFFICIENT_ACCESS_RIGHTS' },
    });
  });
});

describe('exportSalesCsv (client/)', () => {
  it(
    'answers the CSV of GET .../sales/stats/csv for the same parameters, as the link serves it',
    { timeout: timeoutMs },
    async () => {
      const file = await exportSalesCsv(registerClient(), { sellerId: s.sellerId, period: 7, fileName: 'week' }, { timeoutMs });
      expect(file.fileName).toBe('week.csv');
      const csv = await v(33).get(`/${s.sellerId}/sales/stats/csv?period=7&fileName=week`, {
        headers: { Accept: 'text/csv', 'Accept-Encoding': 'identity' },
      });
      expect(csv.status).toBe(200);
      expect(new TextDecoder().decode(file.bytes)).toBe(csv.text);
      expect(csv.text.trimEnd().split('\n')).toHaveLength(2);

      const read = await v(33).get(`/${s.sellerId}/sales/stats/csv-exports/${file.state.id}`, s.register);
      const served = Buffer.from(await (await fetch((read.body as { url: string }).url)).arrayBuffer());
      expect(gunzipSync(served).toString('utf8')).toBe(csv.text);
    },
  );
});

describe('npm run journal-export -- --seller --cash', () => {
  it('writes the document of the period to --out, gunzipped', { timeout: timeoutMs }, async () => {
    const to = Date.now();
    const from = new Date(to - 2 * DAY).toISOString();
    const out = join(folder, 'period.xml');
    const { code, stdout, stderr } = await journalExport('--from', from, '--to', String(to), '--out', out);
    expect([code, stdout]).toEqual([0, '']);
    expect(stderr).toMatch(/^export \w+ (PENDING|RUNNING|DONE)\n/);
    expect(stderr).toMatch(/ DONE\n\d+ bytes gzipped, SHA-256 [0-9a-f]{64}: /);
    const xml = await readFile(out, 'utf8');
    const answer = await synchronous(`?from=${Date.parse(from)}&to=${to}`);
    expect(answer.status).toBe(200);
    expect(untimed(xml)).toBe(untimed(answer.text));
    await expectValidExport(xml);
  });

  it('writes to stdout without --out, the file as downloaded with --gzip', { timeout: 2 * timeoutMs }, async () => {
    const to = String(Date.now());
    const plain = await journalExport('--to', to);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('<Kassakvitto>');
    const gzipped = join(folder, 'period.xml.gz');
    const id = /^export (\w+) /.exec(plain.stderr)?.[1] ?? '';
    expect((await journalExport('--id', id, '--gzip', '--out', gzipped)).code).toBe(0);
    expect(gunzipSync(await readFile(gzipped)).toString('utf8')).toBe(plain.stdout);
  });

  it('exits 1 with the error body of a failed export, 2 on a usage error', { timeout: timeoutMs }, async () => {
    const from = Date.now() + DAY;
    const failed = await journalExport('--from', String(from), '--to', String(from + DAY));
    expect(failed.code).toBe(1);
    const [said, body] = failed.stderr.trimEnd().split('\n').slice(-2);
    expect(said).toMatch(/^export \w+ failed: NotFound: /);
    expect(JSON.parse(body ?? '')).toMatchObject({ error: 'NotFoundJsonException', exception: 'NotFound', code: null });
    const usage = await journalExport('--from', 'yesterday');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--from is milliseconds since 1970 or an ISO date-time, not yesterday');
  });
});
