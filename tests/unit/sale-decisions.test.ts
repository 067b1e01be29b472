/** The decision of a sale POST or PUT (`decideSaleWrite`), without the database (docs/conventions.md §15-§17). */
import { describe, expect, it } from 'vitest';
import { decideSaleWrite, type SaleWrite } from '#functions/fiscal/sale-write.ts';
import { dayRefusal } from '#functions/fiscal/refusals.ts';
import { dayKey, saleKey, registerKeys } from '#shared/fiscal/ledger.ts';
import type { Sale } from '#shared/fiscal/model.ts';
import { refusal, stepOf } from '../support/decisions.ts';
import {
  activationItem,
  detailsOf,
  type LedgerItem,
  ledgerState,
  line,
  normal,
  NOW,
  reader,
  saleContent,
  signedClaim,
  STOCKHOLM,
  storedDay,
  storedSale,
  TODAY,
  TOMORROW,
  totalsWith,
  writer,
} from '../support/ledger.ts';

/** A v33 write of sale `S1` with the content given: a POST of digest A unless told, no day named. */
const write = (content: Partial<Sale> = {}, fields: Partial<SaleWrite> = {}): SaleWrite => ({
  register: writer,
  mode: 'POST',
  identifier: 'S1',
  content: saleContent(content),
  day: null,
  digest: 'digest-A',
  conditions: { ifMatch: undefined, ifNoneMatch: undefined },
  timeZone: STOCKHOLM,
  refuse: (condition) => dayRefusal('saleWrite', condition, 33),
  refusePrint: (condition, message, printType) => dayRefusal('receipt', condition, 33, message, printType),
  facts: new Map(),
  ...fields,
});

/** The register's activation without a control unit, and the items given. */
const read = (...items: LedgerItem[]) => reader(activationItem(), ...items);

const kinds = (events: readonly { type: string }[]) => events.map((event) => event.type);

