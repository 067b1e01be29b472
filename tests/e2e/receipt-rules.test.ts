/**
 * What SKVFS 2014:9 asks of receipts and the Z report, over HTTP (docs/conventions.md §16-§17): sale lines that name
 * what was sold whatever the catalog says later, one copy per receipt, training receipts in their own series and item,
 * and a control unit signing Normal, Copy, refund and training receipts.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiVersion } from '#shared/versions.ts';
import { activateRegister, registerApp, saleOf } from '../support/fiscal.ts';
import { type CallOptions, detailOf, expectError, v } from '../support/http.ts';
import { startUnit } from '../support/edge.ts';
import { swedishCorporateId } from '../support/identity.ts';
import { activateOnUnit, kdOf, sendKd, unitApp } from '../support/kd.ts';

let sellerId: string;
let corporateId: string;
let kassa: CallOptions;
const base = (cash = 'K1') => `/${sellerId}/registrations/${cash}`;

/** A sale of one line of product `coffee` (2 pieces, 25 %), the line's own fields replaced by `line`. */
const coffeeSale = (line: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) => {
  const sale = saleOf(5000, fields);
  return { ...sale, saleProducts: [{ ...sale.saleProducts[0], productIdentifier: 'coffee', delta: 2, ...line }] };
};

beforeAll(async () => {
  corporateId = swedishCorporateId();
  sellerId = `SE${corporateId}`;
  kassa = await activateRegister(33, await registerApp(), corporateId, 'K1');
  await v(33).put(`/${sellerId}/taxes/t25`, { vat: 25, name: 'Moms' });
  const product = { barcode: '1', netto: 2000, tax: 't25', salesUnit: 'Piece', countedInPrice: true };
  await v(33).put(`/${sellerId}/products/coffee`, { ...product, name: 'Kaffe' });
  await v(33).put(`/${sellerId}/products/repair`, { ...product, barcode: '2', name: 'Reparation', articleType: 'SERVICE' });
  await v(33).put(`/${sellerId}/categories/drinks`, { name: 'Drycker' });
  await v(33).put(`/${sellerId}/categories/warm`, { name: 'Varmt' });
  // Coffee is in two categories: its lines freeze the first by name.
  await v(33).put(`/${sellerId}/commodities/coffee-drinks`, { product: 'coffee', category: 'drinks' });
  await v(33).put(`/${sellerId}/commodities/coffee-warm`, { product: 'coffee', category: 'warm' });
  await v(33).put(`/${sellerId}/commodities/repair-warm`, { product: 'repair', category: 'warm' });
});

const saleLines = async (identifier: string) => {
  const sales = await v(33).get(`/${sellerId}/sales?cashRegisterName=K1`, kassa);
  const sale = (sales.body as { identifier: string; saleProducts: Record<string, unknown>[] }[]).find(
    (found) => found.identifier === identifier,
  );
  return sale?.saleProducts;
};

