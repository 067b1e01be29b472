/** A register's trading day over HTTP (spec 4.7; docs/conventions.md §14-§19): sales, receipts, balance, close, reports, journal. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyJournal } from '#shared/fiscal/verify-journal.ts';
import { activateRegister, registerApp, saleOf } from '../support/fiscal.ts';
import { type CallOptions, detailOf, expectError, v } from '../support/http.ts';
import { startUnit } from '../support/edge.ts';
import { DAY, newApp, newVendor, swedishCorporateId } from '../support/identity.ts';
import { activateOnUnit, kdOf, sendKd, unitApp } from '../support/kd.ts';

let sellerId: string;
let kassa: CallOptions;
const base = () => `/${sellerId}/registrations/K1`;

beforeAll(async () => {
  const corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  kassa = await activateRegister(33, await registerApp(), corporateId, 'K1');
  // The sales' product is in one category, so reports show sales per category.
  await v(33).put(`/${sellerId}/taxes/t25`, { vat: 25, name: 'Moms' });
  await v(33).put(`/${sellerId}/products/p1`, {
    name: 'Kaffe',
    barcode: '1',
    netto: 100,
    tax: 't25',
    salesUnit: 'Piece',
    countedInPrice: true,
  });
  await v(33).put(`/${sellerId}/categories/c1`, { name: 'Drycker' });
  await v(33).put(`/${sellerId}/commodities/p1-c1`, { product: 'p1', category: 'c1' });
});

describe('a trading day', () => {
  it('records sales once, prints receipts in sequence, closes, reports and journals the day', async () => {
    const first = saleOf(12500);
    const posted = await v(33).post(`${base()}/sales`, first, kassa);
    expect([posted.status, posted.text]).toEqual([201, `${JSON.stringify({ identifier: first.identifier })}\n`]);
    expect(posted.body).toEqual({ identifier: first.identifier });

    const replay = await v(33).post(`${base()}/sales`, first, kassa);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectError(await v(33).post(`${base()}/sales`, { ...first, brutto: 1 }, kassa), 409, 'VersionConflict');

    const receipt = await v(33).post(`${base()}/sales/${first.identifier}/receipt`, undefined, kassa);
    expect(receipt.status).toBe(201);
    expect(receipt.body).toMatchObject({ receiptNumber: 1, printType: 'Normal', cashRegisterName: 'K1' });
    expectError(
      await v(33).post(`${base()}/sales/${first.identifier}/receipt`, undefined, kassa),
      422,
      'UnprocessableEntity',
      'RECEIPT_IS_PRINTED_ALREADY',
    );

    const copy = await v(33).get(`${base()}/sales/${first.identifier}/copy`, kassa);
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({ receiptNumber: 1, printType: 'Copy' });

    const second = saleOf(5000, { prints: [{ printType: 'Normal', receiptNumber: 3 }] });
    const outOfSequence = await v(33).post(`${base()}/sales`, second, kassa);
    expectError(outOfSequence, 409, 'InconsistentData', 'RECEIPT_NUMBER_OUT_OF_SEQUENCE');
    expect(detailOf(outOfSequence).expected).toBe(2);
    expect(
      (await v(33).post(`${base()}/sales`, { ...second, prints: [{ printType: 'Normal', receiptNumber: 2 }] }, kassa)).status,
    ).toBe(201);

    const refund = saleOf(2500, { refund: true, refundFor: 1, prints: [{ printType: 'Normal', receiptNumber: null }] });
    expect((await v(33).post(`${base()}/sales`, refund, kassa)).status).toBe(201);
    const tooMuch = await v(33).post(`${base()}/sales`, saleOf(10001, { refund: true, refundFor: 1 }), kassa);
    expectError(tooMuch, 400, 'ValueNotValid', 'VALUE_SHOULD_BE_LESS_THEN');
    expect(detailOf(tooMuch).valueMax).toBe(10000);

    expect((await v(33).post(`${base()}/balance`, { amount: 1000, action: 'DEPOSIT' }, kassa)).status).toBe(201);
    const balance = await v(33).get(`${base()}/balance`, kassa);
    expect(balance.body).toEqual({ amount: 12500 + 5000 - 2500 + 1000 });

    const unprinted = saleOf(700);
    await v(33).post(`${base()}/sales`, unprinted, kassa);
    expectError(
      await v(33).post(`${base()}/days/current`, undefined, kassa),
      422,
      'UnprocessableEntity',
      'RECEIPT_IS_NOT_PRINTED',
    );
    await v(33).post(`${base()}/sales/${unprinted.identifier}/receipt`, undefined, kassa);

    const xReport = await v(33).get(`${base()}/days/1/report`, kassa);
    expect(xReport.body).toMatchObject({ type: 'X' });
    expectError(await v(33).post(`${base()}/days/1/report`, undefined, kassa), 404, 'NotFound', 'DAY_IS_NOT_CLOSED');

    const closed = await v(33).post(`${base()}/days/current`, undefined, kassa);
    expect(closed.status).toBe(201);
    expect(closed.body).toMatchObject({
      dayNumber: 1,
      opened: false,
      cashAtClose: 16700,
      grandTotal: 18200,
      grandTotalRefund: 2500,
    });
    expectError(await v(33).post(`${base()}/days/current`, undefined, kassa), 422, 'UnprocessableEntity', 'DAY_IS_CLOSED');
    expectError(await v(33).post(`${base()}/sales`, saleOf(100), kassa), 404, 'ReferenceNotFound', 'REPORT_IS_NOT_PRINTED');

    const zReport = await v(33).get(`${base()}/days/1/report`, kassa);
    expect(zReport.body).toMatchObject({
      type: 'Z',
      reportNumber: 1,
      salesPerCategory: [{ category: 'Drycker', brutto: 12500 + 5000 - 2500 + 700 }],
    });
    expect((await v(33).post(`${base()}/days/1/report`, undefined, kassa)).status).toBe(201);
    expectError(await v(33).post(`${base()}/days/1/report`, undefined, kassa), 404, 'NotFound', 'REPORT_IS_PRINTED_ALREADY');

    expect((await v(33).post(`${base()}/sales`, saleOf(100), kassa)).status).toBe(201);
    const days = await v(33).get(`${base()}/days`, kassa);
    expect((days.body as { dayNumber: number; opened: boolean }[]).map((day) => [day.dayNumber, day.opened])).toEqual([
      [1, false],
      [2, true],
    ]);

    const journal = await v(33).get(`/${sellerId}/generated-e-journals/K1`, kassa);
    expect(journal.status).toBe(200);
    const document = journal.body as { publicKeyFileName: string; entries: { sequence: number }[] };
    const pem = await v(33).get(`/noauth/activations/public-keys/${document.publicKeyFileName}`, { as: 'none' });
    const verdict = verifyJournal(document, pem.text);
    expect(verdict).toMatchObject({ valid: true });
    expect(document.entries.map((entry) => entry.sequence)).toEqual(document.entries.map((_, index) => index + 1));
  });
});

describe('a register with a control unit (fail closed)', () => {
  it('stores no Normal or Copy print without a control code the service holds, and journals none', async () => {
    const cuApp = await newApp(await newVendor(), { controlUnitRequired: true, corporateIdValidationMethod: 'NONE' });
    const activated = await v(33).post('/activations-advanced', {
      country: 'SE',
      corporateId: sellerId.slice(2),
      companyName: 'Dagbutiken',
      cashRegisterName: 'CU1',
      features: [],
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      applicationPackage: cuApp.applicationPackage,
      controlUnitSerial: `CU${randomUUID().slice(0, 10)}`,
      controlUnitLocation: 'DEVICE',
      controlUnitGeolocation: { city: 'Malmö', postalCode: '211 20' },
      installationCreationInfo: { deviceId: randomUUID().slice(0, 16), buildInfo: { os: 'Android 14' } },
    });
    expect(activated.status).toBe(201);
    const unitRegister: CallOptions = { as: { apiKey: (activated.body as { apiKey: string }).apiKey } };
    const path = `/${sellerId}/registrations/CU1`;
    const printed = saleOf(1000, { prints: [{ printType: 'Normal', receiptNumber: null, controlNumber: 'FORGED-CODE' }] });
    expectError(await v(33).post(`${path}/sales`, printed, unitRegister), 409, 'InconsistentData', 'CONTROL_CODE_MISSING');

    const unprinted = saleOf(1000, { prints: [{ printType: 'Proforma', receiptNumber: null }] });
    expect((await v(33).post(`${path}/sales`, unprinted, unitRegister)).status).toBe(201);
    expectError(
      await v(33).post(`${path}/sales/${unprinted.identifier}/receipt`, undefined, unitRegister),
      409,
      'InconsistentData',
      'CONTROL_CODE_MISSING',
    );

    const journal = await v(33).get(`/${sellerId}/e-journals/CU1`, unitRegister);
    const prints = (journal.body as { type: string; printType: string | null }[]).filter((entry) => entry.type === 'PRINT');
    expect(prints.map((entry) => entry.printType)).toEqual(['Proforma']);
  });

  it("stores a Normal print and its Copy with the codes the register's unit gave them through kd, and journals the codes", async () => {
    const serial = (await startUnit()).serial;
    const register = await activateOnUnit(await unitApp(), sellerId.slice(2), 'CU2', serial);
    const path = `/${sellerId}/registrations/CU2`;
    const signed = await sendKd(33, sellerId, 'CU2', kdOf(1, 1000), register);
    const code = (signed.body as { response: string }).response;
    const sale = saleOf(1000, { prints: [{ printType: 'Normal', receiptNumber: null, controlNumber: code }] });
    expect((await v(33).post(`${path}/sales`, sale, register)).status).toBe(201);

    const copyCode = (await sendKd(33, sellerId, 'CU2', kdOf(1, 1000, { printType: 'Copy' }), register)).body as {
      response: string;
    };
    const withCopy = {
      ...sale,
      prints: [
        { printType: 'Normal', receiptNumber: 1, controlNumber: code },
        { printType: 'Copy', receiptNumber: 1, controlNumber: copyCode.response },
      ],
    };
    // A copy carrying another print's code is refused; the one copy with its own code is stored; a second is refused.
    const forged = { ...withCopy, prints: [withCopy.prints[0], { printType: 'Copy', receiptNumber: 1, controlNumber: code }] };
    expectError(await v(33).put(`${path}/sales`, forged, register), 409, 'InconsistentData', 'CONTROL_CODE_MISSING');
    expect((await v(33).put(`${path}/sales`, withCopy, register)).status).toBe(204);
    const second = {
      ...withCopy,
      prints: [...withCopy.prints, { printType: 'Copy', receiptNumber: 1, controlNumber: copyCode.response }],
    };
    expectError(await v(33).put(`${path}/sales`, second, register), 422, 'UnprocessableEntity', 'RECEIPT_IS_PRINTED_ALREADY');

    const journal = await v(33).get(`/${sellerId}/e-journals/CU2`, register);
    const entries = journal.body as { type: string; printType: string | null; controlCode: string | null }[];
    expect(entries.filter((entry) => entry.type === 'PRINT').map((entry) => [entry.printType, entry.controlCode])).toEqual([
      ['Normal', code],
      ['Copy', copyCode.response],
    ]);
    expect(entries.filter((entry) => entry.type.startsWith('KD_')).map((entry) => [entry.type, entry.controlCode])).toEqual([
      ['KD_REQUEST', null],
      ['KD_OUTCOME', code],
      ['KD_REQUEST', null],
      ['KD_OUTCOME', copyCode.response],
    ]);
  });
});

describe('the seller-wide sales list', () => {
  it('lists register by register in recording order, pages across registers, searches with like and narrows by period and register', async () => {
    const corporateId = swedishCorporateId();
    const seller = `SE${corporateId}`;
    const app = await registerApp();
    const first = await activateRegister(33, app, corporateId, 'A1');
    const second = await activateRegister(33, app, corporateId, 'A2');
    const posted: Record<string, string[]> = { A1: [], A2: [] };
    for (const [cash, register, count] of [
      ['A1', first, 3],
      ['A2', second, 2],
    ] as const) {
      for (let n = 0; n < count; n++) {
        const sale = saleOf(100 * (n + 1), { sellerIdentifier: `${cash}-seller-${n}` });
        expect((await v(33).post(`/${seller}/registrations/${cash}/sales`, sale, register)).status).toBe(201);
        posted[cash]?.push(sale.identifier);
      }
    }
    const all = [...(posted.A1 ?? []), ...(posted.A2 ?? [])];
    const ids = async (query: string) =>
      ((await v(33).get(`/${seller}/sales${query}`)).body as { identifier: string }[]).map((sale) => sale.identifier);

    expect(await ids('')).toEqual(all);
    expect(await ids('?firstResult=2&maxResults=2')).toEqual(all.slice(2, 4));
    expect(await ids('?maxResults=1')).toEqual(all.slice(0, 1));
    expect(await ids('?like=A2-SELLER-1')).toEqual(all.slice(4, 5));
    expect(await ids('?period=1')).toEqual(all);
    expect(await ids('?cashRegisterName=A2')).toEqual(posted.A2);
    expect(await ids('?cashRegisterName=A2&firstResult=1')).toEqual(posted.A2?.slice(1));
    const minified = (await v(33).get(`/${seller}/sales-minified?firstResult=3`)).body as {
      id: string;
      cashRegisterName: string;
    }[];
    expect(minified.map((sale) => [sale.id, sale.cashRegisterName])).toEqual(all.slice(3).map((id) => [id, 'A2']));
    expectError(await v(33).get(`/${seller}/sales?cashRegisterName=A9`), 409, 'InconsistentData', 'SELLER_HAS_NOT_REGISTRATION');
  });
});

describe('a sale that names its day (docs/conventions.md §15, §17)', () => {
  it('goes into the open day it names; a closed day is DAY_IS_CLOSED and an unknown one ReferenceNotFound, storing nothing', async () => {
    const cash = 'K5';
    const register = await activateRegister(33, await registerApp(), sellerId.slice(2), cash);
    const sales = `/${sellerId}/registrations/${cash}/sales`;
    const listed = async () =>
      ((await v(33).get(`/${sellerId}/sales?cashRegisterName=${cash}`)).body as { identifier: string }[]).map(
        (sale) => sale.identifier,
      );
    const soldCount = async (dayNumber: number) =>
      (
        (await v(33).get(`/${sellerId}/registrations/${cash}/days/${dayNumber}/report`, register)).body as {
          sales: { count: number };
        }
      ).sales.count;

    // No day yet: any day named is unknown.
    expectError(await v(33).post(sales, saleOf(100, { day: 1 }), register), 404, 'ReferenceNotFound');

    const first = saleOf(1000);
    expect((await v(33).post(sales, first, register)).status).toBe(201);
    const named = saleOf(2000, { day: 1 });
    expect((await v(33).post(sales, named, register)).status).toBe(201);
    const stored = await v(33).get(`/${sellerId}/sales?cashRegisterName=${cash}`);
    expect((stored.body as { identifier: string; day: number }[]).map((sale) => [sale.identifier, sale.day])).toEqual([
      [first.identifier, 1],
      [named.identifier, 1],
    ]);
    for (const day of [2, 999999]) {
      expectError(await v(33).post(sales, saleOf(100, { day }), register), 404, 'ReferenceNotFound');
    }

    for (const sale of [first, named]) await v(33).post(`${sales}/${sale.identifier}/receipt`, undefined, register);
    expect((await v(33).post(`/${sellerId}/registrations/${cash}/days/current`, undefined, register)).status).toBe(201);

    // Yesterday's closed day: refused, and neither the sales nor the day's totals change.
    const late = saleOf(300, { day: 1 });
    expectError(await v(33).post(sales, late, register), 404, 'ReferenceNotFound', 'DAY_IS_CLOSED');
    expect(await listed()).toEqual([first.identifier, named.identifier]);
    expect(await soldCount(1)).toBe(2);

    // The sale stored before its day closed is still a replay: the same answer, nothing written.
    const replay = await v(33).post(sales, named, register);
    expect([replay.status, replay.body, replay.headers.get('idempotent-replayed')]).toEqual([
      201,
      { identifier: named.identifier },
      'true',
    ]);

    // A new day opens for a sale that names none; the closed day stays closed, the new one is named.
    expect((await v(33).post(`/${sellerId}/registrations/${cash}/days/1/report`, undefined, register)).status).toBe(201);
    expectError(await v(33).post(sales, late, register), 404, 'ReferenceNotFound', 'DAY_IS_CLOSED');
    expect((await v(33).post(sales, saleOf(400), register)).status).toBe(201);
    expectError(await v(33).post(sales, late, register), 404, 'ReferenceNotFound', 'DAY_IS_CLOSED');
    expect((await v(33).post(sales, saleOf(500, { day: 2 }), register)).status).toBe(201);
    expect(await soldCount(1)).toBe(2);
    expect(await soldCount(2)).toBe(2);
    expect((await listed()).length).toBe(4);
  });
});
