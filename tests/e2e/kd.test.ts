/**
 * The kd path over HTTP (spec 4.3; docs/conventions.md §16, §25): a register's kd through the local broker, its
 * unit's edge bridge and the simulated unit, every outcome, one registration per receipt, late replies, fail
 * closed, the Kd log and who reads it.
 */
import { randomUUID } from 'node:crypto';
import { connectAsync } from 'mqtt';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readItem } from '#shared/db/reads.ts';
import type { KdRequest } from '#shared/kd/codec.ts';
import { kdTopics, type KdReplyMessage, bridgeKeys } from '#shared/kd/protocol.ts';
import { activateRegister, registerApp, saleOf } from '../support/fiscal.ts';
import { type CallOptions, detailOf, expectError, v } from '../support/http.ts';
import { simulatorOf, startBridge, startUnit, stopBridge, testSerial } from '../support/edge.ts';
import { newVendor, swedishCorporateId, userOf } from '../support/identity.ts';
import { activateOnUnit, ghostUnit, KD_DATE, kdOf, lineOf, sendKd, type UnitApp, unitApp } from '../support/kd.ts';

let app: UnitApp;
let corporateId: string;
let sellerId: string;
let serial: string;
/** Register R1 of the seller, on the started unit. */
let r1: CallOptions;

/** The command the unit gets for a kdOf body of register `cash` (Stockholm time, highest rate first). */
const commandOf = (cash: string, receiptNo: number, brutto = 12500, fields: Partial<KdRequest> = {}): KdRequest => ({
  date: '202607011205',
  org: corporateId,
  registerId: cash.toUpperCase().replace(/[^A-Z0-9]/g, ''),
  receiptNo,
  type: 'normal',
  returnAmount: 0,
  salesAmount: brutto,
  vat: [{ rate: 2500, amount: Math.round(brutto / 5) }],
  ...fields,
});

const responseOf = (answer: { body: unknown }) => (answer.body as { response: string }).response;

beforeAll(async () => {
  app = await unitApp();
  corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  serial = (await startUnit()).serial;
  r1 = await activateOnUnit(app, corporateId, 'R1', serial);
});

