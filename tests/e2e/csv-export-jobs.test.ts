/**
 * Sales CSV exports as jobs over HTTP (docs/conventions.md §28, §20): a seller with two registers trades over a few
 * days; `POST .../sales/stats/csv-exports` starts an export, its `Location` is polled until `DONE`, and the link
 * downloads the gzipped file, whose size and SHA-256 are the ones the export names and whose text is what `GET
 * .../sales/stats/csv` answers for the same parameters. A seller with more than 20,000 sales (seeded into the table as
 * the sale POST writes them) is refused by the GET and exported whole by the job. The same parameters asked again while
 * their export runs answer it; the GET's refusals are the POST's; strangers are refused.
 */
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { table } from '#shared/db/client.ts';
import { putInBulk, putItem, queryItems } from '#shared/db/documents.ts';
import { activateRegister, registerApp } from '../support/fiscal.ts';
import { type Answer, answerLost, type CallOptions, detailOf, expectError, newSeller, v } from '../support/http.ts';
import { DAY, swedishCorporateId, userOf } from '../support/identity.ts';

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

/** The POST's body: the GET's query parameters. */
interface CsvParams {
  period?: number;
  from?: number;
  to?: number;
  cashRegisterName?: string;
  fileName?: string;
}

type Item = Record<string, unknown>;

const today = Date.now();
/** K2's first day is dated three days ago, K1's two days ago (a day takes the date of its sales' `close`). */
const threeDaysAgo = today - 3 * DAY;
const twoDaysAgo = today - 2 * DAY;

/** A sale at 25 % and 12 % VAT (whole hundredths), paid as `payments` say. */
function saleOf(at25: number, at12: number, payments: [string, number][], fields: Item = {}) {
  const vat25 = at25 / 5;
  const vat12 = (at12 * 12) / 112;
  const lines = [
    { productIdentifier: 'p1', deltaUnit: true, delta: 1, vat: vat25, netto: at25 - vat25, brutto: at25, vatRate: 25 },
    { productIdentifier: 'p2', deltaUnit: true, delta: 2, vat: vat12, netto: at12 - vat12, brutto: at12, vatRate: 12 },
  ].filter((line) => line.brutto > 0);
  return {
    identifier: randomUUID(),
    sellerIdentifier: 'Anna',
    saleState: 'Paid',
    refund: false,
    refundFor: null,
    close: today,
    brutto: at25 + at12,
    vat: vat25 + vat12,
    saleProducts: lines,
    payments: payments.map(([paymentType, amount]) => ({ paymentType, amount })),
    vatRateSums: lines.map((line) => ({ vatRate: line.vatRate * 100, vat: line.vat, netto: line.netto, brutto: line.brutto })),
    prints: [{ printType: 'Normal' }],
    ...fields,
  };
}

let sellerId: string;
let k1: CallOptions;
const post = async (register: CallOptions, cash: string, sale: ReturnType<typeof saleOf>) => {
  const answer = await v(33).post(`/${sellerId}/registrations/${cash}/sales`, sale, register);
  expect(answer.status, answer.text).toBe(201);
};

async function closeAndReport(register: CallOptions, cash: string, dayNumber: number) {
  const days = `/${sellerId}/registrations/${cash}/days`;
  expect((await v(33).post(`${days}/current`, undefined, register)).status).toBe(201);
  expect((await v(33).post(`${days}/${dayNumber}/report`, undefined, register)).status).toBe(201);
}

const exportsOf = (seller: string) => `/${seller}/sales/stats/csv-exports`;
const ask = (body: CsvParams, options?: CallOptions, seller = sellerId) => v(33).post(exportsOf(seller), body, options);

/** The GET's query for the POST's body. */
const queryOf = (body: CsvParams) =>
  new URLSearchParams(Object.entries(body).map(([name, value]): [string, string] => [name, String(value)])).toString();
const synchronous = (body: CsvParams, seller = sellerId) => v(33).get(`/${seller}/sales/stats/csv?${queryOf(body)}`);

