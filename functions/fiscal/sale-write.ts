import { hash, randomFillSync } from 'node:crypto';
import { type Key } from '#shared/db/keys.ts';
import type { Stored } from '#shared/db/streams.ts';
import { put, type Step } from '#shared/db/transact.ts';
import {
  type ApiError,
  inconsistentData,
  referenceNotFound,
  unprocessable,
  valueNotValid,
  versionConflict,
} from '#shared/errors.ts';
import { saleTotalsProblem } from '#shared/fiscal/arithmetic.ts';
import { canonicalJson, type JournalEvent } from '#shared/fiscal/journal.ts';
import { journalData, journalReceipt } from '#shared/fiscal/journal-records.ts';
import {
  lastReceipt,
  type Ledger,
  type LedgerDecision,
  type LedgerState,
  type Reader,
  type ReceiptLink,
  type ReceiptRecord,
  type Register,
  SALE,
  saleKey,
  type Writer,
  registerKeys,
} from '#shared/fiscal/ledger.ts';
import type { Print, PrintType, Sale, SaleState } from '#shared/fiscal/model.ts';
import { claimTypeOf, controlCodeProblem } from '#shared/kd/claims.ts';
import { saleContribution, subtractTotals } from '#shared/fiscal/totals.ts';
import { checkPreconditions, type Preconditions } from '#shared/http/conditions.ts';
import { replayed } from '#shared/http/idempotency.ts';
import { created, noContent } from '#shared/http/response.ts';
import type { Reply } from '#shared/http/types.ts';
import { checkNamedDay, dayForNewRecord, dayWrite, latestDay, type TargetDay, withTotals } from './day-rules.ts';
import { freezeLines, type ProductFacts } from './lines.ts';
import { activationKeys, unitNameOf } from '#shared/domain/records.ts';
import { kdKeys } from '#shared/kd/records.ts';

/** A sale as a register sends it, in canonical form: the server sets its day and keeps its digest. */
export type SaleContent = Omit<Sale, 'identifier' | 'day' | 'postDigest'>;

/** A sale write as the route asks it (docs/conventions.md §15). */
export interface SaleWrite {
  register: Writer;
  mode: 'POST' | 'PUT';
  identifier: string;
  content: SaleContent;
  /** The day the body names (v26, v33), honoured for a new sale (docs/conventions.md §15); null: the server's choice. */
  day: number | null;
  /** SHA-256 of the canonical JSON of the body as sent: a repeated POST is compared with it. */
  digest: string;
  conditions: Preconditions;
  timeZone: string;
  refuse: (condition: 'DAY_IS_CLOSED' | 'DAY_IS_NOT_CLOSED' | 'REPORT_IS_NOT_PRINTED') => ApiError;
  /** The refusal of the sale's prints (v15 names its own exceptions; docs/conventions.md §17). */
  refusePrint: PrintRefusal;
  /** The catalog's facts of the products the lines name without their own (`lines.ts`). */
  facts: ReadonlyMap<string, ProductFacts>;
}

/** How an endpoint refuses a print the receipt rules do not allow (docs/conventions.md §16). */
export type PrintRefusal = (
  condition: 'RECEIPT_IS_NOT_PRINTED' | 'RECEIPT_IS_PRINTED_ALREADY',
  message: string,
  printType?: PrintType,
) => ApiError;

export const digestOf = (body: unknown): string => hash('sha256', canonicalJson(body), 'hex');

/** The items a sale write reads besides the ledger: the sale, and the receipt a refund is for. */
export const saleWriteReads = (write: SaleWrite) => [
  saleKey(write.register, write.identifier),
  activationKeys.activation(write.register.activationId),
  ...(write.content.refund && write.content.refundFor
    ? [registerKeys.receipt(write.register.sellerId, write.register.cash, write.content.refundFor)]
    : []),
];

/** The kd claims a sale write's new prints need (fail closed), read once the ledger's last receipt number is known. */
export const saleWriteLaterReads =
  (write: SaleWrite) =>
  (ledger: Ledger, read: Reader): readonly Key[] =>
    claimReads(read, write.register, read(saleKey(write.register, write.identifier))?.prints ?? [], write.content, ledger);