describe('a sale is stored once (§15)', () => {
  it('records a new sale in the open day: 201, the sale and its day written, the grand total and the journal moved', () => {
    // Act
    const decision = decideSaleWrite(write(), ledgerState(), read(), NOW);

    // Assess
    expect(decision.result).toEqual({ status: 201, body: { identifier: 'S1' } });
    const [sale, day] = decision.entities;
    expect(sale).toMatchObject({
      kind: 'SALE',
      key: saleKey(writer, 'S1'),
      seen: undefined,
      data: { identifier: 'S1', day: 3, recorded: NOW, postDigest: 'digest-A', brutto: 12500 },
    });
    expect(day).toMatchObject({ kind: 'DAY', key: dayKey(writer, 3), data: { dayNumber: 3, cash: 12500 } });
    expect(day?.data).toMatchObject({ totals: { sold: { count: 1, brutto: 12500, vat: 2500, netto: 10000 }, unprinted: 1 } });
    expect(decision.ledger).toMatchObject({ receipt: 6, grand: { sales: 112500, refunds: 5000 }, day: { dayNumber: 3 } });
    expect(decision.events).toEqual([
      expect.objectContaining({ type: 'SALE_RECORDED', dayNumber: 3, saleIdentifier: 'S1', receiptNumber: null, amount: 12500 }),
    ]);
    expect(decision.alongside).toEqual([]);
  });

  it('replays a repeated POST of the same body: 201 Idempotent-Replayed, nothing written', () => {
    // Prepare
    const state = ledgerState();

    // Act
    const decision = decideSaleWrite(write(), state, read(storedSale('S1')), NOW);

    // Assess
    expect(decision.result).toEqual({ status: 201, body: { identifier: 'S1' }, headers: { 'Idempotent-Replayed': 'true' } });
    expect(decision.entities).toEqual([]);
    expect(decision.events).toEqual([]);
    expect(decision.ledger).toBe(state.ledger);
  });

  it('replays a repeated POST whatever its day has become since', () => {
    // Prepare: the sale's day 3 is closed, and the POST named it.
    const closed = storedDay({ opened: false });

    // Act
    const decision = decideSaleWrite(write({}, { day: 3 }), ledgerState(closed), read(storedSale('S1')), NOW);

    // Assess
    expect(decision.result.headers).toEqual({ 'Idempotent-Replayed': 'true' });
    expect(decision.entities).toEqual([]);
  });

  it('refuses a POST of the same identifier with another body (409 VersionConflict)', () => {
    // Assess
    expect(refusal(() => decideSaleWrite(write({}, { digest: 'digest-B' }), ledgerState(), read(storedSale('S1')), NOW))).toEqual(
      {
        status: 409,
        exception: 'VersionConflict',
        code: null,
      },
    );
  });

  it('updates a stored sale by PUT (204) and writes nothing when the PUT changes nothing', () => {
    // Prepare
    const stored = storedSale('S1', { saleState: 'Open', payments: [] });

    // Act
    const paid = decideSaleWrite(write({}, { mode: 'PUT' }), ledgerState(), read(stored), NOW);
    const same = decideSaleWrite(write({ saleState: 'Open', payments: [] }, { mode: 'PUT' }), ledgerState(), read(stored), NOW);

    // Assess
    expect(paid.result).toEqual({ status: 204 });
    expect(kinds(paid.events)).toEqual(['SALE_CHANGED']);
    expect(paid.entities[0]).toMatchObject({ seen: stored, data: { saleState: 'Paid', recorded: NOW - 60_000 } });
    expect(same.result).toEqual({ status: 204 });
    expect(same.entities).toEqual([]);
    expect(same.events).toEqual([]);
  });

  it('refuses a PUT whose If-Match names another version (409 VersionConflict)', () => {
    // Prepare: the stored sale is at version 11.
    const conditions = { ifMatch: [10], ifNoneMatch: undefined };

    // Assess
    expect(
      refusal(() => decideSaleWrite(write({}, { mode: 'PUT', conditions }), ledgerState(), read(storedSale('S1')), NOW)),
    ).toEqual({
      status: 409,
      exception: 'VersionConflict',
      code: null,
    });
  });
});

describe("a sale's states (§15)", () => {
  it.each([
    ['Complete', 'Open'],
    ['Paid', 'Open'],
    ['Cancelled', 'Paid'],
    ['Open', 'Complete'],
  ] as const)('refuses a %s sale becoming %s (422 PROHIBITED_ORDER_STATUS_CHANGE)', (from, to) => {
    // Prepare
    const stored = storedSale('S1', { saleState: from });

    // Assess
    expect(refusal(() => decideSaleWrite(write({ saleState: to }, { mode: 'PUT' }), ledgerState(), read(stored), NOW))).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'PROHIBITED_ORDER_STATUS_CHANGE',
    });
  });

  it('refuses a change to the refund, refundFor or training a sale was recorded with (409 VersionConflict)', () => {
    // Prepare
    const stored = storedSale('S1', { saleState: 'Open', payments: [] });
    const conflict = { status: 409, exception: 'VersionConflict', code: null };

    // Assess
    expect(
      refusal(() =>
        decideSaleWrite(
          write({ saleState: 'Open', payments: [], training: true }, { mode: 'PUT' }),
          ledgerState(),
          read(stored),
          NOW,
        ),
      ),
    ).toEqual(conflict);
    expect(
      refusal(() =>
        decideSaleWrite(
          write({ saleState: 'Open', payments: [], refund: true, refundFor: 1 }, { mode: 'PUT' }),
          ledgerState(),
          read(stored),
          NOW,
        ),
      ),
    ).toEqual(conflict);
  });
});

