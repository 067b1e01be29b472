/**
 * A register's writes when DynamoDB fails an attempt (docs/conventions.md §14, §16, §19). DynamoDB Local never
 * conflicts or throttles, so the failures are injected in the test process's client, inside the SDK's retry
 * middleware: the SDK treats each injected error as it would the service's answer (it retries throttling
 * itself; a cancelled transaction reaches the ledger's own retry). The fiscal function's handler runs
 * in-process on a real API Gateway event; what it stored is read back over HTTP, as a client sees it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  ProvisionedThroughputExceededException,
  ThrottlingException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as fiscal } from '#functions/fiscal/handler.ts';
import { db } from '#shared/db/client.ts';
import { MAX_ATTEMPTS } from '#shared/db/retry.ts';
import { type JournalEntry, newFiscalSeller, NORMAL_PRINT, registerReader } from '../support/fiscal-load.ts';
import { saleOf } from '../support/fiscal.ts';
import type { CallOptions } from '../support/http.ts';
import { registerKeys } from '#shared/fiscal/ledger.ts';

const INJECTOR = 'injectFaults';
afterEach(() => {
  db().middlewareStack.remove(INJECTOR);
});

/** When an injected fault strikes: before the attempt reaches DynamoDB Local, or after it committed (its answer lost). */
type Moment = 'before' | 'after';

/**
 * Fails the next `times` attempts of the register's ledger transaction (the TransactWriteItems that moves its
 * counter, docs/conventions.md §14) with `fault()`, and counts its attempts. Other transactions (an
 * activation's first call marks it WORKING) pass. The injector sits in the `deserialize` step, inside the
 * SDK's retry middleware (`finalizeRequest`), so a retry of the SDK resends the same request, ClientRequestToken included.
 */
function failLedgerWrites(counter: { pk: string; sk: string }, times: number, fault: () => Error, moment: Moment = 'before') {
  const seen = { attempts: 0, failed: 0 };
  const marks = [JSON.stringify(counter.pk), JSON.stringify(counter.sk)];
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify(args.input);
      if (context.commandName === 'TransactWriteItemsCommand' && marks.every((mark) => input.includes(mark))) {
        seen.attempts += 1;
        if (seen.failed < times) {
          seen.failed += 1;
          if (moment === 'after') await next(args);
          throw fault();
        }
      }
      return next(args);
    },
    { step: 'deserialize', name: INJECTOR },
  );
  return seen;
}

const cancelled = (code: string) => () =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${code}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: [{ Code: code }],
  });
const provisioned = () =>
  new ProvisionedThroughputExceededException({
    message: 'The level of configured provisioned throughput for the table was exceeded',
    $metadata: { httpStatusCode: 400 },
  });
/** A connection reset on the way back: the SDK retries it as a transient error. */
const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const throttling = () =>
  new ThrottlingException({ message: 'Rate of requests exceeds the allowed throughput', $metadata: { httpStatusCode: 400 } });

/** The attempts the SDK makes of one call (its `maxAttempts`), throttling retried among them. */
const sdkAttempts = (): Promise<number> => db().config.maxAttempts();

const fixture: APIGatewayProxyEventV2 = JSON.parse(
  readFileSync(new URL('../fixtures/http-api-v2-post-tax-base64.json', import.meta.url), 'utf8'),
);
const context = { awsRequestId: 'test', functionName: 'fiscal' } as Context;

/** A register's request as API Gateway delivers it to the fiscal function, answered in-process. */
function invoke(method: string, path: string, as: CallOptions, body?: unknown): Promise<APIGatewayProxyStructuredResultV2> {
  const apiKey = as.as !== undefined && as.as !== 'none' && 'apiKey' in as.as ? as.as.apiKey : '';
  return fiscal(
    {
      ...fixture,
      rawPath: path,
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-api-key': apiKey, ...as.headers },
      requestContext: { ...fixture.requestContext, http: { ...fixture.requestContext.http, method, path } },
      body: body === undefined ? undefined : JSON.stringify(body),
      isBase64Encoded: false,
    },
    context,
  );
}
const json = (result: APIGatewayProxyStructuredResultV2) => JSON.parse(result.body ?? 'null');

let seller: Awaited<ReturnType<typeof newFiscalSeller>>;
beforeAll(async () => {
  seller = await newFiscalSeller();
});