describe('sale lines name what was sold', () => {
  it('are filled from the catalog at the sale, and a rename later changes no stored line or printed receipt', async () => {
    const sale = coffeeSale();
    expect((await v(33).post(`${base()}/sales`, sale, kassa)).status).toBe(201);
    const frozen = {
      productIdentifier: 'coffee',
      name: 'Kaffe',
      group: 'Drycker',
      articleType: 'GOODS',
      quantity: 2,
      salesUnit: 'Piece',
      unitPrice: 2500,
    };
    expect(await saleLines(sale.identifier)).toEqual([expect.objectContaining(frozen)]);
    const printed = await v(33).post(`${base()}/sales/${sale.identifier}/receipt`, undefined, kassa);
    expect(printed.status).toBe(201);

    await v(33).put(`/${sellerId}/products/coffee`, {
      name: 'Kaffe Latte',
      barcode: '1',
      netto: 2000,
      tax: 't25',
      salesUnit: 'Piece',
      countedInPrice: true,
    });
    expect(await saleLines(sale.identifier)).toEqual([expect.objectContaining(frozen)]);
    const again = await v(33).get(`${base()}/sales/${sale.identifier}/receipt`, kassa);
    expect((again.body as { sale: { saleProducts: unknown[] } }).sale.saleProducts).toEqual(
      (printed.body as { sale: { saleProducts: unknown[] } }).sale.saleProducts,
    );
    // A sale after the rename freezes the new name (what an instance knew of the catalog went with its version).
    const after = coffeeSale();
    expect((await v(33).post(`${base()}/sales`, after, kassa)).status).toBe(201);
    expect(await saleLines(after.identifier)).toEqual([expect.objectContaining({ ...frozen, name: 'Kaffe Latte' })]);
    // The register re-sends the printed sale without the facts: it is the same sale, nothing changes.
    const resent = await v(33).put(
      `${base()}/sales`,
      { ...sale, prints: (printed.body as { sale: { prints: unknown[] } }).sale.prints },
      kassa,
    );
    expect(resent.status).toBe(204);
  });

  it('keeps what the register sent, and refuses a quantity with more than three decimals', async () => {
    const sent = {
      name: 'Kaffe (stor)',
      group: 'Bar',
      articleType: 'SERVICE',
      quantity: 0.25,
      salesUnit: 'Kilogram',
      unitPrice: 20000,
    };
    const sale = coffeeSale(sent);
    expect((await v(33).post(`${base()}/sales`, sale, kassa)).status).toBe(201);
    expect(await saleLines(sale.identifier)).toEqual([expect.objectContaining(sent)]);
    const tooFine = await v(33).post(`${base()}/sales`, coffeeSale({ quantity: 0.2505 }), kassa);
    expectError(tooFine, 400, 'ValueNotValid', 'SHOULD_MATCH_PATTERN');
    for (const version of [15, 26] as const) {
      const bad = await v(version).post(`/${sellerId}/sales`, coffeeSale({ articleType: 'THING' }), kassa);
      expect(bad.status).toBe(400);
    }
  });
});

describe('one copy per receipt', () => {
  it('a second copy is refused in every version, the journal holds one', async () => {
    const sale = saleOf(1000);
    await v(33).post(`${base()}/sales`, sale, kassa);
    await v(33).post(`${base()}/sales/${sale.identifier}/receipt`, undefined, kassa);
    expect((await v(33).get(`${base()}/sales/${sale.identifier}/copy`, kassa)).status).toBe(200);
    const second = await v(33).get(`${base()}/sales/${sale.identifier}/copy`, kassa);
    expectError(second, 422, 'UnprocessableEntity', 'RECEIPT_IS_PRINTED_ALREADY');
    expect(detailOf(second)).toMatchObject({ printType: 'Copy' });
    expectError(
      await v(26).get(`${base()}/sales/${sale.identifier}/copy`, kassa),
      422,
      'UnprocessableEntity',
      'RECEIPT_IS_PRINTED_ALREADY',
    );
    expectError(
      await v(15).post(`/${sellerId}/sales/${sale.identifier}/copy`, undefined, kassa),
      422,
      'ReceiptAlreadyPrinted',
      'RECEIPT_IS_PRINTED_ALREADY',
    );
    // Through the sale's own prints, too.
    const withPrints = (await v(33).get(`${base()}/sales/${sale.identifier}/receipt`, kassa)).body as {
      sale: { prints: unknown[] };
    };
    const twice = await v(33).put(
      `${base()}/sales`,
      { ...sale, prints: [...withPrints.sale.prints, { printType: 'Copy' }] },
      kassa,
    );
    expectError(twice, 422, 'UnprocessableEntity', 'RECEIPT_IS_PRINTED_ALREADY');
  });

  it('20 concurrent copy requests register exactly one copy', async () => {
    const sale = saleOf(2000);
    await v(33).post(`${base()}/sales`, sale, kassa);
    await v(33).post(`${base()}/sales/${sale.identifier}/receipt`, undefined, kassa);
    const journalBefore = ((await v(33).get(`/${sellerId}/e-journals/K1?maxResults=1000`)).body as unknown[]).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => v(33).get(`${base()}/sales/${sale.identifier}/copy`, kassa)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expectError(refused, 422, 'UnprocessableEntity', 'RECEIPT_IS_PRINTED_ALREADY');
    }
    const journal = (await v(33).get(`/${sellerId}/e-journals/K1?maxResults=1000`)).body as {
      type: string;
      printType?: string;
    }[];
    expect(journal).toHaveLength(journalBefore + 1);
    expect(journal.at(-1)).toMatchObject({ type: 'PRINT', printType: 'Copy' });
  });

  it('a copy of a sale of a closed day counts once too', async () => {
    const cash = `C${randomUUID().slice(0, 6)}`;
    const register = await activateRegister(33, await registerApp(), corporateId, cash);
    const sale = saleOf(3000);
    await v(33).post(`${base(cash)}/sales`, sale, register);
    await v(33).post(`${base(cash)}/sales/${sale.identifier}/receipt`, undefined, register);
    expect((await v(33).post(`${base(cash)}/days/current`, undefined, register)).status).toBe(201);
    expect((await v(33).post(`${base(cash)}/days/1/report`, undefined, register)).status).toBe(201);
    expect((await v(33).get(`${base(cash)}/sales/${sale.identifier}/copy`, register)).status).toBe(200);
    expectError(
      await v(33).get(`${base(cash)}/sales/${sale.identifier}/copy`, register),
      422,
      'UnprocessableEntity',
      'RECEIPT_IS_PRINTED_ALREADY',
    );
  });
});

