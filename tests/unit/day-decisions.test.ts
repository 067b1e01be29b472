/**
 * The day rules (docs/conventions.md §17), without the database: where a new record goes (`dayForNewRecord`), a named
 * day (`checkNamedDay`), and the decisions of opening, naming, closing a day and printing its Z report. Those four are
 * closures the handlers of `functions/fiscal/days.ts` hand to `writeLedgerOnce`; this file takes each from that call
 * (the commit is never run) and decides it on a ledger state given by hand. The export and receipt contexts, read from
 * the database before the decision, are given too.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkNamedDay, dayForNewRecord } from '#functions/fiscal/day-rules.ts';
import { closeDay, openDay, printReport, updateDay } from '#functions/fiscal/days.ts';
import { dayRefusal } from '#functions/fiscal/refusals.ts';
import type { RegisterRequest } from '#functions/fiscal/registers.ts';
import type { FiscalContext } from '#shared/fiscal/context.ts';
import type { ExportContext } from '#shared/fiscal/export-context.ts';
import { dayKey, type LedgerDecision, type LedgerState, type LedgerWrite } from '#shared/fiscal/ledger.ts';
import type { Reply } from '#shared/http/types.ts';
import { refusal } from '../support/decisions.ts';
import { ledgerState, NOW, reader, STOCKHOLM, storedDay, TODAY, TOMORROW, totalsWith, writer } from '../support/ledger.ts';

const captured = vi.hoisted(() => ({ write: undefined as LedgerWrite<Reply> | undefined }));

vi.mock('#shared/http/idempotency.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  writeLedgerOnce: (write: LedgerWrite<Reply>) => {
    captured.write = write;
    return Promise.resolve({ status: 0 });
  },
}));

const exportContext: ExportContext = {
  sellerId: writer.sellerId,
  timeZone: STOCKHOLM,
  company: { corporateId: '5560360793', country: 'SE', name: 'Kaffebaren AB', address: 'Storgatan 1, 111 22 Stockholm' },
  system: {
    cashRegisterName: writer.cash,
    productionNumber: null,
    model: null,
    program: null,
    version: null,
    controlUnitSerial: null,
  },
};
vi.mock('#shared/fiscal/export-context.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  readExportContext: () => Promise.resolve(exportContext),
}));

const fiscalContext: FiscalContext = {
  sellerId: writer.sellerId,
  seller: {
    name: 'Kaffebaren AB',
    corporateId: '5560360793',
    address: 'Storgatan 1',
    zip: '111 22',
    city: 'Stockholm',
    country: 'SE',
    currency: 'SEK',
  },
  register: { cashRegisterName: writer.cash, productionNumber: null, controlUnitSerial: null },
  timeZone: STOCKHOLM,
};
vi.mock('#shared/fiscal/context.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  fiscalContextBeside: () => Promise.resolve(fiscalContext),
}));

beforeEach(() => {
  captured.write = undefined;
});

/** A v33 request of the register `writer`, under its activation's key. */
const requestOf = <B, P extends string = never>(
  body: B,
  params = {} as Record<P, string>,
): RegisterRequest<B> & { params: Record<P, string> } => ({
  version: 33,
  method: 'POST',
  params: { sellerId: writer.sellerId, ...params },
  query: new URLSearchParams(),
  headers: {},
  body,
  principal: {
    kind: 'activation',
    activationId: writer.activationId,
    sellerId: writer.sellerId,
    cashRegisterName: writer.cash,
    features: [],
  },
  sellerCounter: undefined,
});

/** The decision the handler hands to the ledger, decided on `state` (with the register's stored days readable) at `now`. */
async function decided(handle: () => Promise<Reply>, state: LedgerState, now = NOW): Promise<LedgerDecision<Reply>> {
  await handle();
  const write = captured.write;
  if (!write) throw new Error('the handler wrote nothing');
  return write.decide(state, reader(...(state.day ? [state.day] : [])), now);
}