const SOLD: readonly SaleState[] = ['Paid', 'Complete'];
/** The moves docs/conventions.md §15 allows; Complete and Cancelled are final. */
const NEXT_STATES: Record<SaleState, readonly SaleState[]> = {
  Open: ['Open', 'Paid', 'Cancelled'],
  Paid: ['Paid', 'Complete'],
  Complete: ['Complete'],
  Cancelled: ['Cancelled'],
};
/** What a printed receipt shows: fixed once its Normal print is stored (docs/conventions.md §16). */
const RECEIPT_FIELDS = [
  'sellerIdentifier',
  'refund',
  'refundFor',
  'absoluteDiscount',
  'relativeDiscount',
  'vanillaBrutto',
  'discount',
  'brutto',
  'vat',
  'saleProducts',
  'payments',
  'vatRateSums',
] as const satisfies readonly (keyof SaleContent)[];

/** The decision of a sale POST or PUT on the register's ledger as read (docs/conventions.md §14). */
export function decideSaleWrite(write: SaleWrite, state: LedgerState, read: Reader, now: number): LedgerDecision<Reply> {
  const stored = read(saleKey(write.register, write.identifier));
  if (write.mode === 'POST' && stored) {
    if (stored.postDigest === write.digest) {
      return { result: replayed(created(write.identifier)), entities: [], ledger: state.ledger, events: [] };
    }
    throw versionConflict(`Sale ${write.identifier} exists with other content`);
  }
  checkPreconditions(write.conditions, stored?.version);
  const content: SaleContent = {
    ...write.content,
    saleProducts: freezeLines(write.content.saleProducts, stored?.saleProducts, write.facts),
  };
  const problem = saleTotalsProblem({ ...content, identifier: write.identifier, day: 0 });
  if (problem) throw inconsistentData('SALE_TOTALS_INCONSISTENT', problem.message, { relation: problem.relation });
  if (content.training && content.refund) {
    throw valueNotValid('VALUE_SHOULD_BE_LESS_THEN', 'A training receipt cannot be a refund', { field: 'training' });
  }
  if (stored) checkChange(stored, content, write.refusePrint);
  if (!stored && write.day !== null) checkNamedDay(state, write.day, write.refuse);
  const target = stored
    ? storedDay(stored, state, write)
    : dayForNewRecord(state, { instant: content.close ?? now, timeZone: write.timeZone, now }, write.refuse);
  const prints = takePrints(
    stored?.prints ?? [],
    content.prints,
    {
      lastReceipt: lastReceipt(state.ledger, content),
      controlCodes: controlCodes(read, write.register, content),
      now,
      training: content.training === true,
    },
    write.refusePrint,
  );
  const sale: Sale = {
    ...content,
    identifier: write.identifier,
    prints: prints.all,
    day: target.day.dayNumber,
    recorded: stored ? (stored.recorded ?? null) : now,
    postDigest: stored ? (stored.postDigest ?? null) : write.mode === 'POST' ? write.digest : null,
  };
  if (stored && unchanged(stored, sale)) {
    return { result: noContent(), entities: [], ledger: state.ledger, events: [] };
  }
  const refund = refundClaim(write, stored, sale, read);
  // A new sale's change is its contribution: nothing is taken away.
  const contribution = saleContribution(sale);
  const day = withTotals(target.day, stored ? subtractTotals(contribution, saleContribution(stored)) : contribution);
  const normal = sale.prints.find((print) => print.printType === 'Normal');
  const events: JournalEvent[] = [
    ...target.events,
    {
      type: stored ? 'SALE_CHANGED' : 'SALE_RECORDED',
      dayNumber: day.dayNumber,
      saleIdentifier: sale.identifier,
      receiptNumber: normal?.receiptNumber ?? null,
      amount: sale.brutto,
      data: { saleState: sale.saleState, previousState: stored?.saleState ?? null, refund: sale.refund, digest: digestOf(sale) },
    },
    ...prints.added.map((print) => printEvent(sale, print, controlUnitNameOf(read, write.register))),
  ];
  return {
    result: stored ? noContent() : created(write.identifier),
    entities: [
      { kind: SALE, key: saleKey(write.register, write.identifier), seen: stored, data: sale },
      dayWrite(write.register, { day, seen: target.seen }),
    ],
    ledger: {
      ...state.ledger,
      ...receiptSeries(content, prints.receipt),
      day: latestDay(day),
      grand: {
        sales: state.ledger.grand.sales + soldBrutto(sale, false) - (stored ? soldBrutto(stored, false) : 0),
        refunds: state.ledger.grand.refunds + soldBrutto(sale, true) - (stored ? soldBrutto(stored, true) : 0),
      },
    },
    events,
    alongside: [...prints.receipts(write.register, sale), ...refund],
  };
}

