import { ApiError, type CodeOf, type Exception } from '#shared/errors.ts';
import type { PrintType } from '#shared/fiscal/model.ts';
import type { ApiVersion } from '#shared/versions.ts';

/** The states of a register's day and receipts a fiscal write may find wrong (docs/conventions.md §17, spec 3). */
export type DayCondition =
  | 'DAY_IS_CLOSED'
  | 'DAY_IS_NOT_CLOSED'
  | 'REPORT_IS_NOT_PRINTED'
  | 'REPORT_IS_PRINTED_ALREADY'
  | 'RECEIPT_IS_NOT_PRINTED'
  | 'RECEIPT_IS_PRINTED_ALREADY';

/** The exception v26 and v33 answer a condition with, per endpoint (spec 4.7; docs/conventions.md §15). */
const EXCEPTION_AT = {
  saleWrite: 'ReferenceNotFound',
  balanceRead: 'ReferenceNotFound',
  balanceChange: 'UnprocessableEntity',
  receipt: 'UnprocessableEntity',
  close: 'UnprocessableEntity',
  copy: 'NotFound',
  report: 'NotFound',
  dayOpen: 'VersionConflict',
} as const satisfies Record<string, Exception>;

export type FiscalEndpoint = keyof typeof EXCEPTION_AT;

/** The conditions an endpoint refuses with: those its v26/v33 exception carries (shared/errors.ts `CODES`). */
export type ConditionAt<P extends FiscalEndpoint> = DayCondition & CodeOf<(typeof EXCEPTION_AT)[P]>;

/** The exceptions that carry `C` as their code. */
type CarrierOf<C extends DayCondition> = { [E in Exception]: C extends CodeOf<E> ? E : never }[Exception];

/** v15 names the exception after the condition (spec 3). */
const V15_EXCEPTION = {
  DAY_IS_CLOSED: 'DayClosed',
  DAY_IS_NOT_CLOSED: 'DayNotClosed',
  REPORT_IS_NOT_PRINTED: 'ReceiptNotPrinted',
  REPORT_IS_PRINTED_ALREADY: 'ReceiptAlreadyPrinted',
  RECEIPT_IS_NOT_PRINTED: 'ReceiptNotPrinted',
  RECEIPT_IS_PRINTED_ALREADY: 'ReceiptAlreadyPrinted',
} as const satisfies { [C in DayCondition]: CarrierOf<C> };

const MESSAGES: Record<DayCondition, string> = {
  DAY_IS_CLOSED: 'The day is closed',
  DAY_IS_NOT_CLOSED: 'The day is not closed',
  REPORT_IS_NOT_PRINTED: "The last day's Z report is not printed",
  REPORT_IS_PRINTED_ALREADY: "The day's Z report is printed already",
  RECEIPT_IS_NOT_PRINTED: 'A receipt is not printed',
  RECEIPT_IS_PRINTED_ALREADY: 'The receipt is printed already',
};

/**
 * The refusal of a fiscal write or read for a condition of the day: the endpoint's exception in v26
 * and v33, the condition's own in v15.
 */
export function dayRefusal<P extends FiscalEndpoint>(
  endpoint: P,
  condition: ConditionAt<P>,
  version: ApiVersion,
  message: string = MESSAGES[condition],
  printType?: PrintType,
): ApiError {
  const options = printType ? { details: { printType } } : {};
  if (version !== 15) return new ApiError(EXCEPTION_AT[endpoint], condition, message, options);
  // V15_EXCEPTION's type has checked each condition's exception carries it; the lookup by the one key keeps the pair.
  const v15: DayCondition = condition;
  return new ApiError(V15_EXCEPTION[v15], v15, message, options);
}