describe("a sale's totals must add up (§15)", () => {
  it.each([
    ['brutto = sum(vatRateSums[].brutto)', { brutto: 12400 }],
    ['vat = sum(vatRateSums[].vat)', { vat: 2400 }],
    [
      'vatRateSums[0].netto + vatRateSums[0].vat = vatRateSums[0].brutto',
      {
        vatRateSums: [
          { vatRate: 2500, vanillaVat: 2500, vanillaNetto: 10000, vanillaBrutto: 12500, vat: 2500, netto: 9900, brutto: 12500 },
        ],
      },
    ],
    ['sum(payments[].amount) = brutto', { payments: [{ paymentType: 'Cash' as const, amount: 12000 }] }],
    [
      'sum(payments[].amount) = brutto',
      { payments: [{ paymentType: 'EmvStandalone' as const, amount: 12500, paymentState: 'REJECTED' as const }] },
    ],
  ])('refuses a sale that breaks %s (409 SALE_TOTALS_INCONSISTENT, the relation named)', (relation, fields) => {
    // Act
    const act = () => decideSaleWrite(write(fields), ledgerState(), read(), NOW);

    // Assess
    expect(refusal(act)).toEqual({ status: 409, exception: 'InconsistentData', code: 'SALE_TOTALS_INCONSISTENT' });
    expect(detailsOf(act)).toEqual({ relation });
  });

  it('takes an Open sale whose payments do not cover it yet, and APPROVED payments as paid', () => {
    // Act
    const open = decideSaleWrite(write({ saleState: 'Open', payments: [] }), ledgerState(), read(), NOW);
    const approved = decideSaleWrite(
      write({ payments: [{ paymentType: 'EmvStandalone', amount: 12500, paymentState: 'APPROVED' }] }),
      ledgerState(),
      read(),
      NOW,
    );

    // Assess
    expect(open.result.status).toBe(201);
    expect(approved.result.status).toBe(201);
  });
});

describe("a sale's day (§15, §17)", () => {
  it('puts a sale that names the open day into it', () => {
    // Act
    const decision = decideSaleWrite(write({}, { day: 3 }), ledgerState(), read(), NOW);

    // Assess
    expect(decision.entities[0]?.data).toMatchObject({ day: 3 });
    expect(decision.entities[1]?.key).toEqual(dayKey(writer, 3));
    expect(kinds(decision.events)).toEqual(['SALE_RECORDED']);
  });

  it.each([
    ['a day before the latest', 2, storedDay()],
    ['the latest day once closed', 3, storedDay({ opened: false, reportPrinted: true })],
  ])('refuses a sale naming %s (404 ReferenceNotFound DAY_IS_CLOSED)', (_, day, latest) => {
    // Assess
    expect(refusal(() => decideSaleWrite(write({}, { day }), ledgerState(latest), read(), NOW))).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: 'DAY_IS_CLOSED',
    });
  });

  it.each([
    ['a day never opened', 999999, storedDay()],
    ['day 0', 0, storedDay()],
    ['any day, on a register that never opened one', 1, null],
  ])('refuses a sale naming %s (404 ReferenceNotFound)', (_, day, latest) => {
    // Assess
    expect(refusal(() => decideSaleWrite(write({}, { day }), ledgerState(latest), read(), NOW))).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: null,
    });
  });

  it('refuses a sale dated after the open day (404 ReferenceNotFound DAY_IS_NOT_CLOSED)', () => {
    // Assess
    expect(refusal(() => decideSaleWrite(write({ close: TOMORROW }), ledgerState(), read(), NOW))).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: 'DAY_IS_NOT_CLOSED',
    });
  });

  it('opens the next day for a sale when none is open and the last Z report is printed', () => {
    // Prepare
    const closed = storedDay({ opened: false, reportPrinted: true, date: TODAY - 1 });

    // Act
    const decision = decideSaleWrite(write(), ledgerState(closed), read(), NOW);

    // Assess
    expect(kinds(decision.events)).toEqual(['DAY_OPENED', 'SALE_RECORDED']);
    expect(decision.events[0]).toMatchObject({ dayNumber: 4, data: { date: TODAY } });
    expect(decision.entities[1]).toMatchObject({
      key: dayKey(writer, 4),
      seen: undefined,
      data: { dayNumber: 4, date: TODAY, opened: true, open: NOW, openVersion: 13 },
    });
    expect(decision.ledger.day).toEqual({ dayNumber: 4, date: TODAY, opened: true, reportPrinted: false });
  });

  it("refuses a sale when no day is open and the last day's Z report is not printed (404 REPORT_IS_NOT_PRINTED)", () => {
    // Assess
    expect(refusal(() => decideSaleWrite(write(), ledgerState(storedDay({ opened: false })), read(), NOW))).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: 'REPORT_IS_NOT_PRINTED',
    });
  });

  it('never changes a sale of a closed day (404 ReferenceNotFound DAY_IS_CLOSED), even when another day is open', () => {
    // Prepare: the sale is of day 2; day 3 is open.
    const stored = storedSale('S1', { day: 2, saleState: 'Open', payments: [] });

    // Assess
    expect(refusal(() => decideSaleWrite(write({}, { mode: 'PUT' }), ledgerState(), read(stored), NOW))).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: 'DAY_IS_CLOSED',
    });
  });

  it('keeps the day of a stored sale on a PUT that names another', () => {
    // Prepare
    const stored = storedSale('S1', { saleState: 'Open', payments: [] });

    // Act
    const decision = decideSaleWrite(write({}, { mode: 'PUT', day: 999999 }), ledgerState(), read(stored), NOW);

    // Assess
    expect(decision.entities[0]?.data).toMatchObject({ day: 3 });
  });
});