/** A register of its own for a test, its paths and what a client reads back of it. */
async function newRegister(cash: string) {
  const as = await seller.register(cash);
  const base = `/v33/${seller.sellerId}/registrations/${cash}`;
  return {
    as,
    reader: registerReader(seller.sellerId, cash, as),
    postSale: (sale: object) => invoke('POST', `${base}/sales`, as, sale),
    print: (identifier: string, key?: string) => invoke('POST', `${base}/sales/${identifier}/receipt`, withKey(as, key)),
    close: (key?: string) => invoke('POST', `${base}/days/current`, withKey(as, key)),
    deposit: (amount: number, key: string) => invoke('POST', `${base}/balance`, withKey(as, key), { amount, action: 'DEPOSIT' }),
    printReport: (day: number, key: string) => invoke('POST', `${base}/days/${day}/report`, withKey(as, key)),
    journalEvent: (event: object, key: string) =>
      invoke('POST', `/v33/${seller.sellerId}/e-journals/${cash}`, withKey(as, key), event),
    /** Fails the next `times` attempts of the register's ledger transaction. */
    failWrites: (times: number, fault: () => Error, moment?: Moment) =>
      failLedgerWrites(registerKeys.counter(seller.sellerId, cash), times, fault, moment),
  };
}

/** The register's credentials with an `Idempotency-Key` (docs/conventions.md §15), when one is given. */
const withKey = (as: CallOptions, key: string | undefined): CallOptions =>
  key === undefined ? as : { ...as, headers: { 'idempotency-key': key } };

const journalOf = (entries: readonly JournalEntry[]) =>
  entries.map((entry) => [entry.sequence, entry.type, entry.saleIdentifier, entry.receiptNumber]);

describe.each([
  [
    'a TransactionCanceledException (TransactionConflict) on the first attempt of a write',
    'F1',
    cancelled('TransactionConflict'),
    'before',
  ],
  [
    'a TransactionCanceledException (ThrottlingError) on the first attempt of a write',
    'F2',
    cancelled('ThrottlingError'),
    'before',
  ],
  ['a ProvisionedThroughputExceededException on the first attempt of a write', 'F3', provisioned, 'before'],
  ['a ThrottlingException on the first attempt of a write', 'F4', throttling, 'before'],
  ['the answer of a committed first attempt lost (ECONNRESET)', 'F5', connectionReset, 'after'],
] as const)('%s', (_, cash, fault, moment) => {
  it('a sale POST, a receipt print and a day close each succeed once, with no gap', async () => {
    const register = await newRegister(cash);
    const printedInline = saleOf(12_500, { prints: [NORMAL_PRINT] });
    const printedAfter = saleOf(4_000);

    const recording = register.failWrites(1, fault, moment);
    const posted = await register.postSale(printedInline);
    expect([posted.statusCode, json(posted), posted.headers?.['Idempotent-Replayed']]).toEqual([
      201,
      { identifier: printedInline.identifier },
      undefined,
    ]);
    expect(recording).toEqual({ attempts: 2, failed: 1 });
    db().middlewareStack.remove(INJECTOR);

    expect((await register.postSale(printedAfter)).statusCode).toBe(201);
    const printing = register.failWrites(1, fault, moment);
    const printed = await register.print(printedAfter.identifier);
    expect([printed.statusCode, json(printed)]).toMatchObject([201, { receiptNumber: 2, printType: 'Normal' }]);
    expect(printing).toEqual({ attempts: 2, failed: 1 });
    db().middlewareStack.remove(INJECTOR);

    const closing = register.failWrites(1, fault, moment);
    const closed = await register.close();
    expect([closed.statusCode, json(closed)]).toMatchObject([201, { dayNumber: 1, opened: false, grandTotal: 16_500 }]);
    expect(closing).toEqual({ attempts: 2, failed: 1 });

    const sales = await register.reader.sales();
    expect(sales.map((sale) => [sale.identifier, sale.prints.map((print) => print.receiptNumber)])).toEqual([
      [printedInline.identifier, [1]],
      [printedAfter.identifier, [2]],
    ]);
    // Four writes, four versions: nothing was written twice.
    expect(await register.reader.version()).toBe(4);
    expect(journalOf(await register.reader.journal())).toEqual([
      [1, 'DAY_OPENED', null, null],
      [2, 'SALE_RECORDED', printedInline.identifier, 1],
      [3, 'PRINT', printedInline.identifier, 1],
      [4, 'SALE_RECORDED', printedAfter.identifier, null],
      [5, 'PRINT', printedAfter.identifier, 2],
      [6, 'DAY_CLOSED', null, null],
    ]);
    expect(await register.reader.verdict()).toMatchObject({ valid: true, entries: 6 });
  });
});

