/** The decision of a receipt print or a copy (`decidePrint`), without the database (docs/conventions.md §16, §17). */
import { describe, expect, it } from 'vitest';
import { decidePrint, type PrintRequest } from '#functions/fiscal/prints.ts';
import { dayRefusal } from '#functions/fiscal/refusals.ts';
import { dayKey, type LedgerState, saleKey, registerKeys } from '#shared/fiscal/ledger.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { refusal, stepOf } from '../support/decisions.ts';
import {
  activationItem,
  detailsOf,
  type LedgerItem,
  ledgerState,
  normal,
  NOW,
  reader,
  STOCKHOLM,
  storedDay,
  storedSale,
  TODAY,
  TOMORROW,
  totalsWith,
  writer,
} from '../support/ledger.ts';

/** A print of sale `S1` as the route asks it: its refusals are the receipt endpoint's, or the copy endpoint's (§17). */
const request = (printType: PrintRequest['printType'], identifier = 'S1', version: ApiVersion = 33): PrintRequest => ({
  register: writer,
  identifier,
  printType,
  version,
  timeZone: STOCKHOLM,
  refuse: (condition, message, refused) =>
    dayRefusal(printType === 'Normal' || refused ? 'receipt' : 'copy', condition, version, message, refused),
});

/** The register's activation without a control unit, and the items given. */
const read = (...items: LedgerItem[]) => reader(activationItem(), ...items);

/** Receipt 6's record: sale S1 of 125.00 kr, copied at `copied` when given. */
const receiptSix = (copied?: number) => ({
  ...registerKeys.receipt(writer.sellerId, writer.cash, 6),
  sale: 'S1',
  brutto: 12500,
  refunded: 0,
  ...(copied === undefined ? {} : { copied }),
});

/** Day 3, open, holding S1 as a sold sale without its receipt. */
const unprintedDay = () => storedDay({ totals: totalsWith({ unprinted: 1 }) });