/** Polls the export until it is DONE or FAILED (a bound, not a measure: the worker runs on two busy cores). */
async function finished(location: string): Promise<ExportState> {
  const deadline = Date.now() + 120_000;
  let pause = 50;
  for (;;) {
    const answer = await v(33).get(location.replace(/^\/v33/, ''));
    expect(answer.status, answer.text).toBe(200);
    const state = answer.body as ExportState;
    if (state.status === 'DONE' || state.status === 'FAILED') return state;
    if (Date.now() > deadline) throw new Error(`export ${state.id} still ${state.status} after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(2 * pause, 1000);
  }
}

/** The export `body` asks for, started (202 and its `Location`) and polled until it ends. */
async function exported(body: CsvParams, seller = sellerId): Promise<ExportState> {
  const started = await ask(body, undefined, seller);
  expect(started.status, started.text).toBe(202);
  const id = (started.body as ExportState).id;
  expect(started.headers.get('location')).toBe(`/v33${exportsOf(seller)}/${id}`);
  expect(started.body).toEqual({
    id,
    status: 'PENDING',
    from: body.from ?? null,
    to: body.to ?? null,
    created: expect.any(Number),
  });
  return finished(started.headers.get('location') ?? '');
}

/** The name a Content-Disposition gives the download: its `filename*` (RFC 5987) when it has one, else its `filename`. */
function downloadName(disposition: string): string {
  const extended = /filename\*=UTF-8''([^;]+)/.exec(disposition);
  if (extended?.[1]) return decodeURIComponent(extended[1]);
  return /filename="([^"]*)"/.exec(disposition)?.[1] ?? '';
}

/** The file a DONE export links to, checked against the size and SHA-256 it names and gunzipped. */
async function fileOf(done: ExportState, fileName: string): Promise<Buffer> {
  expect(done).toMatchObject({ status: 'DONE', error: null, bytes: expect.any(Number), sha256: expect.any(String) });
  const download = await fetch(done.url ?? '');
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toBe('application/gzip');
  expect(downloadName(download.headers.get('content-disposition') ?? '')).toBe(`${fileName}.csv.gz`);
  const file = Buffer.from(await download.arrayBuffer());
  expect(file.length).toBe(done.bytes);
  expect(createHash('sha256').update(file).digest('hex')).toBe(done.sha256);
  return gunzipSync(file);
}

/** The lines of a CSV whose fields hold no line break, the header first (CRLF line ends, the last one too). */
function linesOf(csv: string): string[] {
  expect(csv.endsWith('\r\n')).toBe(true);
  return csv.slice(0, -2).split('\r\n');
}

/** Sales beyond what the GET answers, and the identifiers of the seeded register's sales in the order it recorded them. */
const COPIES = 20_000;
const seeded: string[] = [];

/**
 * A seller whose one register has 1 + `COPIES` sales: one posted, the others written into the table as the POST writes
 * the items the CSV reads. Answers the seller.
 */
async function bigSeller(): Promise<string> {
  const corporateId = swedishCorporateId();
  const seller = `SE${corporateId}`;
  const register = await activateRegister(33, await registerApp(), corporateId, 'K1');
  const sale = saleOf(2500, 0, [['Cash', 2500]]);
  const answer = await v(33).post(`/${seller}/registrations/K1/sales`, sale, register);
  expect(answer.status, answer.text).toBe(201);
  seeded.push(sale.identifier);

  // What the POST wrote in the register's partition: the sale, its change item (a full copy of it keyed by its
  // version, which a diff, the CSV and its count read), the register's counter (the version the CSV reads up to),
  // and its day, journal and receipt items (which the CSV does not read).
  const { Items = [] } = await queryItems({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `R#${seller}#K1` },
    ConsistentRead: true,
  });
  const change = Items.find((item) => item.esk === `SALE#${sale.identifier}`) ?? {};
  const counter = Items.find((item) => item.sk === '#VERSION') ?? {};
  const vsk = String(change.vsk);
  const versionDigits = vsk.length - 'SALE#'.length;
  const changePrefix = String(change.sk).slice(0, -vsk.length);
  expect({ vsk, change: change.sk, version: change.version }).toEqual({
    vsk: `SALE#${String(counter.ver).padStart(versionDigits, '0')}`,
    change: `${changePrefix}${vsk}`,
    version: counter.ver,
  });

  // Copies of the change item with fresh identifiers, the versions and receipt numbers that follow, then the counter
  // moved past them (last, so no version is visible before its sale). Only what the CSV reads: the copies' own items
  // would double the seeding for nothing this test reads.
  const ledger = counter.ledger as { receipt: number };
  const copies: Item[] = [];
  for (let copy = 1; copy <= COPIES; copy += 1) {
    const identifier = randomUUID();
    const version = Number(counter.ver) + copy;
    const copyVsk = `SALE#${String(version).padStart(versionDigits, '0')}`;
    const prints = (change.prints as Item[]).map((print) => ({ ...print, receiptNumber: ledger.receipt + copy }));
    copies.push({
      ...change,
      identifier,
      version,
      vsk: copyVsk,
      prints,
      sk: `${changePrefix}${copyVsk}`,
      esk: `SALE#${identifier}`,
    });
    seeded.push(identifier);
  }
  await putInBulk(table(), copies);
  await putItem({
    TableName: table(),
    Item: { ...counter, ver: Number(counter.ver) + COPIES, ledger: { ...ledger, receipt: ledger.receipt + COPIES } },
  });
  return seller;
}