describe('training receipts', () => {
  it('take their own numbers, count in the report only as training, and have no copy', async () => {
    const cash = `T${randomUUID().slice(0, 6)}`;
    const register = await activateRegister(33, await registerApp(), corporateId, cash);
    const real = saleOf(10_000);
    const training = { ...saleOf(4000), training: true };
    const service = coffeeSale({ productIdentifier: 'repair', delta: 1 });
    for (const sale of [real, training, service]) {
      expect((await v(33).post(`${base(cash)}/sales`, sale, register)).status).toBe(201);
    }
    const numbers = [];
    for (const sale of [training, real, service]) {
      const printed = await v(33).post(`${base(cash)}/sales/${sale.identifier}/receipt`, undefined, register);
      numbers.push((printed.body as { receiptNumber: number }).receiptNumber);
    }
    // The training receipt is number 1 of its own series; the receipts' series stays unbroken.
    expect(numbers).toEqual([1, 1, 2]);
    expectError(
      await v(33).get(`${base(cash)}/sales/${training.identifier}/copy`, register),
      422,
      'UnprocessableEntity',
      'RECEIPT_IS_PRINTED_ALREADY',
    );
    expectError(
      await v(33).post(`${base(cash)}/sales`, { ...saleOf(100), training: true, refund: true, refundFor: 1 }, register),
      400,
      'ValueNotValid',
      'VALUE_SHOULD_BE_LESS_THEN',
    );
    await v(33).post(`${base(cash)}/balance`, { amount: 500, action: 'DEPOSIT' }, register);

    const report = (await v(33).get(`${base(cash)}/days/1/report`, register)).body as Record<string, unknown>;
    expect(report).toMatchObject({
      type: 'X',
      training: { count: 1, brutto: 4000 },
      sales: { count: 2, brutto: 15_000 },
      receipts: 2,
      goods: { pieces: 1, otherUnits: 0 },
      services: { pieces: 1, otherUnits: 0 },
      drawerOpeningsWithoutSale: 1,
      cash: expect.objectContaining({ cashPayments: 15_000, expected: 15_500 }),
      grandTotals: { sales: 15_000, refunds: 0, net: 15_000 },
    });
    // The repair's line is in its category; the other sale's line has none; the training sale counts in neither.
    expect(report.salesPerCategory).toEqual([
      { category: 'Varmt', count: 1, brutto: 5000, vat: 1000 },
      { category: null, count: 1, brutto: 10_000, vat: 2000 },
    ]);
  });
});