/** The ledger's series after a sale's prints took up to `last`. */
export const receiptSeries = (
  sale: { training?: boolean | null },
  last: number,
): Partial<Pick<Ledger, 'receipt' | 'training'>> => (sale.training ? { training: last } : { receipt: last });

/** The brutto a sale adds to the register's grand totals: sold sales, refunds apart. */
const soldBrutto = (sale: Sale, refunds: boolean) =>
  SOLD.includes(sale.saleState) && !sale.training && sale.refund === refunds ? sale.brutto : 0;

/** Whether a write leaves the stored sale as it is (then nothing is written). */
const unchanged = (stored: Stored<Sale>, sale: Sale) =>
  (Object.keys(sale) as (keyof Sale)[]).every(
    (field) => canonicalJson(stored[field] ?? null) === canonicalJson(sale[field] ?? null),
  );

/** The rules of a change to a stored sale: its state moves as docs/conventions.md §15 allows; a printed receipt never changes. */
function checkChange(stored: Sale, next: SaleContent, refusePrint: PrintRefusal): void {
  if (!NEXT_STATES[stored.saleState].includes(next.saleState)) {
    throw unprocessable('PROHIBITED_ORDER_STATUS_CHANGE', `A ${stored.saleState} sale cannot become ${next.saleState}`);
  }
  if (
    stored.refund !== next.refund ||
    (stored.refundFor ?? null) !== (next.refundFor ?? null) ||
    (stored.training ?? false) !== (next.training ?? false)
  ) {
    throw versionConflict("A sale's refund, refundFor and training are fixed when it is recorded");
  }
  const printed = stored.prints.some((print) => print.printType === 'Normal');
  const fixed = (sale: SaleContent) => canonicalJson(RECEIPT_FIELDS.map((field) => sale[field] ?? null));
  if (printed && fixed(stored) !== fixed(next))
    throw refusePrint('RECEIPT_IS_PRINTED_ALREADY', "The sale's receipt is printed; its content cannot change");
  const final = stored.saleState === 'Complete' || stored.saleState === 'Cancelled';
  if (final && fixed(stored) !== fixed(next)) {
    throw unprocessable('PROHIBITED_ORDER_STATUS_CHANGE', `A ${stored.saleState} sale cannot change`);
  }
}

/** A stored sale's day: it can change only while that day is the open one. */
function storedDay(stored: Sale, state: LedgerState, write: SaleWrite): TargetDay {
  if (!state.day || !state.day.opened || state.day.dayNumber !== stored.day) throw write.refuse('DAY_IS_CLOSED');
  return { day: state.day, seen: state.day, events: [] };
}

const identity = (print: Print) => canonicalJson([print.printType, print.receiptNumber ?? null, print.controlNumber ?? null]);

/**
 * The sale's prints after a write (docs/conventions.md §16): the stored ones unchanged, then the new ones in order. A
 * Normal print takes the next receipt number (or must carry exactly it), a Copy repeats its Normal's,
 * a Proforma takes none.
 */
