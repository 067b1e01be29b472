import type { ApiError } from '#shared/errors.ts';
import { notFound } from '#shared/errors.ts';
import { put } from '#shared/db/transact.ts';
import { businessDate } from '#shared/fiscal/dates.ts';
import {
  lastReceipt,
  type LedgerDecision,
  type LedgerState,
  type Reader,
  SALE,
  saleKey,
  type Writer,
  registerKeys,
} from '#shared/fiscal/ledger.ts';
import type { FiscalContext } from '#shared/fiscal/context.ts';
import type { Print, PrintType, Sale } from '#shared/fiscal/model.ts';
import { buildReceipt, receiptUrlOf } from '#shared/fiscal/receipt.ts';
import { saleContribution, subtractTotals } from '#shared/fiscal/totals.ts';
import { type ApiVersion } from '#shared/versions.ts';
import { dayForNewRecord, dayWrite, latestDay, withTotals } from './day-rules.ts';
import { controlCodes, controlUnitNameOf, printEvent, receiptSeries, takePrints } from './sale-write.ts';
import type { DayCondition } from './refusals.ts';
import { saleView } from './views.ts';

/** A print of a stored sale: its Normal receipt (`POST .../receipt`) or a copy of it (docs/conventions.md §16). */
export interface PrintRequest {
  register: Writer;
  identifier: string;
  printType: Extract<PrintType, 'Normal' | 'Copy'>;
  version: ApiVersion;
  timeZone: string;
  refuse: (condition: DayCondition, message?: string, printType?: PrintType) => ApiError;
}

/**
 * The receipt as a register prints it (docs/conventions.md §16): every item of SKVFS 2014:9, 7 kap. 1 § (`buildReceipt`),
 * its digital link, and the sale it is of as the version shows it.
 */
export const receiptView = (context: FiscalContext, sale: Sale, print: Print, version: ApiVersion) => ({
  ...buildReceipt(context, sale, print, version, receiptUrlOf(sale, print, version)),
  sale: saleView(sale, version),
});

/** A print that was stored: the sale with it and the print, answered with `status` once the receipt's context is read. */
export interface Printed {
  status: 200 | 201;
  sale: Sale;
  print: Print;
}

export const isNormal = (print: Print) => print.printType === 'Normal';
export const normalPrint = (sale: Sale) => sale.prints.find(isNormal);

/**
 * The decision of a print. A sale of the open day gets the print appended (a Normal print takes the
 * next receipt number) and the day's totals move with it. A copy of a sale of a closed day leaves the
 * sale and its day as they are: it counts in the day open now (opened for it if none is), and the
 * journal records it.
 */
export function decidePrint(request: PrintRequest, state: LedgerState, read: Reader, now: number): LedgerDecision<Printed> {
  const stored = read(saleKey(request.register, request.identifier));
  if (!stored) throw notFound(`No sale ${request.identifier}`);
  const printed = normalPrint(stored);
  if (request.printType === 'Normal' && printed) throw request.refuse('RECEIPT_IS_PRINTED_ALREADY');
  if (request.printType === 'Copy' && !printed) throw request.refuse('RECEIPT_IS_NOT_PRINTED');
  const record = printed?.receiptNumber
    ? read(registerKeys.receipt(request.register.sellerId, request.register.cash, printed.receiptNumber))
    : undefined;
  if (request.printType === 'Copy' && record?.copied !== undefined) {
    throw request.refuse('RECEIPT_IS_PRINTED_ALREADY', 'The receipt has its one copy already', 'Copy');
  }
  const ofOpenDay = state.day?.opened === true && state.day.dayNumber === stored.day;
  if (!ofOpenDay && request.printType === 'Normal') throw request.refuse('DAY_IS_CLOSED');
  const prints = takePrints(
    stored.prints,
    [...stored.prints, { printType: request.printType, receiptNumber: null }],
    {
      lastReceipt: lastReceipt(state.ledger, stored),
      controlCodes: controlCodes(read, request.register, stored),
      now,
      training: stored.training === true,
    },
    request.refuse,
  );
  const sale: Sale = { ...stored, prints: prints.all };
  const print = prints.added[0] as Print;
  const change = subtractTotals(saleContribution(sale), saleContribution(stored));
  const target =
    ofOpenDay && state.day
      ? { day: state.day, seen: state.day, events: [] }
      : dayForNewRecord(state, { instant: now, timeZone: request.timeZone, now }, request.refuse);
  if (businessDate(now, request.timeZone) > target.day.date) throw request.refuse('DAY_IS_NOT_CLOSED');
  const day = withTotals(target.day, change);
  return {
    result: { status: request.version === 15 || request.printType === 'Normal' ? 201 : 200, sale, print },
    entities: [
      ...(ofOpenDay ? [{ kind: SALE, key: saleKey(request.register, sale.identifier), seen: stored, data: sale }] : []),
      dayWrite(request.register, { day, seen: target.seen }),
    ],
    ledger: { ...state.ledger, ...receiptSeries(stored, prints.receipt), day: latestDay(day) },
    events: [
      ...target.events,
      { ...printEvent(sale, print, controlUnitNameOf(read, request.register)), dayNumber: day.dayNumber },
    ],
    alongside: [
      ...prints.receipts(request.register, sale),
      ...(request.printType === 'Copy' && record ? [put({ ...record, copied: now })] : []),
    ],
  };
}