describe('refunds (§15)', () => {
  const refund = (fields: Partial<Sale> = {}) => write({ refund: true, refundFor: 5, ...fields }, { identifier: 'R1' });
  const original = (refunded: number) => ({
    ...registerKeys.receipt(writer.sellerId, writer.cash, 5),
    sale: 'S0',
    brutto: 20000,
    refunded,
  });

  it('takes a refund from what is left of its original, and counts it apart in the grand totals', () => {
    // Act
    const decision = decideSaleWrite(refund(), ledgerState(), read(original(5000)), NOW);

    // Assess
    expect(decision.alongside?.map(stepOf)).toEqual([
      expect.objectContaining({ op: 'Put', item: expect.objectContaining({ sale: 'S0', brutto: 20000, refunded: 17500 }) }),
    ]);
    expect(decision.ledger.grand).toEqual({ sales: 100000, refunds: 17500 });
    expect(decision.entities[1]?.data).toMatchObject({ cash: -12500, totals: { refunds: { count: 1, brutto: 12500 } } });
  });

  it('refuses a refund of more than is left of its original (400 VALUE_SHOULD_BE_LESS_THEN, valueMax)', () => {
    // Prepare: 200.00 kr, of which 100.00 kr refunded already: 100.00 kr is left for 125.00 kr.
    const act = () => decideSaleWrite(refund(), ledgerState(), read(original(10000)), NOW);

    // Assess
    expect(refusal(act)).toEqual({ status: 400, exception: 'ValueNotValid', code: 'VALUE_SHOULD_BE_LESS_THEN' });
    expect(detailsOf(act)).toMatchObject({ field: 'brutto', valueMax: 10000 });
  });

  it('refuses a refund naming no original (400 SHOULD_NOT_BE_NULL) or an unknown one (404 ReferenceNotFound)', () => {
    // Assess
    expect(refusal(() => decideSaleWrite(refund({ refundFor: null }), ledgerState(), read(), NOW))).toEqual({
      status: 400,
      exception: 'ValueNotValid',
      code: 'SHOULD_NOT_BE_NULL',
    });
    expect(refusal(() => decideSaleWrite(refund(), ledgerState(), read(), NOW))).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: null,
    });
  });
});