export function takePrints(
  stored: readonly Print[],
  sent: readonly Print[],
  {
    lastReceipt,
    controlCodes,
    now,
    training,
  }: { lastReceipt: number; controlCodes: ControlCodes | undefined; now: number; training: boolean },
  refuse: PrintRefusal,
) {
  if (sent.length < stored.length || stored.some((print, index) => identity(print) !== identity(sent[index] as Print))) {
    throw refuse('RECEIPT_IS_PRINTED_ALREADY', 'Stored prints cannot change or go away; send them first, as stored');
  }
  const all: Print[] = [...stored];
  const added: Print[] = [];
  let receipt = lastReceipt;
  for (const print of sent.slice(stored.length)) {
    const normal = all.find((p) => p.printType === 'Normal');
    const expected =
      print.printType === 'Normal' ? receipt + 1 : print.printType === 'Copy' ? (normal?.receiptNumber ?? null) : null;
    if (print.printType === 'Normal' && normal)
      throw refuse('RECEIPT_IS_PRINTED_ALREADY', 'The sale has its Normal receipt already');
    if (print.printType === 'Copy' && !normal) throw refuse('RECEIPT_IS_NOT_PRINTED', 'A copy needs the Normal receipt first');
    // At most one copy of a receipt (SKVFS 2014:9 6 kap. 3 §); a training receipt is no receipt and has none.
    if (print.printType === 'Copy' && (training || all.some((p) => p.printType === 'Copy'))) {
      const why = training ? 'A training receipt has no copy' : 'The receipt has its one copy already';
      throw refuse('RECEIPT_IS_PRINTED_ALREADY', why, 'Copy');
    }
    if (print.receiptNumber != null && print.receiptNumber !== expected) {
      throw inconsistentData(
        'RECEIPT_NUMBER_OUT_OF_SEQUENCE',
        `The ${print.printType} print's receipt number must be ${expected ?? 'null'}`,
        {
          field: 'receiptNumber',
          expected,
          actualValue: print.receiptNumber,
        },
      );
    }
    const problem = print.printType === 'Proforma' ? undefined : controlCodes?.(print, expected as number);
    if (problem !== undefined) {
      // Fail closed (docs/conventions.md §16): a Normal or Copy print carries the code the unit gave its receipt.
      throw inconsistentData('CONTROL_CODE_MISSING', problem, { field: 'controlNumber' });
    }
    if (print.printType === 'Normal') receipt += 1;
    const taken: Print = {
      ...print,
      receiptNumber: expected,
      created: print.created ?? now,
      printed: print.printed ?? true,
      ...(print.printType === 'Normal' ? { receiptToken: receiptToken() } : {}),
    };
    all.push(taken);
    added.push(taken);
  }
  return {
    all,
    added,
    receipt,
    /**
     * The records of a Normal print: which sale its receipt number is (refunds and copies find it), and its digital link.
     */
    receipts: (register: Register, sale: Sale): Step[] =>
      added
        .filter((print) => print.printType === 'Normal')
        .flatMap((print) => [
          ...(training
            ? []
            : [
                put({
                  ...registerKeys.receipt(register.sellerId, register.cash, print.receiptNumber as number),
                  sale: sale.identifier,
                  brutto: sale.brutto,
                  refunded: 0,
                } satisfies ReceiptRecord & { pk: string; sk: string }),
              ]),
          put({
            ...registerKeys.receiptLink(print.receiptToken as string),
            sellerId: register.sellerId,
            cash: register.cash,
            sale: sale.identifier,
          } satisfies ReceiptLink & { pk: string; sk: string }),
        ]),
  };
}

/**
 * Random bytes for receipt tokens, drawn 4 KiB at a time and each used once (as node:crypto's randomUUID keeps a pool):
 * a draw of 16 bytes of its own was 4 % of a print's CPU besides its DynamoDB calls.
 */
const RANDOM = Buffer.alloc(4096);
let drawn = RANDOM.length;

/** 128 random bits in base64url: a receipt's unguessable token (its digital link, docs/conventions.md §16). */
function receiptToken(): string {
  if (drawn === RANDOM.length) {
    randomFillSync(RANDOM);
    drawn = 0;
  }
  drawn += 16;
  return RANDOM.toString('base64url', drawn - 16, drawn);
}

/** Whether the activation the register writes under has a control unit, which must sign its receipts. */
export const hasControlUnit = (read: Reader, writer: Writer): boolean => controlUnitSerialOf(read, writer) !== null;

