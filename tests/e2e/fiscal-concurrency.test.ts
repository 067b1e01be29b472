/**
 * A register's trading day under concurrency, over HTTP (docs/conventions.md §14-§16, §19): many registers
 * writing at once, each with its requests in flight together, identical POSTs and competing PUTs. What a
 * client reads back must show every number taken exactly once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type JournalEntry,
  newFiscalSeller,
  NORMAL_PRINT,
  oneTo,
  receiptNumbers,
  registerReader,
  warmFiscalWorkers,
} from '../support/fiscal-load.ts';
import { saleOf } from '../support/fiscal.ts';
import { type Answer, answerLost, type CallOptions, expectError, v } from '../support/http.ts';

/**
 * The local stack (serverless-offline and DynamoDB Local on two shared cores) carries about 20 fiscal writes a
 * second whatever the concurrency, so this test takes about two minutes: 10 registers of 200 sales (300
 * writes each), 5 requests of a register in flight, 50 in all.
 */
const REGISTERS = 10;
const SALES_PER_REGISTER = 200;
/** Requests of one register in flight together. */
const BATCH = 5;

/** How often a write was sent again, by cause; reported, never required. */
const resent = { busy: 0, lost: 0 };

let seller: Awaited<ReturnType<typeof newFiscalSeller>>;
beforeAll(async () => {
  seller = await newFiscalSeller();
});
afterAll(() => console.log(`fiscal load: writes sent again after a 503: ${resent.busy}, after a lost answer: ${resent.lost}`));

/**
 * Sends a write as a register does: a 503 changed nothing (docs/conventions.md §14), so it is sent again after
 * its Retry-After; a lost answer is sent again at once, which the write's idempotence makes safe.
 */
async function served(send: () => Promise<Answer>): Promise<{ answer: Answer; sends: number }> {
  for (let sends = 1; ; sends++) {
    const answer = await send();
    if (answer.status === 503) {
      resent.busy += 1;
      await sleep(Number(answer.headers.get('retry-after') ?? '1') * 1000);
    } else if (answerLost(answer)) {
      resent.lost += 1;
    } else {
      return { answer, sends };
    }
  }
}

/** Runs `work` over the items, `size` at a time. */
async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map((item, offset) => work(item, start + offset)))));
  }
  return results;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const count = (entries: readonly JournalEntry[], type: string) => entries.filter((entry) => entry.type === type).length;

/**
 * One register's day: SALES_PER_REGISTER sales, BATCH at a time; even ones carry an inline Normal print,
 * odd ones are printed afterwards with `POST .../receipt`. Every other pair is paid by card.
 */
async function tradeDay(cash: string, as: CallOptions, seed: number) {
  const sales = oneTo(SALES_PER_REGISTER).map((n) =>
    saleOf(
      100 + ((seed * 7919 + n * 104_729) % 90_000),
      { prints: n % 2 === 0 ? [NORMAL_PRINT] : [] },
      n % 4 < 2 ? 'Cash' : 'EmvStandalone',
    ),
  );
  const base = `/${seller.sellerId}/registrations/${cash}`;
  const answers = await inBatches(sales, BATCH, async (sale) => {
    const posted = await served(() => v(33).post(`${base}/sales`, sale, as));
    if (sale.prints.length > 0) return { sale, posted, receipt: undefined };
    const printed = await served(() => v(33).post(`${base}/sales/${sale.identifier}/receipt`, undefined, as));
    // A print whose first answer was lost may have been made: the resend is refused, and the register reads the receipt.
    const made = printed.sends > 1 && printed.answer.status === 422;
    const receipt = made ? await v(33).get(`${base}/sales/${sale.identifier}/receipt`, as) : printed.answer;
    return { sale, posted, receipt };
  });
  return { cash, as, answers };
}