describe.each([
  ['throttling on every attempt the SDK makes (ProvisionedThroughputExceededException)', 'G1', provisioned, 'sdk'],
  ['a TransactionConflict on every attempt the ledger makes', 'G2', cancelled('TransactionConflict'), 'ledger'],
])('%s', (_, cash, fault, retrying) => {
  it(
    'a sale POST, a receipt print and a day close fail with 503 and change nothing; sent again, each succeeds once',
    { timeout: 90_000 },
    async () => {
      const register = await newRegister(cash);
      const sale = saleOf(2_000);
      expect([await register.reader.sales(), await register.reader.journal(), await register.reader.version()]).toEqual([
        [],
        [],
        0,
      ]);
      let version = 0;
      for (const send of [() => register.postSale(sale), () => register.print(sale.identifier), () => register.close()]) {
        const times = retrying === 'sdk' ? await sdkAttempts() : MAX_ATTEMPTS;
        const faults = register.failWrites(times, fault);
        const refused = await send();
        expect([refused.statusCode, refused.headers?.['Retry-After'], json(refused)]).toMatchObject([
          503,
          '1',
          { exception: 'ServiceUnavailable', code: null },
        ]);
        expect(faults).toEqual({ attempts: times, failed: times });
        expect(await register.reader.version()).toBe(version);

        const accepted = await send();
        expect([accepted.statusCode, accepted.headers?.['Idempotent-Replayed']]).toEqual([201, undefined]);
        expect(faults).toEqual({ attempts: times + 1, failed: times });
        version += 1;
        expect(await register.reader.version()).toBe(version);
        db().middlewareStack.remove(INJECTOR);
      }

      const sales = await register.reader.sales();
      expect(sales.map((stored) => [stored.identifier, stored.prints.map((print) => print.receiptNumber)])).toEqual([
        [sale.identifier, [1]],
      ]);
      expect(journalOf(await register.reader.journal())).toEqual([
        [1, 'DAY_OPENED', null, null],
        [2, 'SALE_RECORDED', sale.identifier, null],
        [3, 'PRINT', sale.identifier, 1],
        [4, 'DAY_CLOSED', null, null],
      ]);
      expect(await register.reader.verdict()).toMatchObject({ valid: true, entries: 4 });
    },
  );
});

/** An error the SDK does not retry, struck after the transaction committed: the function answers 500, the write is made. */
const answerLost = () => new Error('The connection closed before the answer was read');

describe('the answer of a committed write lost, the write sent again with its Idempotency-Key', () => {
  it('a deposit, a receipt print, an e-journal event, a close and a Z report print: each made once, the repeat answers what the write gave', async () => {
    const register = await newRegister('L1');
    /** Commits the write with its answer lost (500), then sends it again with the key: the answer, replayed. */
    const lostThenRetried = async (write: (key: string) => Promise<APIGatewayProxyStructuredResultV2>) => {
      const key = randomUUID();
      const recording = register.failWrites(1, answerLost, 'after');
      expect((await write(key)).statusCode).toBe(500);
      expect(recording).toEqual({ attempts: 1, failed: 1 });
      db().middlewareStack.remove(INJECTOR);
      const again = await write(key);
      expect(again.headers?.['Idempotent-Replayed']).toBe('true');
      return [again.statusCode, json(again)];
    };

    expect(await lostThenRetried((key) => register.deposit(50_000, key))).toEqual([201, { amount: 50_000 }]);
    const sale = saleOf(12_500);
    expect((await register.postSale(sale)).statusCode).toBe(201);
    expect(await lostThenRetried((key) => register.print(sale.identifier, key))).toMatchObject([
      201,
      { receiptNumber: 1, printType: 'Normal', sale: { identifier: sale.identifier } },
    ]);
    const login = { type: 'LOGIN', created: Date.now() - 1000, data: {} };
    expect(await lostThenRetried((key) => register.journalEvent(login, key))).toEqual([201, { sequence: 5 }]);
    expect(await lostThenRetried((key) => register.close(key))).toMatchObject([
      201,
      { dayNumber: 1, opened: false, grandTotal: 12_500, cashAtClose: 62_500 },
    ]);
    expect(await lostThenRetried((key) => register.printReport(1, key))).toMatchObject([
      201,
      { type: 'Z', dayNumber: 1, sales: { brutto: 12_500 } },
    ]);

    // Five writes and a sale, six versions: nothing was written twice.
    expect(await register.reader.version()).toBe(6);
    expect(journalOf(await register.reader.journal())).toEqual([
      [1, 'DAY_OPENED', null, null],
      [2, 'BALANCE', null, null],
      [3, 'SALE_RECORDED', sale.identifier, null],
      [4, 'PRINT', sale.identifier, 1],
      [5, 'LOGIN', null, null],
      [6, 'DAY_CLOSED', null, null],
      [7, 'REPORT_PRINTED', null, null],
    ]);
    expect(await register.reader.verdict()).toMatchObject({ valid: true, entries: 7 });
  });
});
