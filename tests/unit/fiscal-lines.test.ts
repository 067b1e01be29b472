/** Sale lines frozen at the write (`freezeLines`) and the receipt rules of a sale's prints (`takePrints`). */
import { describe, expect, it } from 'vitest';
import { freezeLines, type ProductFacts } from '#functions/fiscal/lines.ts';
import { dayRefusal } from '#functions/fiscal/refusals.ts';
import {
  decideSaleWrite,
  type PrintRefusal,
  receiptSeries,
  type SaleContent,
  type SaleWrite,
  takePrints,
} from '#functions/fiscal/sale-write.ts';
import type { Key } from '#shared/db/keys.ts';
import type { Stored } from '#shared/db/streams.ts';
import { ApiError } from '#shared/errors.ts';
import {
  type DayRecord,
  EMPTY_LEDGER,
  lastReceipt,
  type Ledger,
  type LedgerState,
  type Reader,
  type Register,
  saleKey,
} from '#shared/fiscal/ledger.ts';
import type { Print, PrintType, Sale, SaleProduct } from '#shared/fiscal/model.ts';
import { saleContribution } from '#shared/fiscal/totals.ts';

// ---------------------------------------------------------------- freezeLines

/** A line as a register sends it without any of the facts (`saleFromBody` gives absent facts as null). */
const line = (fields: Partial<SaleProduct> = {}): SaleProduct => ({
  productIdentifier: 'coffee',
  deltaUnit: true,
  delta: 2,
  absoluteDiscount: 0,
  relativeDiscount: 0,
  vat: 1000,
  netto: 4000,
  brutto: 5000,
  vanillaBrutto: 5000,
  discount: 0,
  productBrutto: null,
  name: null,
  group: null,
  articleType: null,
  quantity: null,
  salesUnit: null,
  unitPrice: null,
  ...fields,
});

const FACTS: ReadonlyMap<string, ProductFacts> = new Map([
  ['coffee', { name: 'Kaffe (catalog)', group: 'Drinks (catalog)', articleType: 'GOODS', salesUnit: 'Piece' }],
  ['massage', { name: 'Massage (catalog)', group: 'Care (catalog)', articleType: 'SERVICE', salesUnit: 'Minutes' }],
]);

const facts = (frozen: SaleProduct) => ({
  name: frozen.name,
  group: frozen.group,
  articleType: frozen.articleType,
  quantity: frozen.quantity,
  salesUnit: frozen.salesUnit,
  unitPrice: frozen.unitPrice,
});

/** Runs `fn`, which must throw, and answers what it threw. */
const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
};

