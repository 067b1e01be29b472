/**
 * Journal exports as jobs over HTTP (docs/conventions.md §28): a register on a control unit trades a day; `POST
 * .../journal-exports` starts its export, its `Location` is polled until `DONE`, and the link downloads the gzipped
 * file, whose size and SHA-256 are the ones the export names and whose document is the synchronous route's but for its
 * two time stamps. The same period asked again while it runs answers the running export; a failure carries the
 * synchronous route's error; strangers are refused; a link past its time or altered is refused.
 */
import { createHash, createHmac } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { table } from '#shared/db/client.ts';
import { putItem, queryItems } from '#shared/db/documents.ts';
import { startUnit } from '../support/edge.ts';
import { activateRegister, registerApp, saleOf } from '../support/fiscal.ts';
import { type CallOptions, expectError, newSeller, v } from '../support/http.ts';
import { DAY, swedishCorporateId, userOf } from '../support/identity.ts';
import { kdOf, unitApp } from '../support/kd.ts';
import { codeFor, exportShop, expectValidExport, type Shop } from '../support/skvfs.ts';

interface ExportState {
  id: string;
  status: 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';
  from: number | null;
  to: number | null;
  created: number;
  finished: number | null;
  bytes: number | null;
  sha256: string | null;
  url: string | null;
  expires: number | null;
  error: Record<string, unknown> | null;
}

let s: Shop;