/** Why a Normal or Copy print with this receipt number lacks its unit's control code (undefined: it has it). */
export type ControlCodes = (print: Print, receiptNumber: number) => string | undefined;

/**
 * The fail-closed check of a register with a control unit (docs/conventions.md §16, §25): a print is stored
 * only with the control code its kd claim holds, for the sale's amount. Undefined for a register without a unit.
 */
export function controlCodes(
  read: Reader,
  writer: Writer,
  sale: { brutto: number; refund: boolean; training?: boolean | null },
): ControlCodes | undefined {
  if (!hasControlUnit(read, writer)) return undefined;
  return (print, receiptNumber) =>
    controlCodeProblem(
      read(kdKeys.claim(writer.sellerId, writer.cash, receiptNumber, claimTypeOf(print.printType, sale.training))),
      print,
      sale,
    );
}

/**
 * The kd claims the new prints of a sale need on a register with a control unit: the Normal print's takes the
 * ledger's next receipt number, a Copy its Normal's (stored, or the one taken now).
 */
export function claimReads(
  read: Reader,
  writer: Writer,
  stored: readonly Print[],
  sent: { prints: readonly Print[]; training?: boolean | null },
  ledger: Ledger,
): Key[] {
  if (!hasControlUnit(read, writer)) return [];
  const next = lastReceipt(ledger, sent) + 1;
  const normal = stored.find((print) => print.printType === 'Normal')?.receiptNumber ?? next;
  const types = new Set(sent.prints.slice(stored.length).map((print) => print.printType));
  return (['Normal', 'Copy'] as const)
    .filter((type) => types.has(type))
    .map((type) =>
      kdKeys.claim(writer.sellerId, writer.cash, type === 'Normal' ? next : normal, claimTypeOf(type, sent.training)),
    );
}

/** The serial of the control unit the register writes under (its activation's), or null. */
const controlUnitSerialOf = (read: Reader, writer: Writer): string | null =>
  read(activationKeys.activation(writer.activationId))?.controlUnitSerial ?? null;

/** How the register's receipts name its control unit (`unitNameOf`), or null without one. */
export const controlUnitNameOf = (read: Reader, writer: Writer): string | null =>
  unitNameOf(read(activationKeys.activation(writer.activationId)));

/** A print's journal entry, with the receipt it makes (docs/conventions.md §19: the journal keeps the receipt). */
export const printEvent = (sale: Sale, print: Print, controlUnitSerial: string | null): JournalEvent => ({
  type: 'PRINT',
  dayNumber: sale.day,
  saleIdentifier: sale.identifier,
  receiptNumber: print.receiptNumber,
  printType: print.printType,
  amount: sale.brutto,
  controlCode: print.controlNumber ?? null,
  data: journalData({ receipt: journalReceipt(sale, print, controlUnitSerial) }),
});

/** What a refund takes from its original's receipt (docs/conventions.md §15): never more than is left of it. */
function refundClaim(write: SaleWrite, stored: Sale | undefined, sale: Sale, read: Reader): Step[] {
  if (!sale.refund) return [];
  if (sale.refundFor == null)
    throw valueNotValid('SHOULD_NOT_BE_NULL', 'A refund names the receipt it refunds', { field: 'refundFor' });
  const receiptKey = registerKeys.receipt(write.register.sellerId, write.register.cash, sale.refundFor);
  const original = read(receiptKey);
  if (!original) throw referenceNotFound(`No receipt ${sale.refundFor} on register ${write.register.cash}`);
  const claim = (s: Sale | undefined) => (s && s.saleState !== 'Cancelled' ? s.brutto : 0);
  const left = original.brutto - original.refunded + claim(stored);
  if (claim(sale) > left) {
    throw valueNotValid('VALUE_SHOULD_BE_LESS_THEN', `The refund exceeds what is left of receipt ${sale.refundFor}`, {
      field: 'brutto',
      actualValue: sale.brutto,
      valueMax: left,
    });
  }
  return [put({ ...original, refunded: original.refunded + claim(sale) - claim(stored) })];
}