describe('freezeLines', () => {
  it("the line's own facts win over the stored line's and the catalog's", () => {
    const own = line({
      name: 'Kaffe latte',
      group: 'Coffee bar',
      articleType: 'SERVICE',
      quantity: 2,
      salesUnit: 'Hours',
      unitPrice: 2600,
      productBrutto: 2500,
    });
    const stored = [
      line({ name: 'Old', group: 'Old group', articleType: 'GOODS', quantity: 3, salesUnit: 'Piece', unitPrice: 1 }),
    ];
    const [frozen] = freezeLines([own], stored, FACTS);
    expect(frozen && facts(frozen)).toStrictEqual({
      name: 'Kaffe latte',
      group: 'Coffee bar',
      articleType: 'SERVICE',
      quantity: 2,
      salesUnit: 'Hours',
      unitPrice: 2600,
    });
    // The rest of the line is the line as sent.
    expect(frozen).toMatchObject({ productIdentifier: 'coffee', delta: 2, brutto: 5000, productBrutto: 2500 });
  });

  it('a line re-sent without facts keeps what the stored line at its place froze, whatever the catalog says now', () => {
    const stored = [
      line({
        name: 'Kaffe',
        group: 'Drinks',
        articleType: 'SERVICE',
        quantity: 2.5,
        salesUnit: 'Kilogram',
        unitPrice: 2000,
      }),
      line({ productIdentifier: 'massage', name: 'Massage', group: 'Care', articleType: 'SERVICE', quantity: 1 }),
    ];
    const [first, second] = freezeLines([line(), line({ productIdentifier: 'coffee' })], stored, FACTS);
    expect(first && facts(first)).toStrictEqual({
      name: 'Kaffe',
      group: 'Drinks',
      articleType: 'SERVICE',
      quantity: 2.5,
      salesUnit: 'Kilogram',
      unitPrice: 2000,
    });
    // The second place now names another product: the stored line there is not its own; the catalog's facts count.
    expect(second && facts(second)).toStrictEqual({
      name: 'Kaffe (catalog)',
      group: 'Drinks (catalog)',
      articleType: 'GOODS',
      quantity: 2,
      salesUnit: 'Piece',
      unitPrice: 2500,
    });
  });

  it('a stored line that froze no group and no name keeps none, though the catalog has them now', () => {
    // Frozen when the product had no category and was not in the catalog; both are there by the time the sale is re-sent.
    const stored = [line({ name: null, group: null, articleType: 'GOODS', quantity: 2, salesUnit: 'Piece', unitPrice: 2500 })];
    const [frozen] = freezeLines([line()], stored, FACTS);
    expect(frozen && facts(frozen)).toStrictEqual({
      name: null,
      group: null,
      articleType: 'GOODS',
      quantity: 2,
      salesUnit: 'Piece',
      unitPrice: 2500,
    });
  });

  it("without own or stored facts, the catalog's", () => {
    const [coffee, massage] = freezeLines(
      [line(), line({ productIdentifier: 'massage', deltaUnit: false, delta: 45_000, vanillaBrutto: 45_000 })],
      undefined,
      FACTS,
    );
    expect(coffee && facts(coffee)).toStrictEqual({
      name: 'Kaffe (catalog)',
      group: 'Drinks (catalog)',
      articleType: 'GOODS',
      quantity: 2,
      salesUnit: 'Piece',
      // 50.00 before discounts over 2 units.
      unitPrice: 2500,
    });
    expect(massage && facts(massage)).toStrictEqual({
      name: 'Massage (catalog)',
      group: 'Care (catalog)',
      articleType: 'SERVICE',
      // A money line is one of its kind.
      quantity: 1,
      salesUnit: 'Minutes',
      unitPrice: 45_000,
    });
  });

  it('without any facts, the defaults: goods, no name or group, Piece or Price, the unit price from the line', () => {
    const lines = [
      // 3 units of 10.00 before discounts: 3.33 each (333.33 rounded).
      line({ productIdentifier: 'unknown', delta: 3, vanillaBrutto: 1000, brutto: 900, discount: 100 }),
      // The unit price as sent wins over the division.
      line({ productIdentifier: 'unknown', delta: 3, vanillaBrutto: 1000, productBrutto: 350 }),
      // A money line: quantity 1, sold by Price, its whole amount a unit.
      line({ productIdentifier: 'unknown', deltaUnit: false, delta: 1234, vanillaBrutto: 1234 }),
      // A returned unit line: quantity negative, the unit price positive (10.00 over |-2|).
      line({ productIdentifier: 'unknown', delta: -2, vanillaBrutto: 1000 }),
      // No units: the whole amount.
      line({ productIdentifier: 'unknown', delta: 0, vanillaBrutto: 700 }),
      // A weight sent with the line: 12.50 over 0.25 kg is 50.00 a unit.
      line({ productIdentifier: 'unknown', quantity: 0.25, vanillaBrutto: 1250 }),
    ];
    const frozen = freezeLines(lines, [], new Map()).map(facts);
    const defaults = { name: null, group: null, articleType: 'GOODS' };
    expect(frozen).toStrictEqual([
      { ...defaults, quantity: 3, salesUnit: 'Piece', unitPrice: 333 },
      { ...defaults, quantity: 3, salesUnit: 'Piece', unitPrice: 350 },
      { ...defaults, quantity: 1, salesUnit: 'Price', unitPrice: 1234 },
      { ...defaults, quantity: -2, salesUnit: 'Piece', unitPrice: 500 },
      { ...defaults, quantity: 0, salesUnit: 'Piece', unitPrice: 700 },
      { ...defaults, quantity: 0.25, salesUnit: 'Piece', unitPrice: 5000 },
    ]);
  });

  it('a line stored before the facts were kept stays as stored when re-sent without them', () => {
    const { name: _n, group: _g, articleType: _a, quantity: _q, salesUnit: _s, unitPrice: _u, ...legacy } = line();
    expect(freezeLines([line()], [legacy], FACTS)).toStrictEqual([legacy]);
    // Facts it sends now are kept; those it leaves out are not filled.
    expect(freezeLines([line({ name: 'Kaffe' })], [legacy], FACTS)).toStrictEqual([{ ...legacy, name: 'Kaffe' }]);
  });

  it('a quantity of up to three decimals is taken; a fourth is refused as a 400 naming the line', () => {
    for (const quantity of [1.234, 0.001, 2.675, -0.125, 12]) {
      expect(freezeLines([line({ quantity })], undefined, FACTS)[0]?.quantity).toBe(quantity);
    }
    const error = thrown(() => freezeLines([line({ quantity: 1 }), line({ quantity: 1.2345 })], undefined, FACTS));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      exception: 'ValueNotValid',
      code: 'SHOULD_MATCH_PATTERN',
      details: { field: 'saleProducts[1].quantity', actualValue: 1.2345 },
    });
    // However small the fourth decimal.
    expect(thrown(() => freezeLines([line({ quantity: 0.0001 })], undefined, FACTS))).toMatchObject({ status: 400 });
  });
});