describe('the Normal print (§16)', () => {
  it('takes the next receipt number: 201, the sale rewritten with it, its record and link, the day and journal', () => {
    // Prepare: the register printed 6 receipts.
    const state = ledgerState(unprintedDay());

    // Act
    const decision = decidePrint(request('Normal'), state, read(storedSale('S1')), NOW);

    // Assess
    expect(decision.result).toMatchObject({ status: 201, print: { printType: 'Normal', receiptNumber: 7, created: NOW } });
    expect(decision.ledger.receipt).toBe(7);
    const [sale, day] = decision.entities;
    expect(sale).toMatchObject({ kind: 'SALE', key: saleKey(writer, 'S1'), data: { prints: [{ receiptNumber: 7 }] } });
    expect(day).toMatchObject({ key: dayKey(writer, 3), data: { totals: { receipts: 1, unprinted: 0 } } });
    expect(decision.events).toEqual([
      expect.objectContaining({ type: 'PRINT', dayNumber: 3, receiptNumber: 7, printType: 'Normal', amount: 12500 }),
    ]);
    const [record, link] = (decision.alongside ?? []).map(stepOf);
    expect(record).toMatchObject({
      key: registerKeys.receipt(writer.sellerId, writer.cash, 7),
      item: { sale: 'S1', brutto: 12500, refunded: 0 },
    });
    expect(link?.item).toMatchObject({ sellerId: writer.sellerId, cash: 'Kassa 1', sale: 'S1' });
  });

  it('numbers prints in turn: never skipping, never repeating a number', () => {
    // Prepare
    const first = ledgerState(unprintedDay());
    const sales = read(storedSale('S1'), storedSale('S2'));

    // Act: S1 prints, then S2 prints on the ledger S1 left.
    const one = decidePrint(request('Normal', 'S1'), first, sales, NOW);
    const after: LedgerState = { ...first, version: 13, ledger: { ...first.ledger, ...one.ledger } };
    const two = decidePrint(request('Normal', 'S2'), after, sales, NOW + 1000);

    // Assess
    expect([one.result.print.receiptNumber, two.result.print.receiptNumber]).toEqual([7, 8]);
    expect(two.ledger.receipt).toBe(8);
  });

  it('refuses a second Normal print (422 RECEIPT_IS_PRINTED_ALREADY)', () => {
    // Assess
    expect(
      refusal(() => decidePrint(request('Normal'), ledgerState(), read(storedSale('S1', { prints: [normal(6)] })), NOW)),
    ).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'RECEIPT_IS_PRINTED_ALREADY',
    });
  });

  it('refuses a Normal print of a sale of a closed day (422 DAY_IS_CLOSED)', () => {
    // Prepare: S1 is of day 2; day 3 is open.
    const stored = storedSale('S1', { day: 2 });

    // Assess
    expect(refusal(() => decidePrint(request('Normal'), ledgerState(), read(stored), NOW))).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'DAY_IS_CLOSED',
    });
  });

  it("refuses a print made after the open day's date: close that day first (422 DAY_IS_NOT_CLOSED)", () => {
    // Assess: day 3 is dated today; the print comes tomorrow.
    expect(refusal(() => decidePrint(request('Normal'), ledgerState(unprintedDay()), read(storedSale('S1')), TOMORROW))).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'DAY_IS_NOT_CLOSED',
    });
  });

  it('refuses a print of an unknown sale (404 NotFound)', () => {
    // Assess
    expect(refusal(() => decidePrint(request('Normal', 'S9'), ledgerState(), read(), NOW))).toEqual({
      status: 404,
      exception: 'NotFound',
      code: null,
    });
  });

  it('refuses a print of a register with a control unit: it carries no control code (409 CONTROL_CODE_MISSING)', () => {
    // Act
    const act = () =>
      decidePrint(request('Normal'), ledgerState(unprintedDay()), reader(activationItem('CU1'), storedSale('S1')), NOW);

    // Assess
    expect(refusal(act)).toEqual({ status: 409, exception: 'InconsistentData', code: 'CONTROL_CODE_MISSING' });
    expect(detailsOf(act)).toEqual({ field: 'controlNumber' });
  });

  it('answers the v15 condition exceptions (422 ReceiptAlreadyPrinted)', () => {
    // Assess
    expect(
      refusal(() =>
        decidePrint(request('Normal', 'S1', 15), ledgerState(), read(storedSale('S1', { prints: [normal(6)] })), NOW),
      ),
    ).toEqual({ status: 422, exception: 'ReceiptAlreadyPrinted', code: 'RECEIPT_IS_PRINTED_ALREADY' });
  });
});