describe("a sale's prints (§16)", () => {
  it('gives a Normal print without a number the next receipt number, its record and digital link, and journals it', () => {
    // Act: the register printed 6 receipts.
    const decision = decideSaleWrite(
      write({ prints: [{ printType: 'Normal', receiptNumber: null }] }),
      ledgerState(),
      read(),
      NOW,
    );

    // Assess
    const sale = decision.entities[0]?.data as Sale;
    expect(sale.prints).toEqual([
      expect.objectContaining({ printType: 'Normal', receiptNumber: 7, created: NOW, printed: true }),
    ]);
    expect(sale.prints[0]?.receiptToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(decision.ledger.receipt).toBe(7);
    expect(decision.entities[1]?.data).toMatchObject({ totals: { receipts: 1, unprinted: 0 } });
    expect(kinds(decision.events)).toEqual(['SALE_RECORDED', 'PRINT']);
    expect(decision.events[1]).toMatchObject({ receiptNumber: 7, printType: 'Normal', amount: 12500, dayNumber: 3 });
    const [record, link] = (decision.alongside ?? []).map(stepOf);
    expect(record).toMatchObject({
      op: 'Put',
      key: registerKeys.receipt(writer.sellerId, writer.cash, 7),
      item: { sale: 'S1', brutto: 12500, refunded: 0 },
    });
    expect(link).toMatchObject({
      op: 'Put',
      key: registerKeys.receiptLink(sale.prints[0]?.receiptToken as string),
      item: { sale: 'S1', cash: 'Kassa 1' },
    });
  });

  it("takes an offline print's own number when it is exactly the next", () => {
    // Act
    const decision = decideSaleWrite(write({ prints: [normal(7)] }), ledgerState(), read(), NOW);

    // Assess
    expect(decision.ledger.receipt).toBe(7);
  });

  it.each([5, 6, 8])(
    'refuses an offline Normal print numbered %i when 7 is next (409 RECEIPT_NUMBER_OUT_OF_SEQUENCE)',
    (number) => {
      // Act
      const act = () => decideSaleWrite(write({ prints: [normal(number)] }), ledgerState(), read(), NOW);

      // Assess
      expect(refusal(act)).toEqual({ status: 409, exception: 'InconsistentData', code: 'RECEIPT_NUMBER_OUT_OF_SEQUENCE' });
      expect(detailsOf(act)).toMatchObject({ field: 'receiptNumber', expected: 7 });
    },
  );

  it('gives a Proforma no number and takes none', () => {
    // Act
    const decision = decideSaleWrite(
      write({ prints: [{ printType: 'Proforma', receiptNumber: null }] }),
      ledgerState(),
      read(),
      NOW,
    );

    // Assess
    expect((decision.entities[0]?.data as Sale).prints[0]).toMatchObject({ printType: 'Proforma', receiptNumber: null });
    expect(decision.ledger.receipt).toBe(6);
    expect(decision.entities[1]?.data).toMatchObject({ totals: { proforma: { count: 1, brutto: 12500 } } });
  });

  it('refuses a second Normal print (422 RECEIPT_IS_PRINTED_ALREADY)', () => {
    // Prepare
    const stored = storedSale('S1', { prints: [normal(6)] });

    // Assess
    expect(
      refusal(() =>
        decideSaleWrite(
          write({ prints: [normal(6), { printType: 'Normal', receiptNumber: null }] }, { mode: 'PUT' }),
          ledgerState(),
          read(stored),
          NOW,
        ),
      ),
    ).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'RECEIPT_IS_PRINTED_ALREADY',
    });
  });

  it('refuses a PUT that drops or alters a stored print (422 RECEIPT_IS_PRINTED_ALREADY)', () => {
    // Prepare
    const stored = storedSale('S1', { prints: [normal(6)] });
    const printed = { status: 422, exception: 'UnprocessableEntity', code: 'RECEIPT_IS_PRINTED_ALREADY' };

    // Assess
    expect(refusal(() => decideSaleWrite(write({ prints: [] }, { mode: 'PUT' }), ledgerState(), read(stored), NOW))).toEqual(
      printed,
    );
    expect(
      refusal(() => decideSaleWrite(write({ prints: [normal(5)] }, { mode: 'PUT' }), ledgerState(), read(stored), NOW)),
    ).toEqual(printed);
  });

  it('refuses a change to what a printed receipt shows (422 RECEIPT_IS_PRINTED_ALREADY)', () => {
    // Prepare
    const stored = storedSale('S1', { prints: [normal(6)] });

    // Act: the same sale, now with a treasurer (not on the receipt), or with another line name.
    const treasurer = decideSaleWrite(
      write({ prints: [normal(6)], treasurer: 'Eva' }, { mode: 'PUT' }),
      ledgerState(),
      read(stored),
      NOW,
    );

    // Assess
    expect(treasurer.result).toEqual({ status: 204 });
    expect(
      refusal(() =>
        decideSaleWrite(
          write({ prints: [normal(6)], saleProducts: [line({ name: 'Te' })] }, { mode: 'PUT' }),
          ledgerState(),
          read(stored),
          NOW,
        ),
      ),
    ).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'RECEIPT_IS_PRINTED_ALREADY',
    });
  });

  it('refuses a Copy before the Normal print (422 RECEIPT_IS_NOT_PRINTED)', () => {
    // Assess
    expect(
      refusal(() => decideSaleWrite(write({ prints: [{ printType: 'Copy', receiptNumber: null }] }), ledgerState(), read(), NOW)),
    ).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'RECEIPT_IS_NOT_PRINTED',
    });
  });

  it("takes one Copy with its Normal's number, and refuses a second (422 RECEIPT_IS_PRINTED_ALREADY, printType Copy)", () => {
    // Prepare
    const stored = storedSale('S1', { prints: [normal(6)] });
    const copy = { printType: 'Copy' as const, receiptNumber: null };

    // Act
    const first = decideSaleWrite(write({ prints: [normal(6), copy] }, { mode: 'PUT' }), ledgerState(), read(stored), NOW);
    const second = () =>
      decideSaleWrite(write({ prints: [normal(6), copy, copy] }, { mode: 'PUT' }), ledgerState(), read(stored), NOW);

    // Assess
    expect((first.entities[0]?.data as Sale).prints[1]).toMatchObject({ printType: 'Copy', receiptNumber: 6 });
    expect(first.ledger.receipt).toBe(6);
    expect(first.events[1]).toMatchObject({ type: 'PRINT', printType: 'Copy', receiptNumber: 6 });
    expect(refusal(second)).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'RECEIPT_IS_PRINTED_ALREADY' });
    expect(detailsOf(second)).toEqual({ printType: 'Copy' });
  });
});