// ---------------------------------------------------------------- takePrints

const NOW = Date.parse('2024-06-11T12:00:00Z');
const print = (printType: PrintType, receiptNumber: number | null = null): Print => ({ receiptNumber, printType });

/** A refusal that records how it was asked and answers what the receipt endpoint answers. */
function recordingRefusal() {
  const calls: Parameters<PrintRefusal>[] = [];
  const refuse: PrintRefusal = (condition, message, printType) => {
    calls.push([condition, message, printType]);
    return dayRefusal('receipt', condition, 33, message, printType);
  };
  return { calls, refuse };
}

const options = (fields: Partial<Parameters<typeof takePrints>[2]> = {}) => ({
  lastReceipt: 41,
  controlCodes: undefined,
  now: NOW,
  training: false,
  ...fields,
});

const register: Register = { sellerId: 'seller-1', cash: 'kassa-1' } as Register;
const sale = { identifier: 'sale-1', brutto: 5000 } as Sale;

describe('takePrints', () => {
  it('a Normal print takes the next receipt number and a 128-bit base64url receipt token', () => {
    const { calls, refuse } = recordingRefusal();
    const taken = takePrints([], [print('Normal')], options(), refuse);
    expect(calls).toEqual([]);
    expect(taken.receipt).toBe(42);
    expect(taken.all).toEqual(taken.added);
    expect(taken.added).toHaveLength(1);
    const [normal] = taken.added;
    expect(normal).toMatchObject({ printType: 'Normal', receiptNumber: 42, created: NOW, printed: true });
    const token = normal?.receiptToken ?? '';
    // 128 bits in base64url without padding: 22 characters, 16 bytes.
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    expect(Buffer.from(token, 'base64url').toString('base64url')).toBe(token);
    // Unguessable: another receipt gets another token.
    expect(takePrints([], [print('Normal')], options(), refuse).added[0]?.receiptToken).not.toBe(token);
    // Its records: which sale the number is, and the digital link.
    expect(taken.receipts(register, sale)).toHaveLength(2);
  });

  it('the one copy repeats the receipt number and takes none; it gets no token', () => {
    const { calls, refuse } = recordingRefusal();
    const stored = [print('Normal', 42)];
    const taken = takePrints(stored, [...stored, print('Copy')], options({ lastReceipt: 42 }), refuse);
    expect(calls).toEqual([]);
    expect(taken.receipt).toBe(42);
    expect(taken.added).toEqual([{ printType: 'Copy', receiptNumber: 42, created: NOW, printed: true }]);
    expect(taken.receipts(register, sale)).toEqual([]);
  });

  it('a second copy is refused with RECEIPT_IS_PRINTED_ALREADY and printType Copy', () => {
    const stored = [print('Normal', 42), print('Copy', 42)];
    const second = recordingRefusal();
    const error = thrown(() => takePrints(stored, [...stored, print('Copy')], options({ lastReceipt: 42 }), second.refuse));
    expect(second.calls).toEqual([['RECEIPT_IS_PRINTED_ALREADY', expect.any(String), 'Copy']]);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'RECEIPT_IS_PRINTED_ALREADY', details: { printType: 'Copy' } });

    // Two copies in one write, after a stored receipt or with it, are refused the same way.
    for (const [before, sent] of [
      [[print('Normal', 42)], [print('Normal', 42), print('Copy'), print('Copy')]],
      [[], [print('Normal'), print('Copy'), print('Copy')]],
    ] as const) {
      const both = recordingRefusal();
      expect(() => takePrints(before, sent, options(), both.refuse)).toThrow(ApiError);
      expect(both.calls).toEqual([['RECEIPT_IS_PRINTED_ALREADY', expect.any(String), 'Copy']]);
    }
  });

  it('a training receipt has no copy', () => {
    const stored = [print('Normal', 7)];
    const { calls, refuse } = recordingRefusal();
    const error = thrown(() =>
      takePrints(stored, [...stored, print('Copy')], options({ lastReceipt: 7, training: true }), refuse),
    );
    expect(calls).toEqual([['RECEIPT_IS_PRINTED_ALREADY', expect.any(String), 'Copy']]);
    expect(error).toMatchObject({ code: 'RECEIPT_IS_PRINTED_ALREADY', details: { printType: 'Copy' } });
    // Nor in the write that prints it.
    const fresh = recordingRefusal();
    expect(() =>
      takePrints([], [print('Normal'), print('Copy')], options({ lastReceipt: 6, training: true }), fresh.refuse),
    ).toThrow(ApiError);
    expect(fresh.calls).toEqual([['RECEIPT_IS_PRINTED_ALREADY', expect.any(String), 'Copy']]);
  });

  it('a training Normal print takes the next number of the training series, apart from the receipts', () => {
    const ledger: Ledger = { ...EMPTY_LEDGER, receipt: 41, training: 6 };
    const training = { training: true };
    expect(lastReceipt(ledger, training)).toBe(6);
    expect(lastReceipt(ledger, { training: false })).toBe(41);
    expect(lastReceipt(ledger, {})).toBe(41);
    // Before the first training receipt the series is at 0.
    expect(lastReceipt({ ...EMPTY_LEDGER, receipt: 41 }, training)).toBe(0);

    const { calls, refuse } = recordingRefusal();
    const taken = takePrints(
      [],
      [print('Normal')],
      options({ lastReceipt: lastReceipt(ledger, training), training: true }),
      refuse,
    );
    expect(calls).toEqual([]);
    expect(taken.receipt).toBe(7);
    expect(taken.added[0]).toMatchObject({ printType: 'Normal', receiptNumber: 7 });
    expect(taken.added[0]?.receiptToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The ledger moves the training series only; the register's receipt numbers stay as they were.
    expect(receiptSeries(training, taken.receipt)).toStrictEqual({ training: 7 });
    expect(receiptSeries({ training: false }, 42)).toStrictEqual({ receipt: 42 });
    // A training receipt is no receipt: no receipt record (refunds and copies find none), only its digital link.
    const records = taken.receipts(register, { ...sale, training: true });
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records[0])).toContain(`RL#${taken.added[0]?.receiptToken}`);
  });

  it('a Normal print sent with a number out of the series is refused', () => {
    const { refuse } = recordingRefusal();
    expect(thrown(() => takePrints([], [print('Normal', 8)], options({ lastReceipt: 6, training: true }), refuse))).toMatchObject(
      {
        code: 'RECEIPT_NUMBER_OUT_OF_SEQUENCE',
        details: { expected: 7, actualValue: 8 },
      },
    );
  });
});