describe('the copy (§16)', () => {
  const printed = () => storedSale('S1', { prints: [normal(6)] });

  it("registers the one copy: its Normal's number, 200 in v33, the record marks it, the day counts it, the journal keeps it", () => {
    // Act
    const decision = decidePrint(request('Copy'), ledgerState(), read(printed(), receiptSix()), NOW);

    // Assess
    expect(decision.result).toMatchObject({ status: 200, print: { printType: 'Copy', receiptNumber: 6 } });
    expect(decision.ledger.receipt).toBe(6);
    expect(decision.entities[0]).toMatchObject({
      kind: 'SALE',
      data: { prints: [{ printType: 'Normal' }, { printType: 'Copy' }] },
    });
    expect(decision.entities[1]?.data).toMatchObject({ totals: { copies: { count: 1, brutto: 12500 } } });
    expect(decision.events).toEqual([
      expect.objectContaining({ type: 'PRINT', printType: 'Copy', receiptNumber: 6, dayNumber: 3 }),
    ]);
    expect((decision.alongside ?? []).map(stepOf)).toEqual([
      expect.objectContaining({
        key: registerKeys.receipt(writer.sellerId, writer.cash, 6),
        item: expect.objectContaining({ copied: NOW }),
      }),
    ]);
  });

  it('answers a copy 201 in v15', () => {
    // Act
    const decision = decidePrint(request('Copy', 'S1', 15), ledgerState(), read(printed(), receiptSix()), NOW);

    // Assess
    expect(decision.result.status).toBe(201);
  });

  it('refuses a second copy (422 RECEIPT_IS_PRINTED_ALREADY, printType Copy), whatever day its sale is of', () => {
    // Prepare: receipt 6 was copied an hour ago; its sale is of the closed day 2.
    const act = () =>
      decidePrint(
        request('Copy'),
        ledgerState(),
        read(storedSale('S1', { day: 2, prints: [normal(6)] }), receiptSix(NOW - 3_600_000)),
        NOW,
      );

    // Assess
    expect(refusal(act)).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'RECEIPT_IS_PRINTED_ALREADY' });
    expect(detailsOf(act)).toEqual({ printType: 'Copy' });
  });

  it('refuses a copy of an unprinted sale (404 NotFound RECEIPT_IS_NOT_PRINTED)', () => {
    // Assess
    expect(refusal(() => decidePrint(request('Copy'), ledgerState(), read(storedSale('S1')), NOW))).toEqual({
      status: 404,
      exception: 'NotFound',
      code: 'RECEIPT_IS_NOT_PRINTED',
    });
  });

  it('leaves a sale of a closed day and that day as they are: the copy counts in the day open now', () => {
    // Prepare: S1 is of day 2, closed; day 3 is open.
    const stored = storedSale('S1', { day: 2, prints: [normal(6)] });

    // Act
    const decision = decidePrint(request('Copy'), ledgerState(), read(stored, receiptSix()), NOW);

    // Assess
    expect(decision.entities.map((entity) => entity.key)).toEqual([dayKey(writer, 3)]);
    expect(decision.entities[0]?.data).toMatchObject({ totals: { copies: { count: 1, brutto: 12500 } } });
    expect(decision.events).toEqual([
      expect.objectContaining({ type: 'PRINT', printType: 'Copy', dayNumber: 3, saleIdentifier: 'S1' }),
    ]);
  });

  it('opens the next day for a copy of a closed day when none is open and the last Z report is printed', () => {
    // Prepare: day 3 is closed and reported; S1 is of it.
    const closed = storedDay({ opened: false, reportPrinted: true, date: TODAY - 1 });
    const stored = storedSale('S1', { prints: [normal(6)] });

    // Act
    const decision = decidePrint(request('Copy'), ledgerState(closed), read(stored, receiptSix()), NOW);

    // Assess
    expect(decision.events.map((event) => [event.type, event.dayNumber])).toEqual([
      ['DAY_OPENED', 4],
      ['PRINT', 4],
    ]);
    expect(decision.entities).toEqual([expect.objectContaining({ key: dayKey(writer, 4), seen: undefined })]);
  });
});

describe('training receipts (§16)', () => {
  it('prints a training receipt in its own series: the receipts untouched, no receipt record, counted apart', () => {
    // Prepare: 6 receipts and 2 training receipts were printed.
    const stored = storedSale('S1', { training: true });

    // Act
    const decision = decidePrint(request('Normal'), ledgerState(), read(stored), NOW);

    // Assess
    expect(decision.result.print.receiptNumber).toBe(3);
    expect(decision.ledger).toMatchObject({ receipt: 6, training: 3 });
    const token = decision.result.print.receiptToken as string;
    expect((decision.alongside ?? []).map((step) => stepOf(step).key)).toEqual([registerKeys.receiptLink(token)]);
    // A training sale counts in the training item only, and printing it moves no receipt count.
    expect(decision.entities[1]?.data).toMatchObject({ totals: totalsWith() });
  });

  it('refuses a copy of a training receipt (422 RECEIPT_IS_PRINTED_ALREADY, printType Copy)', () => {
    // Prepare
    const stored = storedSale('S1', { training: true, prints: [normal(2)] });
    const act = () => decidePrint(request('Copy'), ledgerState(), read(stored), NOW);

    // Assess
    expect(refusal(act)).toEqual({ status: 422, exception: 'UnprocessableEntity', code: 'RECEIPT_IS_PRINTED_ALREADY' });
    expect(detailsOf(act)).toEqual({ printType: 'Copy' });
  });
});