/** Polls the export until it is DONE or FAILED (a bound, not a measure: the worker runs on two busy cores). */
async function finished(location: string, options: CallOptions = s.register): Promise<ExportState> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answer = await v(33).get(location.replace(/^\/v33/, ''), options);
    expect(answer.status).toBe(200);
    const state = answer.body as ExportState;
    if (state.status === 'DONE' || state.status === 'FAILED') return state;
    if (Date.now() > deadline) throw new Error(`export ${state.id} still ${state.status} after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ask = (target: Shop, body: Record<string, unknown>, options: CallOptions = target.register) =>
  v(33).post(`${target.base}/journal-exports`, body, options);

/** The synchronous route's answer for the same period, not gzipped. */
const synchronous = (target: Shop, query: string) =>
  v(33).get(`${target.base}/journal-export${query}`, {
    ...target.register,
    headers: { Accept: 'application/xml', 'Accept-Encoding': 'identity' },
  });

/** The document without the two time stamps that say when it was made. */
const untimed = (xml: string) => xml.replace(/(<TidpunktForNar\w+>|<ValdSluttidpunkt\w+>)[^<]*/g, '$1');

/** A link to `key` as the stack signs one (HMAC-SHA256 of key, expiry and file name under the run's key), made here. */
function signedLink(base: string, key: string, expires: number, fileName: string): string {
  const signature = createHmac('sha256', inject('exportUrlSecret')).update(`${key}\n${expires}\n${fileName}`).digest('hex');
  return `${base}/${key}?${new URLSearchParams({ expires: String(expires), filename: fileName, signature })}`;
}

beforeAll(async () => {
  const app = await unitApp();
  const { serial } = await startUnit();
  s = await exportShop(app, serial);
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

describe('POST /v33/{sellerId}/registrations/{cash}/journal-exports', () => {
  let done: ExportState;
  let location: string;

  it('starts the export (202, Location), which ends DONE with a link to the gzipped file it describes', async () => {
    const started = await ask(s, {});
    expect(started.status).toBe(202);
    location = started.headers.get('location') ?? '';
    const id = (started.body as ExportState).id;
    expect(location).toBe(`/v33${s.base}/journal-exports/${id}`);
    expect(started.body).toEqual({ id, status: 'PENDING', from: null, to: null, created: expect.any(Number) });

    done = await finished(location);
    expect(done).toMatchObject({ id, status: 'DONE', error: null, bytes: expect.any(Number), sha256: expect.any(String) });
    expect(done.expires).toBeGreaterThan(Date.now());

    const download = await fetch(done.url ?? '');
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="ExportAvDataFranJournalminneEnligtSKVFS2021-16_\d{14}-\d{14}\.xml\.gz"$/,
    );
    const file = Buffer.from(await download.arrayBuffer());
    expect(file.length).toBe(done.bytes);
    expect(createHash('sha256').update(file).digest('hex')).toBe(done.sha256);
    const xml = gunzipSync(file).toString('utf8');
    await expectValidExport(xml);
    const answer = await synchronous(s, '');
    expect(answer.status).toBe(200);
    expect(untimed(xml)).toBe(untimed(answer.text));
    expect(xml).toContain('<Kassakvitto>');
  });

  it('lists the register’s exports newest first, each as its own read answers it', async () => {
    const second = await finished((await ask(s, { to: Date.now() })).headers.get('location') ?? '');
    const list = await v(33).get(`${s.base}/journal-exports`, s.register);
    expect(list.status).toBe(200);
    const listed = list.body as ExportState[];
    expect(listed.map((job) => job.id)).toEqual([second.id, done.id]);
    expect(listed.map(({ url, expires, ...rest }) => rest)).toEqual([second, done].map(({ url, expires, ...rest }) => rest));
    const paged = await v(33).get(`${s.base}/journal-exports?firstResult=1&maxResults=1`, s.register);
    expect((paged.body as ExportState[]).map((job) => job.id)).toEqual([done.id]);
  });

  it('answers the same period asked again while its export runs with that export (200), and starts one when it has ended', async () => {
    // A job the worker is running, as it leaves the table mid-run: its record RUNNING and its period's marker.
    const from = Date.now() - 3 * DAY;
    const to = Date.now() - 2 * DAY;
    const { Items } = await queryItems({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': `R#${s.sellerId}#${s.cash}`, ':sk': 'EXPORT#journal#' },
    });
    const model = Items?.[0] ?? {};
    const id = `${String(Date.now()).padStart(15, '0')}0badcafe`;
    const deadline = Date.now() + 10 * 60_000;
    const running = {
      ...model,
      sk: `EXPORT#journal#${id}`,
      id,
      status: 'RUNNING',
      from,
      to,
      periodKey: `${from}_${to}`,
      deadline,
    };
    await putItem({ TableName: table(), Item: running });
    await putItem({
      TableName: table(),
      Item: { pk: model.pk, sk: `EXPORTING#journal#${from}_${to}`, id, deadline, expiresAt: Math.ceil(deadline / 1000) },
    });

    const again = await ask(s, { from, to });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id, status: 'RUNNING', from, to });
    expect(again.headers.get('location')).toBeNull();

    // Once it is past its deadline it reads FAILED, and the period can be asked for afresh.
    await putItem({ TableName: table(), Item: { ...running, deadline: Date.now() - 1 } });
    const late = await v(33).get(`${s.base}/journal-exports/${id}`, s.register);
    expect(late.body).toMatchObject({ id, status: 'FAILED', error: { exception: 'InternalServerError' } });
    const fresh = await ask(s, { from, to });
    expect(fresh.status).toBe(202);
    expect((fresh.body as ExportState).id).not.toBe(id);
  });

  it('starts one export for requests of a period that come at once: every other answer names it', async () => {
    const body = { from: Date.now() - 5 * DAY, to: Date.now() - 4 * DAY };
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(s, body)));
    const ids = answers.map((answer) => (answer.body as ExportState).id);
    const startedIds = answers.filter((answer) => answer.status === 202).map((answer) => (answer.body as ExportState).id);
    expect(answers.every((answer) => answer.status === 202 || answer.status === 200)).toBe(true);
    // Each 200 answered an export that one of the 202s started; the register has as many exports as 202s.
    expect(new Set(ids)).toEqual(new Set(startedIds));
    expect(startedIds).toHaveLength(new Set(startedIds).size);
  });

  it("fails with the synchronous route's error: an empty period (404), a register whose records lack a fact (409)", async () => {
    const from = Date.now() + DAY;
    const to = Date.now() + 2 * DAY;
    const empty = await finished((await ask(s, { from, to })).headers.get('location') ?? '');
    const sync = await synchronous(s, `?from=${from}&to=${to}`);
    expectError(sync, 404, 'NotFound');
    expect(empty).toMatchObject({ status: 'FAILED', url: null, bytes: null, sha256: null });
    expect(empty.error).toEqual({ ...(sync.body as object), message: expect.any(String) });

    const corporateId = swedishCorporateId();
    const register = await activateRegister(33, await registerApp(), corporateId, 'K9');
    const bare: Shop = { sellerId: `SE${corporateId}`, cash: 'K9', register, base: `/SE${corporateId}/registrations/K9` };
    const incomplete = await finished((await ask(bare, {})).headers.get('location') ?? '', register);
    const refused = await synchronous(bare, '');
    expectError(refused, 409, 'InconsistentData', 'JOURNAL_EXPORT_INCOMPLETE');
    expect(incomplete.error).toEqual(refused.body);
  });

  it('refuses another seller, its register and its user (403) as the synchronous export does; another register has no such export', async () => {
    const other = await exportShop(await unitApp(), (await startUnit()).serial);
    const stranger = await userOf('REGULAR_USER', null, [await newSeller()]);
    const id = done.id;
    for (const caller of [other.register, stranger]) {
      expectError(await ask(s, {}, caller), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
      expectError(await v(33).get(`${s.base}/journal-exports`, caller), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
      expectError(await v(33).get(`${s.base}/journal-exports/${id}`, caller), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    }
    expectError(await v(33).get(`${other.base}/journal-exports/${id}`, other.register), 404, 'NotFound');
    // Users of the seller read the register's exports.
    const user = await userOf('REGULAR_USER', null, [s.sellerId]);
    expect((await v(33).get(`${s.base}/journal-exports/${id}`, user)).body).toMatchObject({ id, status: 'DONE' });
    expectError(await ask(s, { from: 'yesterday' }), 400, 'MessageNotReadable');
    expectError(await v(26).post(`${s.base}/journal-exports`, {}, s.register), 404, 'NotFound', 'ENDPOINT_NOT_FOUND');
  });

  it('refuses a link past its time (403 AccessDenied) or altered (403 SignatureDoesNotMatch)', async () => {
    const link = new URL(done.url ?? '');
    const key = link.pathname.slice(1);
    const fileName = link.searchParams.get('filename') ?? '';
    const base = link.origin;
    // The same link signed here for a time still to come works: the test signs as the stack does.
    expect((await fetch(signedLink(base, key, Date.now() + 60_000, fileName))).status).toBe(200);
    const expired = await fetch(signedLink(base, key, Date.now() - 1000, fileName));
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<Code>AccessDenied</Code><Message>Request has expired</Message>');
    link.searchParams.set('expires', String(Date.now() + DAY));
    const altered = await fetch(link);
    expect(altered.status).toBe(403);
    expect(await altered.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });
});
