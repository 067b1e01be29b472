/**
 * A kd as apps written for srv4pos send it (docs/compatibility.md): the register's key as `Authorization: Basic
 * base64(<apiKey>)`, the seller as its bare corporate id (or its seller id lower-cased) in the path, `brutto` with the
 * VAT amount per rate in `vatRateToSum`, and the print type as a number or a name. The requests are built the way the
 * two public clients build them: MewsSystems/fiscalizations (src/Sweden/Mews.Fiscalizations.Sweden/Srv4posClient.cs,
 * DTOs/SendDataRequest.cs: System.Text.Json, enums as numbers) and POSSUM's CloudCashControlUnit class (Newtonsoft, print
 * type as text).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KdRequest } from '#shared/kd/codec.ts';
import { simulatorOf, startUnit } from '../support/edge.ts';
import { type Answer, type CallOptions, expectError, v } from '../support/http.ts';
import { swedishCorporateId } from '../support/identity.ts';
import { activateOnUnit, KD_DATE, lineOf, type UnitApp, unitApp } from '../support/kd.ts';

let app: UnitApp;
let corporateId: string;
let sellerId: string;
let serial: string;
let apiKey: string;
let register: CallOptions;

const CASH = 'CashReg001';

beforeAll(async () => {
  app = await unitApp();
  corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  serial = (await startUnit()).serial;
  register = await activateOnUnit(app, corporateId, CASH, serial);
  apiKey = (register.as as { apiKey: string }).apiKey;
});

/** `Authorization: Basic base64(<apiKey>)`, the key alone, as both clients set it. */
const basicKey = (key: string) => `Basic ${Buffer.from(key, 'utf8').toString('base64')}`;