// ---------------------------------------------------------------- a printed sale re-sent

describe('decideSaleWrite: a printed sale re-sent without the facts', () => {
  const writer = { sellerId: 'seller-1', cash: 'kassa-1', activationId: 1 };
  const frozenLine = line({ name: 'Kaffe', group: null, articleType: 'GOODS', quantity: 2, salesUnit: 'Piece', unitPrice: 2500 });
  const content = (fields: Partial<SaleContent> = {}): SaleContent => ({
    sellerIdentifier: null,
    saleState: 'Paid',
    refund: false,
    refundFor: null,
    absoluteDiscount: 0,
    relativeDiscount: 0,
    vanillaBrutto: 5000,
    discount: 0,
    brutto: 5000,
    vat: 1000,
    training: false,
    saleProducts: [frozenLine],
    prints: [print('Normal', 42)],
    payments: [{ paymentType: 'Cash', amount: 5000 }],
    vatRateSums: [
      { vatRate: 2500, vanillaVat: 1000, vanillaNetto: 4000, vanillaBrutto: 5000, vat: 1000, netto: 4000, brutto: 5000 },
    ],
    ...fields,
  });

  /** Decides the write of `sent` over the stored sale, its day open, the catalog now giving `facts`. */
  function decide(stored: Sale, sent: SaleContent, catalog: ReadonlyMap<string, ProductFacts>) {
    const key = saleKey(writer, stored.identifier);
    const item = { ...stored, ...key, version: 3 };
    const read = (<T>(wanted: Key<T>) => (wanted.pk === key.pk && wanted.sk === key.sk ? item : undefined)) as Reader;
    const day = { dayNumber: 7, date: 20240611, opened: true, reportPrinted: false };
    const state: LedgerState = {
      version: 5,
      ledger: { ...EMPTY_LEDGER, receipt: 42, day, grand: { sales: 5000, refunds: 0 } },
      day: { ...day, open: NOW - 3_600_000, cash: 5000, totals: saleContribution(stored), openVersion: 1 } as Stored<DayRecord>,
    };
    const write: SaleWrite = {
      register: writer,
      mode: 'PUT',
      identifier: stored.identifier,
      content: sent,
      day: null,
      digest: 'digest',
      conditions: { ifMatch: undefined, ifNoneMatch: undefined },
      timeZone: 'Europe/Stockholm',
      refuse: (condition) => dayRefusal('saleWrite', condition, 33),
      refusePrint: recordingRefusal().refuse,
      facts: catalog,
    };
    return decideSaleWrite(write, state, read, NOW);
  }

  it('keeps the null group its line froze when the catalog has put the product in a category since', () => {
    const stored: Sale = { ...content(), identifier: 'sale-1', day: 7 };
    const bare = line({ quantity: null });
    const decision = decide(stored, content({ saleState: 'Complete', saleProducts: [bare] }), FACTS);
    expect(decision.result.status).toBe(204);
    const written = decision.entities.find((entity) => entity.kind === 'SALE')?.data as Sale | undefined;
    expect(written?.saleState).toBe('Complete');
    expect(written?.saleProducts.map(facts)).toStrictEqual([facts(frozenLine)]);
  });
});