/**
 * The seeded seller's GET and its export's file, from the seeding to the download. Started before the other tests and
 * awaited by the last, so that the long export runs while they do.
 */
let big: Promise<{ refused: Answer; csv: string }>;

async function bigExport(): Promise<{ refused: Answer; csv: string }> {
  const seller = await bigSeller();
  // A lost answer (the function's own 500 when its 10 s ran out on two busy cores) is asked again, as a client would.
  let refused = await synchronous({}, seller);
  for (let retry = 0; retry < 2 && answerLost(refused); retry += 1) refused = await synchronous({}, seller);
  const csv = (await fileOf(await exported({}, seller), 'sales')).toString('utf8');
  return { refused, csv };
}

beforeAll(async () => {
  big = bigExport();
  // Awaited by its test; until then a failure must not count as unhandled.
  big.catch(() => undefined);
  const corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  const app = await registerApp();
  k1 = await activateRegister(33, app, corporateId, 'K1');
  const k2 = await activateRegister(33, app, corporateId, 'K2');

  // K2: a closed day three days ago (a refund, an open sale, cells to quote and to neutralise), then today's.
  await post(
    k2,
    'K2',
    saleOf(
      5000,
      2240,
      [
        ['Cash', 3000],
        ['EmvStandalone', 4240],
      ],
      { close: threeDaysAgo, sellerIdentifier: '=1+1' },
    ),
  );
  await post(k2, 'K2', saleOf(1250, 0, [['EmvStandalone', 1250]], { close: threeDaysAgo, sellerIdentifier: 'Åsa "Å", K' }));
  await post(k2, 'K2', saleOf(2500, 0, [['Cash', 2500]], { close: threeDaysAgo, refund: true, refundFor: 1 }));
  await post(k2, 'K2', saleOf(2500, 0, [], { close: threeDaysAgo, saleState: 'Open', prints: [] }));
  await closeAndReport(k2, 'K2', 1);
  await post(k2, 'K2', saleOf(0, 6720, [['WalletA', 6720]], { treasurer: '@home' }));
  // K1: a closed day two days ago, then today's.
  await post(k1, 'K1', saleOf(2500, 0, [['Cash', 2500]], { close: twoDaysAgo }));
  await post(k1, 'K1', saleOf(0, 2240, [['EmvStandalone', 2240]], { close: twoDaysAgo, treasurer: 'Björn' }));
  await closeAndReport(k1, 'K1', 1);
  await post(k1, 'K1', saleOf(2500, 2240, [['Cash', 4740]]));
}, 120_000);