describe('registers trading in parallel', () => {
  it(
    `${REGISTERS} registers, ${SALES_PER_REGISTER} sales each, ${BATCH} requests of a register at a time: every receipt number and journal sequence once`,
    { timeout: 300_000 },
    async () => {
      // Activated one by one: the first activation creates the seller, and one racing it is told to try again (409).
      const registers: { cash: string; as: CallOptions }[] = [];
      for (const n of oneTo(REGISTERS)) registers.push({ cash: `K${n}`, as: await seller.register(`K${n}`) });
      await warmFiscalWorkers(seller.sellerId, 'K1', registers[0]?.as ?? {}, REGISTERS * BATCH);
      const started = performance.now();
      const days = await Promise.all(registers.map(({ cash, as }, index) => tradeDay(cash, as, index)));
      const written = performance.now();

      for (const { cash, as, answers } of days) {
        for (const { sale, posted, receipt } of answers) {
          expect([posted.answer.status, posted.answer.body]).toEqual([201, { identifier: sale.identifier }]);
          // Only a resent POST can be a replay.
          if (posted.sends === 1) expect(posted.answer.headers.get('idempotent-replayed')).toBeNull();
          if (receipt) expect(receipt.body).toMatchObject({ printType: 'Normal', cashRegisterName: cash });
        }
        const reader = registerReader(seller.sellerId, cash, as);

        const stored = await reader.sales();
        expect(stored.map((sale) => sale.identifier).sort()).toEqual(answers.map(({ sale }) => sale.identifier).sort());
        expect(receiptNumbers(stored).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(oneTo(SALES_PER_REGISTER));
        const numberOf = new Map(stored.map((sale) => [sale.identifier, receiptNumbers([sale])]));
        for (const { sale, receipt } of answers) {
          if (receipt) expect(numberOf.get(sale.identifier)).toEqual([(receipt.body as { receiptNumber: number }).receiptNumber]);
        }
        // One version per write: each sale POST and each receipt POST.
        expect(await reader.version()).toBe(SALES_PER_REGISTER + SALES_PER_REGISTER / 2);

        const journal = await reader.journal();
        const entries = 1 + 2 * SALES_PER_REGISTER;
        expect(journal.map((entry) => entry.sequence)).toEqual(oneTo(entries));
        expect([count(journal, 'DAY_OPENED'), count(journal, 'SALE_RECORDED'), count(journal, 'PRINT')]).toEqual([
          1,
          SALES_PER_REGISTER,
          SALES_PER_REGISTER,
        ]);
        // Numbers are taken in the journal's order: the prints hold 1, 2, 3, ... in sequence order.
        expect(journal.filter((entry) => entry.type === 'PRINT').map((entry) => entry.receiptNumber)).toEqual(
          oneTo(SALES_PER_REGISTER),
        );
        expect(new Set(journal.filter((entry) => entry.type === 'SALE_RECORDED').map((entry) => entry.saleIdentifier)).size).toBe(
          SALES_PER_REGISTER,
        );
        expect(await reader.verdict()).toMatchObject({ valid: true, entries, head: { sequence: entries } });

        const bruttos = answers.map(({ sale }) => sale.brutto);
        const vats = answers.map(({ sale }) => sale.vat);
        const paidBy = (type: string) =>
          answers.filter(({ sale }) => sale.payments[0]?.paymentType === type).map(({ sale }) => sale.brutto);
        expect(await reader.report(1)).toMatchObject({
          type: 'X',
          dayNumber: 1,
          sales: { count: SALES_PER_REGISTER, brutto: sum(bruttos), vat: sum(vats), netto: sum(bruttos) - sum(vats) },
          refunds: { count: 0, brutto: 0 },
          vatPerRate: [{ vatRate: 2500, count: SALES_PER_REGISTER, brutto: sum(bruttos), vat: sum(vats) }],
          paymentTypes: [
            { paymentType: 'Cash', count: paidBy('Cash').length, amount: sum(paidBy('Cash')) },
            { paymentType: 'EmvStandalone', count: paidBy('EmvStandalone').length, amount: sum(paidBy('EmvStandalone')) },
          ],
          receipts: SALES_PER_REGISTER,
          unprinted: 0,
          cash: { cashPayments: sum(paidBy('Cash')), expected: sum(paidBy('Cash')) },
          grandTotals: { sales: sum(bruttos), refunds: 0, net: sum(bruttos) },
        });
      }
      console.log(
        `fiscal load: ${REGISTERS} registers x ${SALES_PER_REGISTER} sales (${REGISTERS * SALES_PER_REGISTER * 1.5} writes) in ` +
          `${Math.round(written - started)} ms, checked in ${Math.round(performance.now() - written)} ms`,
      );
    },
  );
});

describe('one sale, many clients', () => {
  it('50 identical POSTs at once store the sale once and answer alike', { timeout: 120_000 }, async () => {
    const as = await seller.register('Idem');
    const reader = registerReader(seller.sellerId, 'Idem', as);
    await warmFiscalWorkers(seller.sellerId, 'Idem', as, 50);
    const before = await reader.version();
    const sale = saleOf(4200, { prints: [NORMAL_PRINT] });

    const sent = await Promise.all(
      oneTo(50).map(() => served(() => v(33).post(`/${seller.sellerId}/registrations/Idem/sales`, sale, as))),
    );

    const answers = sent.map(({ answer }) => answer);
    expect(answers.map((answer) => [answer.status, answer.text])).toEqual(
      oneTo(50).map(() => [201, `${JSON.stringify({ identifier: sale.identifier })}\n`]),
    );
    const replays = answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true');
    const fresh = answers.filter((answer) => answer.headers.get('idempotent-replayed') === null);
    expect(replays.length + fresh.length).toBe(50);
    // The one POST that stored the sale says so, unless the emulator lost its answer and it was resent (reported).
    if (sent.every(({ sends }) => sends === 1)) expect(fresh).toHaveLength(1);
    else expect(fresh.length).toBeLessThanOrEqual(1);
    const stored = await reader.sales();
    expect(stored.map((entry) => [entry.identifier, receiptNumbers([entry])])).toEqual([[sale.identifier, [1]]]);
    expect(await reader.version()).toBe(before + 1);
    const journal = await reader.journal();
    expect(journal.map((entry) => [entry.sequence, entry.type, entry.saleIdentifier])).toEqual([
      [1, 'DAY_OPENED', null],
      [2, 'SALE_RECORDED', sale.identifier],
      [3, 'PRINT', sale.identifier],
    ]);
  });

  it(
    'two PUTs of a sale with the same If-Match: one 204, one 409 VersionConflict, the winner stored',
    { timeout: 60_000 },
    async () => {
      const as = await seller.register('Put');
      const reader = registerReader(seller.sellerId, 'Put', as);
      const path = `/${seller.sellerId}/registrations/Put/sales`;
      const sale = saleOf(1500, { saleState: 'Open', payments: [] });
      expect((await v(33).post(path, sale, as)).status).toBe(201);

      for (const round of oneTo(5)) {
        const version = await reader.version();
        // The sale's ETag is the register's version it was last written at: the sales-diff up to it holds the sale.
        const diff = await v(33).get(`/${seller.sellerId}/registrations/Put/sales-diff/${version - 1}/${version}`, as);
        expect((diff.body as { identifier: string }[]).map((entry) => entry.identifier)).toEqual([sale.identifier]);
        const edits = ['Bo', 'Cia'].map((name) => ({ ...sale, sellerIdentifier: `${name} ${round}` }));

        const answers = await Promise.all(
          edits.map((edit) => v(33).put(path, edit, { ...as, headers: { 'If-Match': `"${version}"` } })),
        );

        const won = answers.findIndex((answer) => answer.status === 204);
        expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409]);
        expectError(answers[1 - won] as Answer, 409, 'VersionConflict');
        const stored = await reader.sales();
        expect(stored.map((entry) => [entry.identifier, entry.sellerIdentifier])).toEqual([
          [sale.identifier, edits[won]?.sellerIdentifier],
        ]);
        expect(await reader.version()).toBe(version + 1);
      }
      const journal = await reader.journal();
      expect(journal.map((entry) => entry.type)).toEqual(['DAY_OPENED', 'SALE_RECORDED', ...oneTo(5).map(() => 'SALE_CHANGED')]);
    },
  );
});