/** The refusal of the decision the handler hands to the ledger. */
async function refused(handle: () => Promise<Reply>, state: LedgerState) {
  try {
    await decided(handle, state);
  } catch (error) {
    return refusal(() => {
      throw error;
    });
  }
  throw new Error('expected a refusal, but the decision went through');
}

const closedDay = (fields = {}) => storedDay({ opened: false, close: NOW - 3_600_000, cashAtClose: 0, ...fields });
const kinds = (events: readonly { type: string }[]) => events.map((event) => event.type);

describe('where a new record goes (dayForNewRecord)', () => {
  const refuse = (condition: 'DAY_IS_NOT_CLOSED' | 'REPORT_IS_NOT_PRINTED') => dayRefusal('balanceChange', condition, 33);
  const dated = (instant: number) => ({ instant, timeZone: STOCKHOLM, now: NOW });

  it('puts a record into the open day, opening nothing', () => {
    // Prepare
    const state = ledgerState();

    // Act
    const target = dayForNewRecord(state, dated(NOW), refuse);

    // Assess
    expect(target).toEqual({ day: state.day, seen: state.day, events: [] });
  });

  it('refuses a record dated after the open day (DAY_IS_NOT_CLOSED)', () => {
    // Assess
    expect(refusal(() => dayForNewRecord(ledgerState(), dated(TOMORROW), refuse))).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'DAY_IS_NOT_CLOSED',
    });
  });

  it('opens the next day, numbered without a gap, empty, at the next version, when the last is closed and reported', () => {
    // Prepare: day 3, yesterday's, is closed and its Z report printed; the register is at version 12.
    const state = ledgerState(closedDay({ date: TODAY - 1, reportPrinted: true }));

    // Act
    const target = dayForNewRecord(state, dated(NOW), refuse);

    // Assess
    expect(target.seen).toBeUndefined();
    expect(target.day).toMatchObject({
      dayNumber: 4,
      date: TODAY,
      opened: true,
      reportPrinted: false,
      open: NOW,
      close: null,
      cash: 0,
    });
    expect(target.day).toMatchObject({ openVersion: 13, totals: totalsWith() });
    expect(target.events).toEqual([{ type: 'DAY_OPENED', dayNumber: 4, data: { date: TODAY } }]);
  });

  it("opens day 1 on a register's first record", () => {
    // Act
    const target = dayForNewRecord(ledgerState(null), dated(NOW), refuse);

    // Assess
    expect(target.day).toMatchObject({ dayNumber: 1, date: TODAY });
  });

  it('dates a day an older record opens no earlier than the last day', () => {
    // Prepare: the last day is dated today; the record, two days ago.
    const state = ledgerState(closedDay({ reportPrinted: true }));

    // Act
    const target = dayForNewRecord(state, dated(NOW - 2 * 24 * 3_600_000), refuse);

    // Assess
    expect(target.day).toMatchObject({ dayNumber: 4, date: TODAY });
  });

  it("refuses to open a day before the last day's Z report is printed (REPORT_IS_NOT_PRINTED)", () => {
    // Assess
    expect(refusal(() => dayForNewRecord(ledgerState(closedDay()), dated(NOW), refuse))).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'REPORT_IS_NOT_PRINTED',
    });
  });
});

describe('a record naming its day (checkNamedDay)', () => {
  const refuse = () => dayRefusal('saleWrite', 'DAY_IS_CLOSED', 33);

  it('lets the open day through', () => {
    // Assess
    expect(() => checkNamedDay(ledgerState(), 3, refuse)).not.toThrow();
  });

  it.each([
    ['a day before the latest', 2, storedDay()],
    ['the latest, closed', 3, closedDay()],
  ])('refuses %s (DAY_IS_CLOSED)', (_, dayNumber, latest) => {
    // Assess
    expect(refusal(() => checkNamedDay(ledgerState(latest), dayNumber, refuse))).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: 'DAY_IS_CLOSED',
    });
  });

  it.each([
    ['a day after the latest', 4, storedDay()],
    ['day 0', 0, storedDay()],
    ['a day of a register that never opened one', 1, null],
  ])('refuses %s as unknown (404 ReferenceNotFound)', (_, dayNumber, latest) => {
    // Assess
    expect(refusal(() => checkNamedDay(ledgerState(latest), dayNumber, refuse))).toEqual({
      status: 404,
      exception: 'ReferenceNotFound',
      code: null,
    });
  });
});