describe('fail closed: a register with a control unit (§16)', () => {
  const withUnit = (...items: LedgerItem[]) => reader(activationItem('CU1'), ...items);

  it('refuses a Normal print without the control code (409 CONTROL_CODE_MISSING on controlNumber), and stores nothing', () => {
    // Act
    const act = () =>
      decideSaleWrite(write({ prints: [{ printType: 'Normal', receiptNumber: null }] }), ledgerState(), withUnit(), NOW);

    // Assess
    expect(refusal(act)).toEqual({ status: 409, exception: 'InconsistentData', code: 'CONTROL_CODE_MISSING' });
    expect(detailsOf(act)).toEqual({ field: 'controlNumber' });
  });

  it('refuses a code other than the one the unit signed for that receipt (409 CONTROL_CODE_MISSING)', () => {
    // Prepare
    const claim = signedClaim(7, 'Normal', 'CODE7');
    const forged = { printType: 'Normal' as const, receiptNumber: null, controlNumber: 'FORGED' };

    // Assess
    expect(refusal(() => decideSaleWrite(write({ prints: [forged] }), ledgerState(), withUnit(claim), NOW)).code).toBe(
      'CONTROL_CODE_MISSING',
    );
  });

  it('stores a Normal print carrying the code the unit signed for the next number, and journals the code', () => {
    // Prepare
    const claim = signedClaim(7, 'Normal', 'CODE7');

    // Act
    const decision = decideSaleWrite(
      write({ prints: [{ printType: 'Normal', receiptNumber: null, controlNumber: 'CODE7' }] }),
      ledgerState(),
      withUnit(claim),
      NOW,
    );

    // Assess
    expect((decision.entities[0]?.data as Sale).prints[0]).toMatchObject({ receiptNumber: 7, controlNumber: 'CODE7' });
    expect(decision.events[1]).toMatchObject({ type: 'PRINT', controlCode: 'CODE7' });
  });
});