describe('POST /v33/{sellerId}/sales/stats/csv-exports', () => {
  it.each<[string, CsvParams, number]>([
    ['today (the default period)', {}, 2],
    ['a week, named', { period: 7, fileName: 'kassa-juni' }, 8],
    ['one register', { period: 7, cashRegisterName: 'K1' }, 3],
    ['one day by from/to, a name beyond ASCII', { from: threeDaysAgo, to: threeDaysAgo, fileName: 'försäljning' }, 4],
    ['a period without sales (its header alone)', { from: 0, to: 1000 }, 0],
  ])('writes %s as the GET answers it, byte for byte', async (_, body, rows) => {
    const [done, answer] = await Promise.all([exported(body), synchronous(body)]);
    expect(answer.status, answer.text).toBe(200);
    expect(linesOf(answer.text)).toHaveLength(1 + rows);
    const csv = await fileOf(done, body.fileName ?? 'sales');
    expect(csv.equals(Buffer.from(answer.text, 'utf8'))).toBe(true);
    expect(done.expires).toBeGreaterThan(Date.now());
  });

  it('lists the seller’s exports newest first, each as its own read answers it; the seller’s registers read them', async () => {
    const list = await v(33).get(exportsOf(sellerId), k1);
    expect(list.status).toBe(200);
    const listed = list.body as ExportState[];
    expect(listed.length).toBeGreaterThanOrEqual(5);
    expect(listed.map((job) => job.id)).toEqual(
      listed
        .map((job) => job.id)
        .sort()
        .reverse(),
    );
    const [newest] = listed;
    const one = await v(33).get(`${exportsOf(sellerId)}/${newest?.id}`, k1);
    const { url, expires, ...rest } = one.body as ExportState;
    expect(newest).toMatchObject(rest);
  });
});

describe('the running export', () => {
  it('is answered (200, no Location) to the same parameters asked again while it runs; once late, they start one', async () => {
    const body: CsvParams = { period: 2, fileName: 'laufend' };
    const done = await exported(body);
    // The job's record as the worker leaves it mid-run, copied from this real one: RUNNING, and its parameters' marker.
    const { Items = [] } = await queryItems({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': `S#${sellerId}`, ':sk': 'EXPORT#sales-csv#' },
      ConsistentRead: true,
    });
    const model = Items.find((item) => item.id === done.id) ?? {};
    expect(model).toMatchObject({ status: 'DONE', periodKey: expect.any(String) });
    const id = `${String(Date.now()).padStart(15, '0')}0badcafe`;
    const deadline = Date.now() + 10 * 60_000;
    const running = {
      ...model,
      sk: String(model.sk).replace(done.id, id),
      id,
      status: 'RUNNING',
      finished: null,
      bytes: null,
      sha256: null,
      objectKey: null,
      fileName: null,
      deadline,
    };
    await putItem({ TableName: table(), Item: running });
    await putItem({
      TableName: table(),
      Item: {
        pk: model.pk,
        sk: `EXPORTING#sales-csv#${String(model.periodKey)}`,
        id,
        deadline,
        expiresAt: Math.ceil(deadline / 1000),
      },
    });

    const again = await ask(body);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id, status: 'RUNNING', from: null, to: null });
    expect(again.headers.get('location')).toBeNull();
    // Other parameters are another export.
    const other = await ask({ ...body, fileName: 'annan' });
    expect(other.status).toBe(202);

    await putItem({ TableName: table(), Item: { ...running, deadline: Date.now() - 1 } });
    const late = await v(33).get(`${exportsOf(sellerId)}/${id}`);
    expect(late.body).toMatchObject({ id, status: 'FAILED', error: { exception: 'InternalServerError' } });
    const fresh = await ask(body);
    expect(fresh.status).toBe(202);
    expect((fresh.body as ExportState).id).not.toBe(id);
    const ended = await Promise.all([fresh, other].map((answer) => finished(answer.headers.get('location') ?? '')));
    expect(ended.map((state) => state.status)).toEqual(['DONE', 'DONE']);
  });

  it('starts one export for requests of the same parameters that come at once: every other answer names it', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask({ period: 3, fileName: 'samtidigt' })));
    const ids = answers.map((answer) => (answer.body as ExportState).id);
    const startedIds = answers.filter((answer) => answer.status === 202).map((answer) => (answer.body as ExportState).id);
    expect(answers.every((answer) => answer.status === 202 || answer.status === 200)).toBe(true);
    // Each 200 answered an export that one of the 202s started, and no two 202s started the same one.
    expect(new Set(ids)).toEqual(new Set(startedIds));
    expect(startedIds).toHaveLength(new Set(startedIds).size);
    await Promise.all(
      answers.filter((answer) => answer.status === 202).map((answer) => finished(answer.headers.get('location') ?? '')),
    );
  });
});