describe('opening a day (POST /days)', () => {
  const open = () => openDay(requestOf({}));

  it('opens the next day: 201 with its number, the day written new, the ledger and journal moved', async () => {
    // Prepare
    const state = ledgerState(closedDay({ date: TODAY - 1, reportPrinted: true }));

    // Act
    const decision = await decided(open, state);

    // Assess
    expect(decision.result).toEqual({ status: 201, body: { identifier: '4' } });
    expect(decision.entities).toEqual([
      expect.objectContaining({
        kind: 'DAY',
        key: dayKey(writer, 4),
        seen: undefined,
        data: expect.objectContaining({ dayNumber: 4, date: TODAY, opened: true, open: NOW, openVersion: 13 }),
      }),
    ]);
    expect(decision.ledger.day).toEqual({ dayNumber: 4, date: TODAY, opened: true, reportPrinted: false });
    expect(decision.events).toEqual([{ type: 'DAY_OPENED', dayNumber: 4, data: { date: TODAY } }]);
  });

  it('refuses to open a day while one is open (409 VersionConflict DAY_IS_NOT_CLOSED)', async () => {
    // Assess
    expect(await refused(open, ledgerState())).toEqual({ status: 409, exception: 'VersionConflict', code: 'DAY_IS_NOT_CLOSED' });
  });

  it("refuses to open a day before the last day's Z report is printed (409 VersionConflict REPORT_IS_NOT_PRINTED)", async () => {
    // Assess
    expect(await refused(open, ledgerState(closedDay()))).toEqual({
      status: 409,
      exception: 'VersionConflict',
      code: 'REPORT_IS_NOT_PRINTED',
    });
  });
});

describe('closing a day (POST days/current)', () => {
  const close = () => closeDay(requestOf({}));
  /** Day 3, open, with 125.00 kr of cash sales, all printed; its breakdown kept in its item (as days once were stored). */
  const soldDay = () =>
    storedDay({
      cash: 12500,
      totals: {
        ...totalsWith({ sold: { count: 1, brutto: 12500, vat: 2500, netto: 10000 }, receipts: 1 }),
        products: { 'P#P1': { count: 1, brutto: 12500, vat: 2500 } },
        groups: { 'G#Dryck': { count: 1, brutto: 12500, vat: 2500 } },
      },
    });

  it("freezes the day: closed now, its cash and the register's grand totals kept, the ledger and journal moved", async () => {
    // Prepare: 1 000.00 kr sold and 50.00 kr refunded since the register's first day.
    const state = ledgerState(soldDay());

    // Act
    const decision = await decided(close, state);

    // Assess
    expect(decision.result).toMatchObject({
      status: 201,
      body: { dayNumber: 3, opened: false, close: NOW, cashAtClose: 12500, grandTotal: 100000, grandTotalRefund: 5000 },
    });
    expect(decision.entities).toEqual([
      expect.objectContaining({
        key: dayKey(writer, 3),
        seen: state.day,
        data: expect.objectContaining({
          opened: false,
          reportPrinted: false,
          close: NOW,
          cashAtClose: 12500,
          grandTotal: 100000,
        }),
      }),
    ]);
    expect(decision.ledger).toMatchObject({ lastClose: NOW, day: { dayNumber: 3, opened: false, reportPrinted: false } });
    expect(decision.events).toEqual([expect.objectContaining({ type: 'DAY_CLOSED', dayNumber: 3, amount: 12500 })]);
  });

  it.each([
    ['a closed day', closedDay({ reportPrinted: true })],
    ['no day at all', null],
  ])('refuses to close %s (422 DAY_IS_CLOSED)', async (_, latest) => {
    // Assess
    expect(await refused(close, ledgerState(latest))).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'DAY_IS_CLOSED',
    });
  });

  it('refuses to close while a sold sale of the day has no Normal receipt (422 RECEIPT_IS_NOT_PRINTED)', async () => {
    // Prepare
    const state = ledgerState(
      storedDay({ totals: totalsWith({ sold: { count: 1, brutto: 12500, vat: 2500, netto: 10000 }, unprinted: 1 }) }),
    );

    // Assess
    expect(await refused(close, state)).toEqual({
      status: 422,
      exception: 'UnprocessableEntity',
      code: 'RECEIPT_IS_NOT_PRINTED',
    });
  });
});