describe('a control unit signs every kind of receipt', () => {
  it('Normal, Copy, refund and training receipts are signed and printed with their codes', async () => {
    const { serial } = await startUnit();
    const app = await unitApp();
    const unitSeller = swedishCorporateId();
    const seller = `SE${unitSeller}`;
    const register = await activateOnUnit(app, unitSeller, 'U1', serial);
    const path = `/${seller}/registrations/U1`;
    const signedCode = async (body: Record<string, unknown>, version: ApiVersion = 33) => {
      const answer = await sendKd(version, seller, 'U1', body, register);
      expect([answer.status, answer.text]).toEqual([201, expect.any(String)]);
      const code = (answer.body as { response: string }).response;
      expect(code).toMatch(/^[A-Z0-9]{59}$/);
      return code;
    };
    const sale = saleOf(12_500);
    const normal = await signedCode(kdOf(1));
    expect(
      (await v(33).post(`${path}/sales`, { ...sale, prints: [{ printType: 'Normal', controlNumber: normal }] }, register)).status,
    ).toBe(201);
    const copy = await signedCode(kdOf(1, 12_500, { printType: 'Copy' }));
    const prints = [
      { printType: 'Normal', receiptNumber: 1, controlNumber: normal },
      { printType: 'Copy', controlNumber: copy },
    ];
    expect((await v(33).put(`${path}/sales`, { ...sale, prints }, register)).status).toBe(204);

    const refund = saleOf(12_500, { refund: true, refundFor: 1 });
    const refundCode = await signedCode(kdOf(2, 12_500, { refund: true }));
    const refundPrints = [{ printType: 'Normal', controlNumber: refundCode }];
    expect((await v(33).post(`${path}/sales`, { ...refund, prints: refundPrints }, register)).status).toBe(201);

    const training = { ...saleOf(700), training: true };
    // A training receipt's code is its own (kd type ovning, its own series): the Normal receipt 1's code does not do.
    const wrong = await v(33).post(
      `${path}/sales`,
      { ...training, prints: [{ printType: 'Normal', controlNumber: normal }] },
      register,
    );
    expectError(wrong, 409, 'InconsistentData', 'CONTROL_CODE_MISSING');
    const trainingCode = await signedCode(kdOf(1, 700, { training: true }));
    expect(trainingCode).not.toBe(normal);
    const stored = await v(33).post(
      `${path}/sales`,
      { ...training, prints: [{ printType: 'Normal', controlNumber: trainingCode }] },
      register,
    );
    expect(stored.status).toBe(201);
    const receipt = await v(33).get(`${path}/sales/${training.identifier}/receipt`, register);
    expect(receipt.body).toMatchObject({ receiptNumber: 1, controlNumber: trainingCode });

    // v15 may leave the number out: a training kd is then for the next number of the training series (2), and v26
    // names it; both are signed by the unit as training receipts of their own.
    const nextTraining = await signedCode(kdOf(null, 300, { training: true, brutto: 300, vatRateToSum: { '25': 60 } }), 15);
    const named = await signedCode(kdOf(3, 400, { training: true }), 26);
    expect(new Set([trainingCode, nextTraining, named]).size).toBe(3);
    const secondTraining = { ...saleOf(300), training: true, prints: [{ printType: 'Normal', controlNumber: nextTraining }] };
    expect((await v(33).post(`${path}/sales`, secondTraining, register)).status).toBe(201);
    const second = await v(33).get(`${path}/sales/${secondTraining.identifier}/receipt`, register);
    expect(second.body).toMatchObject({ receiptNumber: 2, controlNumber: nextTraining });

    // A rate the unit's 5-character field cannot hold is refused as the body is read, before anything reaches the unit.
    const tooHigh = await sendKd(33, seller, 'U1', kdOf(5, 100, { vatRateToSum: { '100': 100 } }), register);
    expect([tooHigh.status, (tooHigh.body as { exception: string }).exception]).toEqual([400, 'ValueNotValid']);

    const log = (await v(33).get(`/kd-facets?seller=${seller}&cashRegisterName=U1`)).body as {
      printType: string;
      outcome?: string;
    }[];
    expect(log.length).toBeGreaterThanOrEqual(4);
  });
});