/** A kd posted the way the Mews library posts it: JSON text as its serializer writes it, the key as Basic credentials. */
function postAsMews(path: string, json: string, key = apiKey): Promise<Answer> {
  return v(33).post(path, undefined, {
    raw: json,
    as: 'none',
    headers: { Authorization: basicKey(key), 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/** The Mews library's body (DTOs/SendDataRequest.cs, property order kept), `printType` an enum written as its number. */
const mewsBody = (brutto: number, vatRateToSum: Record<string, number>, receiptNumber: number, printType = 0, refund = false) =>
  JSON.stringify({ brutto, vatRateToSum, refund, printType, receiptNumber, date: KD_DATE });

/** The line the unit must get: Stockholm time, the seller's org number, the VAT fields highest rate first. */
const commandOf = (
  receiptNo: number,
  salesAmount: number,
  vat: KdRequest['vat'],
  fields: Partial<KdRequest> = {},
): KdRequest => ({
  date: '202607011205',
  org: corporateId,
  registerId: CASH.toUpperCase(),
  receiptNo,
  type: 'normal',
  returnAmount: 0,
  salesAmount,
  vat,
  ...fields,
});

const responseOf = (answer: Answer) => (answer.body as { response: string }).response;

describe('a kd as the Mews library sends it', () => {
  it('is signed for brutto with the documented VAT amounts, under the bare corporate id and the key as Basic', async () => {
    const unit = simulatorOf(serial);

    // Act: the example of srv4pos's documentation that the library quotes: netto 50.00 at 6 %, 70.00 at 12 %.
    const answer = await postAsMews(
      `/${corporateId}/registration/${CASH}/kd`,
      mewsBody(13140, { '0': 0, '6': 300, '12': 840, '25': 0 }, 1),
    );

    // Assess: what the library reads (DTOs/SendDataResponse.cs), and the line the unit signed: 131.40, VAT 8.40 and 3.00.
    expect(answer.status).toBe(201);
    const vat = [
      { rate: 2500, amount: 0 },
      { rate: 1200, amount: 840 },
      { rate: 600, amount: 300 },
      { rate: 0, amount: 0 },
    ];
    expect(answer.body).toEqual({ response: unit.controlCodeOf(lineOf(commandOf(1, 13140, vat))), controlUnitSerial: serial });
    const log = (await v(33).get(`/kd-facets?seller=${sellerId}&cashRegisterName=${CASH}`)).body as Record<string, unknown>[];
    expect(log.find((record) => record.receiptNumber === 1)).toMatchObject({
      brutto: 13140,
      vatRateToSum: { '0': 0, '6': 300, '12': 840, '25': 0 },
      printType: 'Normal',
      refund: false,
      response: responseOf(answer),
    });
  });

  it('refuses the documented VAT amounts on a brutto of 11.40 before anything reaches the unit', async () => {
    const unit = simulatorOf(serial);
    const before = unit.counters().requests;

    // Act
    const answer = await postAsMews(
      `/${corporateId}/registration/${CASH}/kd`,
      mewsBody(1140, { '0': 0, '6': 300, '12': 840 }, 2),
    );

    // Assess
    expectError(answer, 409, 'InconsistentData', 'SALE_TOTALS_INCONSISTENT');
    expect(unit.counters().requests).toBe(before);
  });

  it('reads the print types 1 and 2 as Copy and Proforma, and a refund as the return amount', async () => {
    const unit = simulatorOf(serial);
    const path = `/${corporateId}/registration/${CASH}/kd`;
    const vat = [{ rate: 2500, amount: 2000 }];

    // Act
    const proforma = await postAsMews(path, mewsBody(10000, { '25': 2000 }, 3, 2));
    const refund = await postAsMews(path, mewsBody(10000, { '25': 2000 }, 4, 0, true));
    const copy = await postAsMews(path, mewsBody(10000, { '25': 2000 }, 4, 1, true));

    // Assess
    expect(responseOf(proforma)).toBe(unit.controlCodeOf(lineOf(commandOf(3, 10000, vat, { type: 'profo' }))));
    expect(responseOf(refund)).toBe(unit.controlCodeOf(lineOf(commandOf(4, 0, vat, { returnAmount: 10000 }))));
    expect(responseOf(copy)).toBe(unit.controlCodeOf(lineOf(commandOf(4, 0, vat, { returnAmount: 10000, type: 'kopia' }))));
  });
});

describe('a kd with brutto on the other versions', () => {
  it('v26 and v15 sign brutto with the VAT sent, at POST /pospluses/kd', async () => {
    const unit = simulatorOf(serial);
    const vat = [{ rate: 1200, amount: 600 }];

    // Act: 56.00 at 12 % carries 6.00 of VAT.
    const v26 = await v(26).post('/pospluses/kd', undefined, {
      raw: mewsBody(5600, { '12': 600 }, 6),
      as: 'none',
      headers: { Authorization: basicKey(apiKey), 'Content-Type': 'application/json; charset=utf-8' },
    });
    const v15 = await v(15).post(
      '/pospluses/kd',
      { brutto: 5600, vatRateToSum: { '12': 600 }, refund: false, printType: 'Normal', receiptNumber: 7, date: KD_DATE },
      register,
    );

    // Assess
    expect(responseOf(v26)).toBe(unit.controlCodeOf(lineOf(commandOf(6, 5600, vat))));
    expect(responseOf(v15)).toBe(unit.controlCodeOf(lineOf(commandOf(7, 5600, vat))));
  });

  it('refuses a print type past the enumeration (3), as any value outside an enumeration (400 MessageNotReadable), sending nothing', async () => {
    const unit = simulatorOf(serial);
    const before = unit.counters().requests;

    // Act
    const answer = await postAsMews(`/${corporateId}/registration/${CASH}/kd`, mewsBody(10000, { '25': 2000 }, 8, 3));

    // Assess
    expectError(answer, 400, 'MessageNotReadable');
    expect(unit.counters().requests).toBe(before);
  });
});

describe('a kd as POSSUM sends it', () => {
  it('is signed under the seller id lower-cased, the print type as text, the key as Basic', async () => {
    const unit = simulatorOf(serial);

    // Act: CcuPost serialized by Newtonsoft, the URL lower-cased but the register's name (CloudCashControlUnit.cs).
    const answer = await postAsMews(
      `/${sellerId.toLowerCase()}/registration/${CASH}/kd`,
      JSON.stringify({
        brutto: 5600,
        vatRateToSum: { '0': 0, '6': 0, '12': 600, '25': 0 },
        refund: false,
        printType: 'Normal',
        receiptNumber: 5,
        date: KD_DATE,
      }),
    );

    // Assess: 56.00 at 12 % carries 6.00 of VAT.
    const vat = [
      { rate: 2500, amount: 0 },
      { rate: 1200, amount: 600 },
      { rate: 600, amount: 0 },
      { rate: 0, amount: 0 },
    ];
    expect(responseOf(answer)).toBe(unit.controlCodeOf(lineOf(commandOf(5, 5600, vat))));
  });
});

describe("a register's key as Basic credentials", () => {
  it('is the register wherever X-Api-Key is, and never a user', async () => {
    // Act
    const version = await v(33).get(`/${sellerId}/version`, { as: 'none', headers: { Authorization: basicKey(apiKey) } });
    const users = await v(33).get('/users', { as: 'none', headers: { Authorization: basicKey(apiKey) } });

    // Assess
    expect(version.status).toBe(200);
    expectError(users, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
  });

  it('refuses an unknown key, both headers at once, and another seller in the path', async () => {
    const path = `/${corporateId}/registration/${CASH}/kd`;
    const body = mewsBody(10000, { '25': 2000 }, 9);

    // Act
    const unknown = await postAsMews(path, body, 'x'.repeat(32));
    const both = await v(33).post(path, undefined, {
      raw: body,
      as: { apiKey },
      headers: { Authorization: basicKey(apiKey) },
    });
    const other = await postAsMews(`/${swedishCorporateId()}/registration/${CASH}/kd`, body);

    // Assess
    expectError(unknown, 403, 'Forbidden', 'WRONG_USERNAME_OR_PASSWORD');
    expectError(both, 403, 'Forbidden', 'AUTHORIZATION_DATA_IS_NOT_VALID');
    expectError(other, 403, 'Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS');
  });

  it('is ignored, like any credentials, by a /noauth/ route', async () => {
    // Act
    const exists = await v(33).post(
      '/noauth/activations/cash-register-name/existance',
      { corporateId, cashRegisterName: CASH },
      { as: 'none', headers: { Authorization: 'Basic !!!not-base64' } },
    );

    // Assess
    expect(exists.status).toBe(201);
    expect(exists.body).toEqual({ exists: true });
  });
});

/** Rates in percent, as the clients key them. */
const RATES = [0, 6, 12, 25] as const;

/** The VAT a gross carries at a rate (percent), rounded half up to the hundredth: the test's own arithmetic. */
const vatOf = (gross: number, rate: number) => Math.round((gross * rate) / (100 + rate));

/** The least gross whose VAT at `rate` rounds to one hundredth, found by trying: the test's own reading of the bound. */
function leastLineWithVat(rate: number): number {
  let gross = 1;
  while (vatOf(gross, rate) < 1) gross += 1;
  return gross;
}

const line = fc.record({ gross: fc.integer({ min: 1, max: 50_000 }), rate: fc.constantFrom(...RATES) });
/** A receipt of 1 to 12 lines, its VAT per rate summed line by line or computed on the rate's total. */
const receipt = fc.record({ lines: fc.array(line, { minLength: 1, maxLength: 12 }), perLine: fc.boolean() });
type Drawn = { lines: { gross: number; rate: number }[]; perLine: boolean };

function amountsOf({ lines, perLine }: Drawn) {
  const gross = new Map<number, number>();
  const vat = new Map<number, number>();
  for (const { gross: amount, rate } of lines) {
    gross.set(rate, (gross.get(rate) ?? 0) + amount);
    if (perLine) vat.set(rate, (vat.get(rate) ?? 0) + vatOf(amount, rate));
  }
  if (!perLine) for (const [rate, amount] of gross) vat.set(rate, vatOf(amount, rate));
  const brutto = [...gross.values()].reduce((sum, amount) => sum + amount, 0);
  return { brutto, vat: new Map([...vat].sort(([a], [b]) => b - a)) };
}

describe('every receipt (property)', () => {
  let receiptNumber = 100;

  it('is signed for brutto with exactly the VAT amounts sent', async () => {
    const unit = simulatorOf(serial);
    await fc.assert(
      fc.asyncProperty(receipt, async (drawn) => {
        const { brutto, vat } = amountsOf(drawn);
        receiptNumber += 1;

        // Act
        const answer = await postAsMews(
          `/${corporateId}/registration/${CASH}/kd`,
          mewsBody(brutto, Object.fromEntries([...vat].map(([rate, amount]) => [String(rate), amount])), receiptNumber),
        );

        // Assess: the unit's line carries brutto as its sales amount and each VAT amount at its rate.
        const fields = [...vat].map(([rate, amount]) => ({ rate: rate * 100, amount }));
        expect(responseOf(answer)).toBe(unit.controlCodeOf(lineOf(commandOf(receiptNumber, brutto, fields))));
      }),
      { numRuns: 25, seed: 2514 },
    );
  });

  it('is refused, and nothing reaches the unit, when its VAT cannot fit brutto', async () => {
    const unit = simulatorOf(serial);
    const before = unit.counters().requests;
    const taxed = receipt.filter((drawn) => drawn.lines.some(({ gross, rate }) => rate > 0 && vatOf(gross, rate) > 0));
    await fc.assert(
      fc.asyncProperty(taxed, fc.boolean(), async (drawn, grossAsVat) => {
        const { brutto, vat } = amountsOf(drawn);
        // Either the gross per rate sent as if it were the VAT, or a brutto one hundredth below the least one whose
        // lines could each round up to one hundredth of VAT per hundredth sent.
        const rates = [...new Set(drawn.lines.map(({ rate }) => rate))];
        const sent = grossAsVat ? new Map(rates.map((rate) => [rate, grossOf(drawn, rate)])) : vat;
        const least = [...vat].reduce((sum, [rate, amount]) => sum + (rate === 0 ? 0 : amount * leastLineWithVat(rate)), 0);
        const claimed = grossAsVat ? brutto : least - 1;
        receiptNumber += 1;

        // Act
        const answer = await postAsMews(
          `/${corporateId}/registration/${CASH}/kd`,
          mewsBody(claimed, Object.fromEntries([...sent].map(([rate, amount]) => [String(rate), amount])), receiptNumber),
        );

        // Assess
        expectError(answer, 409, 'InconsistentData', 'SALE_TOTALS_INCONSISTENT');
      }),
      { numRuns: 25, seed: 2515 },
    );
    expect(unit.counters().requests).toBe(before);
  });
});

/** The receipt's gross at one rate. */
const grossOf = (drawn: Drawn, rate: number) =>
  drawn.lines.filter((item) => item.rate === rate).reduce((sum, item) => sum + item.gross, 0);