describe('training receipts (§16)', () => {
  const training = (fields: Partial<Sale> = {}) => write({ training: true, ...fields });

  it('numbers a training receipt in its own series, leaving the receipts and their records alone', () => {
    // Act: 6 receipts and 2 training receipts were printed.
    const decision = decideSaleWrite(
      training({ prints: [{ printType: 'Normal', receiptNumber: null }] }),
      ledgerState(),
      read(),
      NOW,
    );

    // Assess
    expect((decision.entities[0]?.data as Sale).prints[0]).toMatchObject({ printType: 'Normal', receiptNumber: 3 });
    expect(decision.ledger).toMatchObject({ receipt: 6, training: 3 });
    // Its digital link only: no receipt record (no refund or copy finds it).
    const token = (decision.entities[0]?.data as Sale).prints[0]?.receiptToken as string;
    expect((decision.alongside ?? []).map((step) => stepOf(step).key)).toEqual([registerKeys.receiptLink(token)]);
  });

  it('counts a training sale only in the training item: not in sales, VAT, payments, cash or grand totals', () => {
    // Act
    const decision = decideSaleWrite(training(), ledgerState(), read(), NOW);

    // Assess
    expect(decision.entities[1]?.data).toMatchObject({
      cash: 0,
      totals: totalsWith({ training: { count: 1, brutto: 12500 } }),
    });
    expect(decision.ledger.grand).toEqual({ sales: 100000, refunds: 5000 });
  });

  it('refuses a copy of a training receipt (422 RECEIPT_IS_PRINTED_ALREADY, printType Copy)', () => {
    // Prepare
    const stored = storedSale('S1', { training: true, prints: [normal(2)] });
    const copy = { printType: 'Copy' as const, receiptNumber: null };

    // Act
    const act = () =>
      decideSaleWrite(write({ training: true, prints: [normal(2), copy] }, { mode: 'PUT' }), ledgerState(), read(stored), NOW);

    // Assess
    expect(refusal(act)).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'RECEIPT_IS_PRINTED_ALREADY' });
    expect(detailsOf(act)).toEqual({ printType: 'Copy' });
  });

  it('refuses a training refund (400 ValueNotValid on training)', () => {
    // Act
    const act = () => decideSaleWrite(training({ refund: true, refundFor: 5 }), ledgerState(), read(), NOW);

    // Assess
    expect(refusal(act)).toMatchObject({ status: 400, exception: 'ValueNotValid' });
    expect(detailsOf(act)).toEqual({ field: 'training' });
  });

  it('registers a training receipt at the control unit as its own kd type (the claim of type Training)', () => {
    // Prepare: the unit signed training receipt 3.
    const claim = signedClaim(3, 'Training', 'OVN3');

    // Act
    const decision = decideSaleWrite(
      training({ prints: [{ printType: 'Normal', receiptNumber: null, controlNumber: 'OVN3' }] }),
      ledgerState(),
      reader(activationItem('CU1'), claim),
      NOW,
    );

    // Assess
    expect((decision.entities[0]?.data as Sale).prints[0]).toMatchObject({ receiptNumber: 3, controlNumber: 'OVN3' });
  });
});