describe('a kd signed by the unit', () => {
  it('answers 201 with the control code the unit gave the kd line, in every version and both v33 bodies', async () => {
    const unit = simulatorOf(serial);
    const before = unit.counters().registered;

    const v33 = await sendKd(33, sellerId, 'R1', kdOf(1), r1);
    expect(v33.status).toBe(201);
    expect(v33.body).toEqual({ response: unit.controlCodeOf(lineOf(commandOf('R1', 1))), controlUnitSerial: serial });

    const named = await sendKd(
      33,
      sellerId,
      'R1',
      { ...kdOf(2), controlUnitSerial: serial, applicationPackage: app.applicationPackage },
      r1,
    );
    expect(named.body).toEqual({ response: unit.controlCodeOf(lineOf(commandOf('R1', 2))), controlUnitSerial: serial });

    const refund = await sendKd(26, sellerId, 'R1', kdOf(3, 5000, { refund: true, printType: 'Copy' }), r1);
    expect(responseOf(refund)).toBe(
      unit.controlCodeOf(lineOf(commandOf('R1', 3, 5000, { type: 'kopia', returnAmount: 5000, salesAmount: 0 }))),
    );

    // v15: brutto with the VAT per rate, and a null receipt number is the register's next one (no receipt printed yet:
    // 1, signed above).
    const v15 = await sendKd(15, sellerId, 'R1', { ...kdOf(null), brutto: 12500, vatRateToSum: { '25': 2500 } }, r1);
    expect(v15.body).toEqual(v33.body);
    expect(unit.counters().registered - before).toBe(3);
  });

  it('refuses bodies the unit could not take, and v33 bodies naming another unit or application', async () => {
    const tooMany = kdOf(9, 0, { vatRateToSum: { '25': 1, '12': 1, '6': 1, '0': 1, '1': 1 } });
    const five = await sendKd(33, sellerId, 'R1', tooMany, r1);
    expectError(five, 400, 'ValueNotValid', 'SIZE_SHOULD_BE_LESS_THEN');
    expect(detailOf(five)).toMatchObject({ field: 'vatRateToSum', sizeMax: 4 });
    expectError(
      await sendKd(33, sellerId, 'R1', kdOf(9, 0, { vatRateToSum: { '25%': 1 } }), r1),
      400,
      'ValueNotValid',
      'SHOULD_MATCH_PATTERN',
    );
    expectError(await sendKd(26, sellerId, 'R1', kdOf(null), r1), 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expectError(
      await sendKd(15, sellerId, 'R1', { ...kdOf(null), brutto: 1 }, r1),
      409,
      'InconsistentData',
      'SALE_TOTALS_INCONSISTENT',
    );
    const half = await sendKd(33, sellerId, 'R1', { ...kdOf(9), controlUnitSerial: serial }, r1);
    expectError(half, 400, 'ValueNotValid', 'SHOULD_NOT_BE_NULL');
    expect(detailOf(half).field).toBe('applicationPackage');
    const otherUnit = { ...kdOf(9), controlUnitSerial: 'OTHER', applicationPackage: app.applicationPackage };
    expectError(await sendKd(33, sellerId, 'R1', otherUnit, r1), 404, 'ReferenceNotFound');
    const otherApp = { ...kdOf(9), controlUnitSerial: serial, applicationPackage: 'se.example.other' };
    expectError(
      await sendKd(33, sellerId, 'R1', otherApp, r1),
      404,
      'ReferenceNotFound',
      'ACTIVATION_APPLICATION_PACKAGE_MUST_BE_NULL_OR_EQUAL',
    );
    expectError(await v(33).post(`/${sellerId}/registration/R1/kd`, kdOf(9)), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
  });
});

describe('every outcome', () => {
  it('answers each failure of the unit with its exception, and the next kd of the receipt is sent again', async () => {
    const unit = simulatorOf(serial);
    const cases: [number, () => void, string][] = [
      [100, () => unit.failNext({ kind: 'code', code: 5 }), 'ControlUnitReceipt'],
      [101, () => unit.failNext({ kind: 'garbage' }, 2), 'ControlUnitCommunication'],
      [102, () => unit.failNext({ kind: 'silence' }), 'ControlUnitUnavailable'],
    ];
    for (const [receipt, fail, exception] of cases) {
      fail();
      const failed = await sendKd(33, sellerId, 'R1', kdOf(receipt), r1);
      expectError(failed, 500, exception);
      if (exception === 'ControlUnitReceipt') expect(detailOf(failed).returnCode).toBe(5);
      const again = await sendKd(33, sellerId, 'R1', kdOf(receipt), r1);
      expect(responseOf(again)).toBe(unit.controlCodeOf(lineOf(commandOf('R1', receipt))));
    }
  });

  it('answers 500 ControlUnitUnavailable at once for a stopped bridge, sending nothing, and signs once it is back', async () => {
    const unit = simulatorOf(serial);
    await stopBridge(serial);
    const before = unit.counters().requests;
    expectError(await sendKd(33, sellerId, 'R1', kdOf(200), r1), 500, 'ControlUnitUnavailable');
    await startBridge(serial);
    expect(unit.counters().requests).toBe(before);
    expect((await sendKd(33, sellerId, 'R1', kdOf(200), r1)).status).toBe(201);
  });

  it('answers 503 REQUIRES_SETUP for a unit whose bridge was never provisioned or never connected', async () => {
    const never = testSerial();
    const register = await activateOnUnit(app, corporateId, 'N1', never);
    expectError(await sendKd(33, sellerId, 'N1', kdOf(1), register), 503, 'ServiceUnavailable', 'REQUIRES_SETUP');
    await ghostUnit(never, undefined);
    expectError(await sendKd(33, sellerId, 'N1', kdOf(1), register), 503, 'ServiceUnavailable', 'REQUIRES_SETUP');
    await ghostUnit(never, { online: false });
    expectError(await sendKd(33, sellerId, 'N1', kdOf(1), register), 500, 'ControlUnitUnavailable');
  });

  it('answers 500 ControlUnitUnavailable when no reply comes by the deadline', async () => {
    const silent = testSerial();
    await ghostUnit(silent, { online: true });
    const register = await activateOnUnit(app, corporateId, 'G1', silent);
    expectError(await sendKd(33, sellerId, 'G1', kdOf(1), register), 500, 'ControlUnitUnavailable');
  });

  it('answers 500 ControlUnitReceipt WORKING_WITH_CU_IS_NOT_SUPPORTED_BY_APP for a register without a unit', async () => {
    const plain = await activateRegister(33, await registerApp(), corporateId, 'P1');
    expectError(
      await sendKd(33, sellerId, 'P1', kdOf(1), plain),
      500,
      'ControlUnitReceipt',
      'WORKING_WITH_CU_IS_NOT_SUPPORTED_BY_APP',
    );
  });
});

describe('one registration per receipt', () => {
  it('answers a repeat with the stored reply without asking the unit, and refuses other content', async () => {
    const unit = simulatorOf(serial);
    const first = await sendKd(33, sellerId, 'R1', kdOf(300), r1);
    const requests = unit.counters().requests;
    const repeat = await sendKd(26, sellerId, 'R1', kdOf(300), r1);
    expect(repeat.body).toEqual(first.body);
    expect([first.headers.get('idempotent-replayed'), repeat.headers.get('idempotent-replayed')]).toEqual([null, 'true']);
    expect(unit.counters().requests).toBe(requests);
    expectError(await sendKd(33, sellerId, 'R1', kdOf(300, 12600), r1), 409, 'VersionConflict');
  });

  it('with an Idempotency-Key: a repeat is answered by the claim, the key with another kd is 409 and sends nothing', async () => {
    const unit = simulatorOf(serial);
    const withKey = { ...r1, headers: { 'Idempotency-Key': randomUUID() } };
    const first = await sendKd(33, sellerId, 'R1', kdOf(310), withKey);
    const requests = unit.counters().requests;
    const repeat = await sendKd(33, sellerId, 'R1', kdOf(310), withKey);
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect([repeat.status, repeat.headers.get('idempotent-replayed'), repeat.body]).toEqual([201, 'true', first.body]);
    expectError(await sendKd(33, sellerId, 'R1', kdOf(311), withKey), 409, 'VersionConflict');
    expect(unit.counters().requests).toBe(requests);
    // Receipt 311 was never asked for: its own kd is sent and signed.
    expect((await sendKd(33, sellerId, 'R1', kdOf(311), r1)).status).toBe(201);
    expect(unit.counters().requests).toBe(requests + 1);
  });

  it('sends one request for the same kd sent concurrently, and every sender gets its reply', async () => {
    const unit = simulatorOf(serial);
    const requests = unit.counters().requests;
    unit.failNext({ kind: 'delay', ms: 500 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => sendKd(33, sellerId, 'R1', kdOf(301), r1)));
    const code = unit.controlCodeOf(lineOf(commandOf('R1', 301)));
    expect(answers.map((answer) => [answer.status, responseOf(answer)])).toEqual(answers.map(() => [201, code]));
    expect(unit.counters().requests).toBe(requests + 1);
  });

  it('never takes a reply that came after its deadline for another request; the receipt it belongs to gets it', async () => {
    const silent = testSerial();
    await ghostUnit(silent, { online: true });
    const register = await activateOnUnit(app, corporateId, 'L1', silent);
    expectError(await sendKd(33, sellerId, 'L1', kdOf(1), register), 500, 'ControlUnitUnavailable');
    const journal = (await v(33).get(`/${sellerId}/e-journals/L1`)).body as { type: string; data: { correlationId: string } }[];
    const correlationId = journal.find((entry) => entry.type === 'KD_REQUEST')?.data.correlationId ?? '';

    // The unit's late reply reaches the table through the broker and the reply rule.
    const late: KdReplyMessage = {
      correlationId,
      serial: silent,
      outcome: 'REPLY',
      returnCode: 0,
      controlCode: 'LATE-CODE',
      detail: null,
      bridgeVersion: 'test',
      at: Date.now(),
    };
    const client = await connectAsync(inject('mqttUrl'), { clientId: `kd-test-${randomUUID()}` });
    await client.publishAsync(kdTopics.reply(silent), JSON.stringify(late), { qos: 1 });
    await client.endAsync();
    while (!(await readItem(bridgeKeys.reply(correlationId)))) await new Promise((resolve) => setTimeout(resolve, 20));

    // Another receipt's request gets a new correlation id: the late reply is not its answer.
    expectError(await sendKd(33, sellerId, 'L1', kdOf(2), register), 500, 'ControlUnitUnavailable');
    // The late receipt's repeat finds its own reply: the unit signed it, once.
    expect((await sendKd(33, sellerId, 'L1', kdOf(1), register)).body).toEqual({
      response: 'LATE-CODE',
      controlUnitSerial: silent,
    });
    const outcomes = ((await v(33).get(`/${sellerId}/e-journals/L1`)).body as { type: string; data: Record<string, unknown> }[])
      .filter((entry) => entry.type === 'KD_OUTCOME')
      .map((entry) => [entry.data.correlationId === correlationId, entry.data.outcome, entry.data.late]);
    expect(outcomes).toEqual([
      [true, 'TIMEOUT', false],
      [false, 'TIMEOUT', false],
      [true, 'SIGNED', true],
    ]);
  });

  it('gives a register id at the unit to one register of the seller only', async () => {
    const twin = await activateOnUnit(app, corporateId, 'r-1', serial);
    expectError(await sendKd(33, sellerId, 'r-1', kdOf(1), twin), 409, 'CashRegisterNameIsNotUnique');
  });
});

describe('fail closed', () => {
  it("stores a Normal print only with its kd's code, and the Z report counts only signed receipts", async () => {
    const register = await activateOnUnit(app, corporateId, 'F1', serial);
    const path = `/${sellerId}/registrations/F1`;
    const signed = await sendKd(33, sellerId, 'F1', kdOf(1, 1000), register);
    const code = responseOf(signed);
    const print = (controlNumber: string | null) => [{ printType: 'Normal', receiptNumber: null, controlNumber }];

    expectError(
      await v(33).post(`${path}/sales`, saleOf(1000, { prints: print(null) }), register),
      409,
      'InconsistentData',
      'CONTROL_CODE_MISSING',
    );
    expectError(
      await v(33).post(`${path}/sales`, saleOf(1000, { prints: print('WRONG') }), register),
      409,
      'InconsistentData',
      'CONTROL_CODE_MISSING',
    );
    expectError(
      await v(33).post(`${path}/sales`, saleOf(900, { prints: print(code) }), register),
      409,
      'InconsistentData',
      'CONTROL_CODE_MISSING',
    );
    const sale = saleOf(1000, { prints: print(code) });
    expect((await v(33).post(`${path}/sales`, sale, register)).status).toBe(201);
    const receipt = await v(33).get(`${path}/sales/${sale.identifier}/receipt`, register);
    expect(receipt.body).toMatchObject({ receiptNumber: 1, printType: 'Normal', controlNumber: code });

    // An unsigned sale stays unprinted (Open, so the day can close) and out of the receipts.
    const unsigned = saleOf(700, { saleState: 'Open', payments: [], prints: print('WRONG') });
    expectError(await v(33).post(`${path}/sales`, unsigned, register), 409, 'InconsistentData', 'CONTROL_CODE_MISSING');
    expect((await v(33).post(`${path}/sales`, { ...unsigned, prints: [] }, register)).status).toBe(201);
    expect((await v(33).post(`${path}/days/current`, undefined, register)).status).toBe(201);
    const report = await v(33).get(`${path}/days/1/report`, register);
    expect(report.body).toMatchObject({
      type: 'Z',
      receipts: 1,
      sales: { count: 1, brutto: 1000 },
      unfinished: { count: 1, brutto: 700 },
    });
  });
});

describe('GET /kd-facets', () => {
  it('lists the Kd log by the receipt date, filtered and paged, for whoever may see the seller', async () => {
    const facets = async (query: string, options?: CallOptions, version: 15 | 26 | 33 = 33) =>
      (await v(version).get(`/kd-facets${query}`, options)).body as {
        cashRegisterName: string;
        receiptNumber: number;
        outcome: string;
        kdDate: number;
        controlUnitSerial: string;
        activation: number;
        errorStackTrace: null;
        softwareVendor: number;
      }[];
    const corporate = swedishCorporateId();
    const seller = `SE${corporate}`;
    const register = await activateOnUnit(app, corporate, 'K1', serial);
    for (const [receipt, minutes] of [
      [1, 2],
      [2, 0],
      [3, 1],
    ] as const) {
      expect((await sendKd(33, seller, 'K1', kdOf(receipt, 100, { date: KD_DATE + minutes * 60_000 }), register)).status).toBe(
        201,
      );
    }
    simulatorOf(serial).failNext({ kind: 'code', code: 7 });
    expectError(await sendKd(33, seller, 'K1', kdOf(4, 100, { date: KD_DATE + 180_000 }), register), 500, 'ControlUnitReceipt');

    const all = await facets(`?seller=${seller}`);
    expect(all.map((record) => [record.receiptNumber, record.outcome])).toEqual([
      [2, 'SIGNED'],
      [3, 'SIGNED'],
      [1, 'SIGNED'],
      [4, 'REFUSED'],
    ]);
    expect(all[0]).toMatchObject({ cashRegisterName: 'K1', controlUnitSerial: serial, errorStackTrace: null, kdDate: KD_DATE });
    expect(
      (await facets(`?seller=${seller}&orderBy=kdDate&orderDesc=true&firstResult=1&maxResults=2`)).map((r) => r.receiptNumber),
    ).toEqual([1, 3]);
    expect(
      (await facets(`?seller=${seller}&cashRegisterName=K1&maxResults=1`, undefined, 15)).map((r) => r.receiptNumber),
    ).toEqual([2]);
    expect(await facets(`?seller=${seller}&controlUnit=OTHER`)).toEqual([]);
    expect((await facets(`?controlUnit=${serial}&softwareVendor=${app.softwareVendor}`)).length).toBeGreaterThanOrEqual(4);

    const vendorUser = await userOf('SOFTWARE_VENDOR', app.softwareVendor);
    expect((await facets(`?seller=${seller}`, vendorUser)).length).toBe(4);
    const ownVendor = await facets('', vendorUser);
    expect(ownVendor.length).toBeGreaterThanOrEqual(4);
    expect(ownVendor.filter((record) => record.softwareVendor !== app.softwareVendor)).toEqual([]);
    const stranger = await userOf('SOFTWARE_VENDOR', await newVendor('Annan AB'));
    expectError(await v(33).get(`/kd-facets?seller=${seller}`, stranger), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(
      await v(33).get(`/kd-facets?softwareVendor=${app.softwareVendor}`, stranger),
      403,
      'Forbidden',
      'INSUFFICIENT_ACCESS_RIGHTS',
    );
    const owner = await userOf('REGULAR_USER', null, [seller]);
    expect((await facets(`?seller=${seller}`, owner)).length).toBe(4);
    expectError(await v(33).get('/kd-facets', owner), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(await v(33).get(`/kd-facets?seller=${sellerId}`, owner), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    expectError(await v(33).get(`/kd-facets?seller=${seller}`, register), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');

    expectError(await v(33).get('/kd-facets?cashRegisterName=K1'), 404, 'ReferenceNotFound', 'SELLER_SHOULD_BE_PROVIDED_FOR_CR');
    expectError(await v(15).get('/kd-facets?cashRegisterName=K1'), 409, 'InconsistentData', 'SELLER_SHOULD_BE_PROVIDED_FOR_CR');
    expectError(
      await v(26).get(`/kd-facets?seller=${seller}&cashRegisterName=K9`),
      404,
      'ReferenceNotFound',
      'SELLER_HAS_NOT_REGISTRATION',
    );
    expectError(
      await v(15).get(`/kd-facets?seller=${seller}&cashRegisterName=K9`),
      409,
      'InconsistentData',
      'SELLER_HAS_NOT_REGISTRATION',
    );
    expectError(await v(33).get(`/kd-facets?seller=SE${swedishCorporateId()}`), 404, 'ReferenceNotFound');
    expectError(await v(33).get('/kd-facets?orderBy=brutto'), 400, 'TypeMismatch');
    expectError(await v(33).get('/kd-facets?maxResults=1001'), 409, 'InconsistentData', 'SERVER_IS_OVERLOADED');
    expectError(await v(33).get('/kd-facets?firstResult=-1'), 409, 'InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE');
  });
});

describe('GET /kd-facets over the sharded directories', () => {
  /** Records of the shared table's extremes: no other test dates a kd before 1972 or after 2089. */
  const OLDEST = Date.UTC(1971, 0, 4, 9, 0);
  const NEWEST = Date.UTC(2090, 0, 2, 9, 0);
  const MINUTE = 60_000;
  type Listed = { cashRegisterName: string; receiptNumber: number; kdDate: number; softwareVendor: number };
  /** The records a list shows, by what the test knows of each: the register, the receipt, the date it gave. */
  const listed = async (query: string[], options?: CallOptions, version: 15 | 33 = 33) => {
    const answer = await v(version).get(`/kd-facets?${query.join('&')}`, options);
    expect(answer.status).toBe(200);
    return (answer.body as Listed[]).map(({ cashRegisterName, receiptNumber, kdDate }) => ({
      cashRegisterName,
      receiptNumber,
      kdDate,
    }));
  };
  /** A list read page by page (`firstResult` from 0, `maxResults` each size in turn), the pages joined. */
  const paged = async (query: string[], sizes: number[], options?: CallOptions, version: 15 | 33 = 33) => {
    const pages: Awaited<ReturnType<typeof listed>>[] = [];
    let first = 0;
    for (const size of sizes) {
      pages.push(await listed([...query, `firstResult=${first}`, `maxResults=${size}`], options, version));
      first += size;
    }
    return pages.flat();
  };

  it("merges all records' and a vendor's shards into one date order, each record once, paged across pages", async () => {
    // Prepare: a vendor of its own, four registers on one unit, ten kds each: 40 records, about 2.5 a shard. Record
    // j (register j / 10, receipt j % 10 + 1) is dated at place (17 j) mod 40 of the order, so the order is not the
    // order they were sent in: places 0-19 a minute apart in 1971, 20-39 a minute apart in 2090.
    const vendorApp = await unitApp();
    const unit = (await startUnit()).serial;
    const seller = `SE${swedishCorporateId()}`;
    const names = ['M1', 'M2', 'M3', 'M4'];
    const registers = await Promise.all(names.map((name) => activateOnUnit(vendorApp, seller.slice(2), name, unit)));
    const made = names.flatMap((cashRegisterName, register) =>
      Array.from({ length: 10 }, (_, index) => {
        const place = (17 * (register * 10 + index)) % 40;
        const kdDate = place < 20 ? OLDEST + place * MINUTE : NEWEST + (place - 20) * MINUTE;
        return { cashRegisterName, receiptNumber: index + 1, kdDate, place };
      }),
    );
    await Promise.all(
      registers.map(async (register, index) => {
        for (const record of made.filter(({ cashRegisterName }) => cashRegisterName === names[index])) {
          const body = kdOf(record.receiptNumber, 100, { date: record.kdDate });
          expect((await sendKd(33, seller, record.cashRegisterName, body, register)).status).toBe(201);
        }
      }),
    );
    const inPlace = [...made]
      .sort((a, b) => a.place - b.place)
      .map(({ cashRegisterName, receiptNumber, kdDate }) => ({ cashRegisterName, receiptNumber, kdDate }));
    const oldest = inPlace.slice(0, 20);
    const newest = inPlace.slice(20).reverse();
    const newestFirst = [...inPlace].reverse();

    // Act: the hyper admin's unfiltered list (all records), whose first 20 either way are ours; the vendor user's (the
    // vendor's directory), exactly ours.
    const allAscending = await paged(['orderBy=kdDate'], [7, 7, 6]);
    const allAscendingV15 = await paged([], [3, 11, 6], undefined, 15);
    const allDescending = await paged(['orderBy=kdDate', 'orderDesc=true'], [7, 7, 6]);
    const vendorUser = await userOf('SOFTWARE_VENDOR', vendorApp.softwareVendor);
    const vendorAscending = await paged(['orderDesc=false'], [7, 7, 7, 7, 7, 7], vendorUser);
    const vendorDescending = await paged(['orderDesc=true'], [9, 9, 9, 9, 9], vendorUser);
    const vendorMiddle = await listed(['orderDesc=true', 'firstResult=13', 'maxResults=15'], vendorUser);
    const vendorPastTheEnd = await listed(['firstResult=40', 'maxResults=5'], vendorUser);
    // One record deep in the order: a shard must be read to the page's end, not to its size.
    const allDeep = await listed(['orderDesc=true', 'firstResult=17', 'maxResults=1']);
    const vendorDeep = await listed(['firstResult=30', 'maxResults=1'], vendorUser);

    // Assess
    expect(allAscending).toEqual(oldest);
    expect(allAscendingV15).toEqual(oldest);
    expect(allDescending).toEqual(newest);
    expect(vendorAscending).toEqual(inPlace);
    expect(vendorDescending).toEqual(newestFirst);
    expect(vendorMiddle).toEqual(newestFirst.slice(13, 28));
    expect(vendorPastTheEnd).toEqual([]);
    expect(allDeep).toEqual(newest.slice(17, 18));
    expect(vendorDeep).toEqual(inPlace.slice(30, 31));
    // The seller's and the unit's directories, one partition each, hold the same records in the same order.
    expect(await listed([`seller=${seller}`, 'cashRegisterName=M2', 'orderDesc=true'], vendorUser)).toEqual(
      newestFirst.filter(({ cashRegisterName }) => cashRegisterName === 'M2'),
    );
    expect(await listed([`controlUnit=${unit}`, 'firstResult=2', 'maxResults=3'], vendorUser)).toEqual(inPlace.slice(2, 5));
  }, 120_000);
});

describe('tenant isolation', () => {
  it("keeps each seller's claims and log its own: a register never signs on another seller's path", async () => {
    const corporate = swedishCorporateId();
    const other = `SE${corporate}`;
    const theirUnit = (await startUnit()).serial;
    const theirs = await activateOnUnit(app, corporate, 'R1', theirUnit);
    expectError(await sendKd(33, sellerId, 'R1', kdOf(400), theirs), 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
    // Their R1 is another register: its receipt 1 is its own claim, signed for its own org number.
    const signed = await sendKd(33, other, 'R1', kdOf(1, 4200), theirs);
    expect(responseOf(signed)).toBe(
      simulatorOf(theirUnit).controlCodeOf(lineOf({ ...commandOf('R1', 1, 4200), org: corporate })),
    );
    const theirUser = await userOf('REGULAR_USER', null, [other]);
    const listed = (await v(33).get(`/kd-facets?seller=${other}`, theirUser)).body as { sellerId: string }[];
    expect(listed.map((record) => record.sellerId)).toEqual([other]);
  });
});