describe('refusals', () => {
  /** The error body without its message, which may word the same refusal otherwise. */
  const refusal = (answer: Answer) => ({ status: answer.status, ...(answer.body as Item), message: expect.any(String) });

  it('refuses another seller’s user (403) on the POST, the list and one export', async () => {
    const [someId] = (((await v(33).get(exportsOf(sellerId))).body ?? []) as ExportState[]).map((job) => job.id);
    const stranger = await userOf('REGULAR_USER', null, [await newSeller()]);
    expectError(await ask({}, stranger), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(await v(33).get(exportsOf(sellerId), stranger), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(await v(33).get(`${exportsOf(sellerId)}/${someId}`, stranger), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
  });

  it('refuses what the GET refuses, as it does, and starts nothing: a bad file name, an unknown register, bad Dates', async () => {
    const before = ((await v(33).get(exportsOf(sellerId))).body as ExportState[]).length;
    const badName = await ask({ fileName: 'a/b' });
    expectError(badName, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    expect(refusal(badName)).toEqual(refusal(await synchronous({ fileName: 'a/b' })));
    for (const body of [{ cashRegisterName: 'K9' }, { from: today, to: threeDaysAgo }, { from: -1 }]) {
      const [posted, got] = await Promise.all([ask(body), synchronous(body)]);
      expect(got.status).not.toBe(200);
      expect(posted.body).toEqual(got.body);
      expect(posted.status).toBe(got.status);
    }
    expect(((await v(33).get(exportsOf(sellerId))).body as ExportState[]).length).toBe(before);
  });

  it('has no export of another seller’s (404)', async () => {
    const other = await newSeller();
    const done = await exported({ from: 0, to: 1000 }, other);
    expect(done.status).toBe('DONE');
    expectError(await v(33).get(`${exportsOf(sellerId)}/${done.id}`), 404, 'NotFound');
  });
});

describe('beyond 20,000 rows', () => {
  it('is refused by the GET (409 SERVER_IS_OVERLOADED) and written whole by the job: its header and every sale', async () => {
    const { refused, csv } = await big;
    expectError(refused, 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
    expect(detailOf(refused)).toMatchObject({ rows: COPIES + 1, maxRows: 20_000 });

    const lines = linesOf(csv);
    expect(lines).toHaveLength(1 + COPIES + 1);
    const [header, ...rows] = lines;
    const columns = header?.split(',') ?? [];
    expect(columns).toEqual([
      'date',
      'time',
      'cashRegisterName',
      'dayNumber',
      'receiptNumber',
      'identifier',
      'type',
      'state',
      'brutto',
      'vat',
      'vat 25%',
      'Cash',
      'sellerIdentifier',
      'treasurer',
    ]);
    const cells = rows.map((row) => Object.fromEntries(row.split(',').map((cell, at) => [columns[at], cell])));
    // One row per sale, in the order the register recorded them (the seeded ones in version order).
    expect(cells.map((row) => row.identifier)).toEqual(seeded);
    expect(cells.map((row) => Number(row.receiptNumber))).toEqual(seeded.map((_, at) => at + 1));
    for (const row of [cells[0], cells[1], cells[COPIES]]) {
      expect(row).toMatchObject({ cashRegisterName: 'K1', dayNumber: '1', type: 'sale', state: 'Paid', brutto: '2500' });
      expect(row).toMatchObject({ vat: '500', 'vat 25%': '500', Cash: '2500', sellerIdentifier: 'Anna' });
    }
  }, 180_000);
});