describe('naming the closing treasurer (PUT /days/{id})', () => {
  const put =
    (body: { opened?: boolean; closedDayTreasurer?: string }, day = '3') =>
    () =>
      updateDay(requestOf(body, { identifier: day }));

  it('names the treasurer of the open day (204), journalling nothing', async () => {
    // Act
    const decision = await decided(put({ closedDayTreasurer: 'Eva' }), ledgerState());

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.entities).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ opened: true, closedDayTreasurer: 'Eva' }) }),
    ]);
    expect(decision.events).toEqual([]);
  });

  it('closes the open day with opened: false, naming its treasurer', async () => {
    // Act
    const decision = await decided(
      put({ opened: false, closedDayTreasurer: 'Eva' }),
      ledgerState(storedDay({ totals: { ...totalsWith(), products: {}, groups: {} } })),
    );

    // Assess
    expect(decision.result).toEqual({ status: 204 });
    expect(decision.entities[0]?.data).toMatchObject({ opened: false, close: NOW, closedDayTreasurer: 'Eva' });
    expect(kinds(decision.events)).toEqual(['DAY_CLOSED']);
  });

  it('never changes a closed day (409 VersionConflict DAY_IS_CLOSED)', async () => {
    // Assess
    expect(await refused(put({ closedDayTreasurer: 'Eva' }), ledgerState(closedDay({ reportPrinted: true })))).toEqual({
      status: 409,
      exception: 'VersionConflict',
      code: 'DAY_IS_CLOSED',
    });
  });

  it('refuses a day the register does not have (404 NotFound)', async () => {
    // Assess
    expect(await refused(put({ closedDayTreasurer: 'Eva' }, '9'), ledgerState())).toEqual({
      status: 404,
      exception: 'NotFound',
      code: null,
    });
  });
});

describe('printing the Z report (POST days/{id}/report)', () => {
  const print =
    (day = '3') =>
    () =>
      printReport(requestOf({}, { dayIdentifier: day }));

  it("prints a closed day's Z report once: the day marked, the ledger's latest day with it, the journal", async () => {
    // Prepare
    const day = closedDay({
      totals: { ...totalsWith({ sold: { count: 1, brutto: 12500, vat: 2500, netto: 10000 } }), groups: {} },
    });

    // Act
    const decision = await decided(print(), ledgerState(day));

    // Assess
    expect(decision.result).toMatchObject({ status: 201, body: { type: 'Z', reportNumber: 3 } });
    expect(decision.entities).toEqual([
      expect.objectContaining({
        key: dayKey(writer, 3),
        seen: day,
        data: expect.objectContaining({ opened: false, reportPrinted: true }),
      }),
    ]);
    expect(decision.ledger.day).toEqual({ dayNumber: 3, date: TODAY, opened: false, reportPrinted: true });
    expect(decision.events).toEqual([{ type: 'REPORT_PRINTED', dayNumber: 3, amount: 12500 }]);
  });

  it('refuses the report of an open day (404 NotFound DAY_IS_NOT_CLOSED)', async () => {
    // Assess
    expect(await refused(print(), ledgerState())).toEqual({ status: 404, exception: 'NotFound', code: 'DAY_IS_NOT_CLOSED' });
  });

  it('refuses a second Z report (404 NotFound REPORT_IS_PRINTED_ALREADY)', async () => {
    // Assess
    expect(
      await refused(print(), ledgerState(closedDay({ reportPrinted: true, totals: { ...totalsWith(), groups: {} } }))),
    ).toEqual({
      status: 404,
      exception: 'NotFound',
      code: 'REPORT_IS_PRINTED_ALREADY',
    });
  });
});
