import * as validators from '#schemas/generated/validators.js';
import type { SaleBody } from '#schemas/types.ts';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { PAGE_QUERY, queryParam } from '#shared/http/query.ts';
import { DIFF_REFUSALS, loadOnce, onFirstUse, perVersion, type Refusal, route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';

// Each part loads its module on first use: an instance that serves sales never parses the reports' or
// the journal's code at Init (docs/decisions.md, Cold start).
const balance = loadOnce(() => import('./balance.ts'));
const days = loadOnce(() => import('./days.ts'));
const exports = loadOnce(() => import('./exports.ts'));
const journals = loadOnce(() => import('./journals.ts'));
const sales = loadOnce(() => import('./sales.ts'));

const saleBody = perVersion<SaleBody>({ 15: validators.saleV15, 26: validators.saleV26, 33: validators.saleV33 });

/** Users with access to the seller, and its registers, read (docs/conventions.md §14). */
const reader = { access: access.seller } as const;
/** Only the register itself writes its fiscal records (docs/conventions.md §14). */
const register = { access: access.ownRegister } as const;
const V15: readonly (15 | 26 | 33)[] = [15];
/** A write without an identifier of its own: a register retries it under an `Idempotency-Key` (docs/conventions.md §15). */
const once = { idempotent: true } as const;

/** A path without `{cash}` names the register by this parameter; a register may leave it out to mean its own. */
const REGISTER_QUERY = [queryParam('cashRegisterName', { type: 'string' }, 'The register (a register: its own by default).')];
const PERIOD = queryParam('period', { type: 'integer' }, 'Only the last so many days.');
const SALES_QUERY = [...PAGE_QUERY, PERIOD, ...REGISTER_QUERY];
const DAYS_QUERY = [...PAGE_QUERY, PERIOD, ...REGISTER_QUERY];
const JOURNAL_QUERY = [...PAGE_QUERY, queryParam('orderDesc', { type: 'boolean', default: false }, 'Newest first.')];
const GENERATED_QUERY = [
  queryParam('from', { type: 'integer' }, 'A Date: only entries created since.'),
  queryParam('to', { type: 'integer' }, 'A Date: only entries created until.'),
];

/** An unknown register or record; a register the caller may not name (docs/conventions.md §14, §17). */
const REGISTER_READ: readonly Refusal[] = [
  ['NotFound'],
  ['RequestParameterMissing'],
  ['InconsistentData', 'SELLER_HAS_NOT_REGISTRATION'],
];
/** The refusals of a register's day (docs/conventions.md §17): v26/v33 and v15 names. */
const DAY_REFUSALS: readonly Refusal[] = [
  ['ReferenceNotFound', 'DAY_IS_CLOSED', 'DAY_IS_NOT_CLOSED', 'REPORT_IS_NOT_PRINTED'],
  ['UnprocessableEntity'],
  ['NotFound'],
  ['DayClosed'],
  ['DayNotClosed'],
  ['ReceiptNotPrinted'],
  ['ReceiptAlreadyPrinted'],
];
const SALE_WRITE: readonly Refusal[] = [
  ...REGISTER_READ,
  ...DAY_REFUSALS,
  ['VersionConflict'],
  ['InconsistentData', 'SALE_TOTALS_INCONSISTENT', 'RECEIPT_NUMBER_OUT_OF_SEQUENCE', 'CONTROL_CODE_MISSING'],
];
const RECEIPT_READ: readonly Refusal[] = [...REGISTER_READ, ...DAY_REFUSALS];
/** A receipt or report read: JSON, or its text for a receipt printer or HTML page per `Accept` (docs/conventions.md §16, §17). */
const RENDERED = ['text/plain', 'text/html'] as const;
const RECEIPT_DOCUMENT = { media: RENDERED, orJson: 'receipt' } as const;
const REPORT_DOCUMENT = { media: RENDERED, orJson: 'report' } as const;
const PRINT: readonly Refusal[] = [...SALE_WRITE];

// The API reference's texts (docs/conventions.md §14-§19); a text two routes share is written once.
const SALE_POST_TEXT =
  "Records a sale of the caller's register and journals it. It goes into the register's open day; with none open a new " +
  "day opens, which needs the last day's Z report printed, and a sale dated (by its `close`, else now) after the open " +
  "day's date needs that day closed first. The `identifier` (made offline, or chosen by the server when null) is the " +
  'retry key: the same sale again answers the same 201 with `Idempotent-Replayed: true` and writes nothing. Prints in ' +
  '`prints` are appended, a Normal print taking the next receipt number; on a register with a control unit each Normal ' +
  "or Copy print carries the unit's control code for it in `controlNumber`.";
const SALE_PUT_TEXT =
  'Creates (201) or updates (204) the sale the body names by its `identifier`; `If-Match` and `If-None-Match` apply. ' +
  'States move Open -> Paid -> Complete or Open -> Cancelled; a Complete or Cancelled sale takes only new prints, ' +
  'stored prints never change and what a printed receipt shows is fixed. A sale changes only while the day it was ' +
  'recorded in is open; new prints are taken as in a POST.';
const SALES_LIST_TEXT =
  'Lists the sales of the register `cashRegisterName` names, or of every register of the seller: register by register ' +
  'in name order, each in the order it recorded them. `period` keeps the sales of the days dated in the last so many ' +
  "days (1: today, in the seller's time zone); `like` searches `identifier`, `sellerIdentifier` and `treasurer`.";
const DIFF_TEXT = (what: string) =>
  `Answers the register's ${what} whose version v satisfies \`versionFrom < v <= versionTo\`, in version order, from the ` +
  "register's own version stream (read its version first). A `versionTo` above that version is refused; a " +
  '`versionFrom` below its purge mark is outdated: synchronize again from 0.';
const RECEIPT_READ_TEXT =
  "Answers the sale's Normal receipt once it is printed: JSON by default, the receipt laid out for an 80 mm printer " +
  '(42 columns) with `Accept: text/plain`, or an HTML page with `Accept: text/html`. Reading it registers nothing: ' +
  'no copy, no journal entry.';
const RECEIPT_PRINT_TEXT =
  "Appends the sale's Normal print, which takes the register's next receipt number (a training sale's, the next of " +
  'its training series) and a digital link (`receiptUrl`), journals it and answers the receipt. The sale must be of the ' +
  "open day, on that day's date in the seller's time zone. A register with a control unit prints through the sale's " +
  "`prints` with the unit's control code instead, as none is sent here. Without an `Idempotency-Key`, a repeat is " +
  'refused as printed already.';
const COPY_TEXT =
  "Records the one Copy print a receipt may have and answers the receipt marked KOPIA, with its Normal's receipt " +
  'number. A copy of a sale of a closed day leaves that sale and day unchanged and counts in the day open now (one ' +
  'opens for it when none is). A training receipt has no copy; a register with a control unit copies through the ' +
  "sale's `prints`, with the unit's control code.";
const CLOSE_TEXT =
  "Closes the register's open day: freezes its `close`, `cashAtClose` and the register's grand totals, and journals " +
  'its Z report. Every Paid or Complete sale of the day must have its Normal receipt printed first. A closed day never ' +
  'changes again; its Z report must be printed before the next day opens.';
const REPORT_READ_TEXT =
  'Answers the X report of the open day (no report number) or the Z report of a closed one (its report number is the ' +
  'day number): JSON by default, text for an 80 mm printer with `Accept: text/plain` or an HTML page with ' +
  '`Accept: text/html`, labelled in the words of SKVFS 2014:9. Reading it prints nothing.';
const REPORT_PRINT_TEXT =
  "Marks the closed day's Z report printed, journals it and answers the report; once per day. The register's next " +
  'day opens only after it.';
const DAYS_TEXT = (shown: string) =>
  `Answers ${shown}, oldest first, paged; \`period\` keeps the days dated in the last so many days (1: today, in the ` +
  "seller's time zone).";
/** A v15 path names no register: the query does. */
const V15_REGISTER_TEXT = ' `cashRegisterName` names the register; a register leaves it out to mean its own.';

/** A register's trading day (spec 4.7): sales, receipts, days, reports, cash balance and the e-journal. */
export const routes: Route[] = [
  // Sales
  route({
    summary: 'Records a sale',
    description: SALE_POST_TEXT,
    responses: { 201: 'identifierResult', 204: null },
    errors: SALE_WRITE,
    ...register,
    method: 'POST',
    path: '/{sellerId}/sales',
    versions: ALL_VERSIONS,
    body: saleBody,
    readAhead: async (request) => (await sales()).saleWriteAhead(request),
    handle: onFirstUse(sales, 'recordSale'),
  }),
  route({
    summary: 'Creates or updates a sale',
    description: SALE_PUT_TEXT,
    responses: { 201: 'identifierResult', 204: null },
    errors: SALE_WRITE,
    ...register,
    method: 'PUT',
    path: '/{sellerId}/sales',
    versions: SINCE_26,
    body: saleBody,
    readAhead: async (request) => (await sales()).saleWriteAhead(request),
    handle: onFirstUse(sales, 'putSale'),
  }),
  route({
    summary: 'Records a sale',
    description: SALE_POST_TEXT,
    responses: { 201: 'identifierResult', 204: null },
    errors: SALE_WRITE,
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/sales',
    versions: SINCE_26,
    body: saleBody,
    readAhead: async (request) => (await sales()).saleWriteAhead(request),
    handle: onFirstUse(sales, 'recordSale'),
  }),
  route({
    summary: 'Creates or updates a sale',
    description: SALE_PUT_TEXT,
    responses: { 201: 'identifierResult', 204: null },
    errors: SALE_WRITE,
    ...register,
    method: 'PUT',
    path: '/{sellerId}/registrations/{cash}/sales',
    versions: SINCE_26,
    body: saleBody,
    readAhead: async (request) => (await sales()).saleWriteAhead(request),
    handle: onFirstUse(sales, 'putSale'),
  }),
  route({
    summary: 'Lists sales',
    description: SALES_LIST_TEXT,
    query: SALES_QUERY,
    responses: { 200: { view: saleBody, list: true } },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/sales',
    versions: ALL_VERSIONS,
    handle: onFirstUse(sales, 'listSales'),
  }),
  route({
    summary: 'Lists sales as overviews',
    description:
      SALES_LIST_TEXT +
      ' Each sale is an overview: `id`, `close`, `brutto`, `receiptNumber`, `cashRegisterName`, `vatSum`, `treasurer`.',
    query: SALES_QUERY,
    responses: { 200: { list: 'saleOverview' } },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/sales-minified',
    versions: SINCE_26,
    handle: onFirstUse(sales, 'listSalesMinified'),
  }),
  route({
    summary: "Reads a register's changed sales",
    description: DIFF_TEXT('sales'),
    responses: { 200: { view: saleBody, list: true } },
    errors: [...REGISTER_READ, ...DIFF_REFUSALS],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales-diff/{versionFrom}/{versionTo}',
    versions: SINCE_26,
    handle: onFirstUse(sales, 'salesDiff'),
  }),
  // Receipts and copies
  route({
    summary: "Reads a sale's receipt",
    description: RECEIPT_READ_TEXT + V15_REGISTER_TEXT,
    query: REGISTER_QUERY,
    responses: { 200: RECEIPT_DOCUMENT },
    errors: RECEIPT_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/sales/{identifier}/receipt',
    versions: V15,
    readAhead: async (request) => (await sales()).receiptReadAhead(request),
    handle: onFirstUse(sales, 'getReceipt'),
  }),
  route({
    summary: "Prints a sale's receipt",
    description: RECEIPT_PRINT_TEXT,
    responses: { 201: 'receipt' },
    errors: PRINT,
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/sales/{identifier}/receipt',
    versions: V15,
    readAhead: async (request) => (await sales()).receiptPrintAhead(request),
    handle: onFirstUse(sales, 'printReceipt'),
  }),
  route({
    summary: "Reads a sale's receipt",
    description: RECEIPT_READ_TEXT,
    responses: { 200: RECEIPT_DOCUMENT },
    errors: RECEIPT_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales/{identifier}/receipt',
    versions: SINCE_26,
    readAhead: async (request) => (await sales()).receiptReadAhead(request),
    handle: onFirstUse(sales, 'getReceipt'),
  }),
  route({
    summary: "Prints a sale's receipt",
    description: RECEIPT_PRINT_TEXT,
    responses: { 201: 'receipt' },
    errors: PRINT,
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/sales/{identifier}/receipt',
    versions: SINCE_26,
    readAhead: async (request) => (await sales()).receiptPrintAhead(request),
    handle: onFirstUse(sales, 'printReceipt'),
  }),
  route({
    summary: "Prints a copy of a sale's receipt",
    description: COPY_TEXT,
    responses: { 200: 'receipt', 201: 'receipt' },
    errors: RECEIPT_READ,
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/sales/{saleId}/copy',
    versions: V15,
    readAhead: async (request) => (await sales()).copyPrintAhead(request),
    handle: onFirstUse(sales, 'printCopy'),
  }),
  route({
    summary: "Prints a copy of a sale's receipt",
    description: `${COPY_TEXT} Though a GET, it records the copy: do not repeat it to read the receipt again.`,
    responses: { 200: 'receipt' },
    errors: RECEIPT_READ,
    ...register,
    ...once,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales/{saleId}/copy',
    versions: SINCE_26,
    readAhead: async (request) => (await sales()).copyPrintAhead(request),
    handle: onFirstUse(sales, 'printCopy'),
  }),
  // The digital receipt: its unguessable token is the credential (docs/conventions.md §16).
  route({
    summary: 'Opens a digital receipt',
    description:
      'Answers the receipt behind a `receiptUrl` as an HTML page for a phone (JSON with `Accept: application/json`, ' +
      'text with `Accept: text/plain`). The unguessable token is the credential: no credentials are needed and any ' +
      'sent are ignored. Opening it registers nothing, however often.',
    responses: { 200: { media: ['text/html', 'text/plain'], orJson: 'receipt' } },
    errors: [['NotFound']],
    access: access.anyone,
    method: 'GET',
    path: '/noauth/receipts/{token}',
    versions: ALL_VERSIONS,
    handle: onFirstUse(sales, 'openReceipt'),
  }),
  // Days and reports
  route({
    summary: "Lists a register's days",
    description: DAYS_TEXT("`{id, date}` of each of the register's days") + V15_REGISTER_TEXT,
    query: DAYS_QUERY,
    responses: { 200: { list: 'dayMinified' } },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/days',
    versions: V15,
    handle: onFirstUse(days, 'listDaysV15'),
  }),
  route({
    summary: 'Opens a day',
    description:
      "Opens the caller's register's next trading day (numbered 1, 2, 3, ... without gaps, dated today in the seller's " +
      'time zone) and answers its number as the identifier; `closedDayTreasurer` may be named already. Refused while a ' +
      "day is open or the last day's Z report is not printed. Opening is optional: the register's first sale or " +
      'balance change opens a day when none is open.',
    responses: { 201: 'identifierResult' },
    errors: [...REGISTER_READ, ['VersionConflict', 'DAY_IS_NOT_CLOSED', 'REPORT_IS_NOT_PRINTED']],
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/days',
    versions: SINCE_26,
    body: validators.day,
    handle: onFirstUse(days, 'openDay'),
  }),
  route({
    summary: 'Updates the open day',
    description:
      "Names the closing treasurer (`closedDayTreasurer`) of the register's open day; `opened: false` also closes it, " +
      "as closing the current day does. The body's other fields are the server's and are ignored. A closed day never " +
      "changes. `If-Match` takes the day's `version`.",
    responses: { 204: null },
    errors: [...REGISTER_READ, ...DAY_REFUSALS, ['VersionConflict']],
    ...register,
    method: 'PUT',
    path: '/{sellerId}/days/{identifier}',
    versions: SINCE_26,
    body: validators.day,
    handle: onFirstUse(days, 'updateDay'),
  }),
  route({
    summary: 'Closes the current day',
    description: `${CLOSE_TEXT} It answers the closed day's \`{id, date}\`.`,
    responses: { 201: 'dayMinified' },
    errors: [...REGISTER_READ, ...DAY_REFUSALS],
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/days/current',
    versions: V15,
    handle: onFirstUse(days, 'closeDay'),
  }),
  route({
    summary: "Reads a day's report",
    description: REPORT_READ_TEXT + V15_REGISTER_TEXT,
    query: REGISTER_QUERY,
    conditional: 'read',
    responses: { 200: REPORT_DOCUMENT },
    errors: [...REGISTER_READ, ...DAY_REFUSALS],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/days/{dayId}/report',
    versions: V15,
    readAhead: async (request) => (await days()).reportReadAhead(request),
    handle: onFirstUse(days, 'getReport'),
  }),
  route({
    summary: "Prints a day's Z report",
    description: REPORT_PRINT_TEXT,
    responses: { 201: 'report' },
    errors: [...REGISTER_READ, ...DAY_REFUSALS],
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/days/{dayId}/report',
    versions: V15,
    handle: onFirstUse(days, 'printReport'),
  }),
  route({
    summary: "Lists a register's days",
    description: DAYS_TEXT("the register's days, each with its state, cash and grand totals"),
    query: DAYS_QUERY,
    responses: { 200: { list: 'dayView' } },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days',
    versions: SINCE_26,
    handle: onFirstUse(days, 'listDays'),
  }),
  route({
    summary: "Lists a register's days in brief",
    description: DAYS_TEXT("`{id, date}` of each of the register's days"),
    query: DAYS_QUERY,
    responses: { 200: { list: 'dayMinified' } },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days-minified',
    versions: SINCE_26,
    handle: onFirstUse(days, 'listDaysMinified'),
  }),
  route({
    summary: "Reads a register's changed days",
    description: DIFF_TEXT('days'),
    responses: { 200: { list: 'dayView' } },
    errors: [...REGISTER_READ, ...DIFF_REFUSALS],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days-diff/{versionFrom}/{versionTo}',
    versions: SINCE_26,
    handle: onFirstUse(days, 'daysDiff'),
  }),
  route({
    summary: 'Closes the current day',
    description: `${CLOSE_TEXT} It answers the closed day.`,
    responses: { 201: 'dayView' },
    errors: [...REGISTER_READ, ...DAY_REFUSALS],
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/days/current',
    versions: SINCE_26,
    handle: onFirstUse(days, 'closeDay'),
  }),
  route({
    summary: "Reads a day's report",
    description: REPORT_READ_TEXT,
    conditional: 'read',
    responses: { 200: REPORT_DOCUMENT },
    errors: [...REGISTER_READ, ...DAY_REFUSALS],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days/{dayIdentifier}/report',
    versions: SINCE_26,
    readAhead: async (request) => (await days()).reportReadAhead(request),
    handle: onFirstUse(days, 'getReport'),
  }),
  route({
    summary: "Prints a day's Z report",
    description: REPORT_PRINT_TEXT,
    responses: { 201: 'report' },
    errors: [...REGISTER_READ, ...DAY_REFUSALS],
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/days/{dayIdentifier}/report',
    versions: SINCE_26,
    handle: onFirstUse(days, 'printReport'),
  }),
  // Cash balance
  route({
    summary: 'Reads the cash balance',
    description:
      "Answers the cash in the register's drawer in its open day: deposits and cash payments of sales, less cash paid " +
      'back for refunds and withdrawals. Refused with no day open.',
    responses: { 200: 'amountResult' },
    errors: [...REGISTER_READ, ...DAY_REFUSALS],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/balance',
    versions: ALL_VERSIONS,
    readAhead: async (request) => (await balance()).balanceReadAhead(request),
    handle: onFirstUse(balance, 'getBalance'),
  }),
  route({
    summary: 'Deposits or withdraws cash',
    description:
      "Records a `DEPOSIT` or `WITHDRAWAL` of `amount` in the register's open day (one opens for it when none is; an " +
      'open day of an earlier date must be closed first), journals it and answers the new balance; a withdrawal above ' +
      'the balance is refused. Without an `Idempotency-Key` a repeat is a second deposit or withdrawal.',
    responses: { 201: 'amountResult' },
    errors: [...REGISTER_READ, ...DAY_REFUSALS],
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/balance',
    versions: ALL_VERSIONS,
    body: validators.balanceChange,
    handle: onFirstUse(balance, 'changeBalance'),
  }),
  // E-journal
  route({
    summary: "Reads a register's e-journal",
    description:
      "Lists the register's journal entries, oldest first (`orderDesc=true`: newest first), paged. Every fiscal event " +
      'appends one in the same transaction: numbered by a gap-free `sequence` and chained by SHA-256 (`previousHash`, ' +
      '`hash`), so a gap or a change shows.',
    query: JOURNAL_QUERY,
    responses: { 200: { list: 'journalEntry' } },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/e-journals/{cash}',
    versions: ALL_VERSIONS,
    handle: onFirstUse(journals, 'listJournal'),
  }),
  route({
    summary: "Appends an event to a register's e-journal",
    description:
      "Appends the register's own event and answers its `sequence`: a device event (no `type`, or `DEVICE`: any JSON " +
      'object of at most 8192 bytes in `data`) or a register event of SKVFS 2021:16 (`LOGIN`, `DRAWER_OPENED`, ' +
      "`ARTICLE_REGISTERED`, ...) with its `created` and exactly its type's `data` fields. A `created` more than 5 " +
      "minutes ahead of the server's clock, or before the close of the register's latest closed day, is refused. A " +
      "`DRAWER_OPENED` counts in the open day's drawer openings.",
    responses: { 201: 'sequenceResult' },
    // A register event dated before the latest day's close (docs/conventions.md §19).
    errors: [...REGISTER_READ, ['UnprocessableEntity', 'DAY_IS_CLOSED']],
    ...register,
    ...once,
    method: 'POST',
    path: '/{sellerId}/e-journals/{cash}',
    versions: ALL_VERSIONS,
    body: validators.journalUpload,
    handle: onFirstUse(journals, 'appendJournalEvent'),
  }),
  route({
    summary: "Reads a register's signed e-journal",
    description:
      "Answers the register's journal chain, or the entries created from `from` to `to`, with its head signed by the " +
      'activation key (ECDSA P-256; `publicKeyFileName` names the public key, served without credentials as for ' +
      'activation codes), so that it can be verified offline: every hash, the chain and the signature. A period whose ' +
      'entries do not fit in one answer is refused, naming the longest period from `from` that does (`details[0].params` ' +
      '`from` and `to`); entries are created in sequence order, never earlier than the one before.',
    query: GENERATED_QUERY,
    responses: { 200: 'generatedJournal' },
    // A period longer than one answer (docs/conventions.md §19).
    errors: [...REGISTER_READ, ['InconsistentData', 'SERVER_IS_OVERLOADED']],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/generated-e-journals/{cash}',
    versions: [33],
    handle: onFirstUse(journals, 'generatedJournal'),
  }),
  route({
    summary: "Exports a register's journal for Skatteverket",
    description:
      "Answers the journal of the period `from` to `to` (Dates, either may be left out) as Skatteverket's SKVFS " +
      '2021:16 XML document, as a file to save, gzipped when `Accept-Encoding` allows. Refused when the period holds ' +
      'no event the format records, or when a fact the document needs is missing (`details[0].params.missing` names ' +
      'it).',
    query: GENERATED_QUERY,
    responses: { 200: { media: ['application/xml'] } },
    errors: [...REGISTER_READ, ['InconsistentData', 'JOURNAL_EXPORT_INCOMPLETE']],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/journal-export',
    versions: [33],
    handle: onFirstUse(journals, 'journalExport'),
  }),
  route({
    summary: "Starts an export of a register's journal for Skatteverket",
    description:
      "Starts writing the journal of the period `from` to `to` (Dates, either may be left out) as Skatteverket's SKVFS " +
      '2021:16 document, in the background, for a period of any length: answers `202` with the export and its ' +
      '`Location`, which is then polled until `DONE` (its `url` downloads the gzipped file) or `FAILED` (its `error` ' +
      'is what the synchronous export would have answered). The same period asked again while its export is ' +
      '`PENDING` or `RUNNING` answers that export (`200`).',
    body: validators.journalExportOrder,
    responses: { 200: 'exportJob', 202: 'exportJob' },
    errors: [...REGISTER_READ, ['ServiceUnavailable']],
    ...reader,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/journal-exports',
    versions: [33],
    handle: onFirstUse(exports, 'startJournalExport'),
  }),
  route({
    summary: "Lists a register's journal exports",
    description: "Answers the register's journal exports, newest first, each as `GET .../journal-exports/{exportId}` answers it.",
    query: PAGE_QUERY,
    responses: { 200: 'exportJobList' },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/journal-exports',
    versions: [33],
    handle: onFirstUse(exports, 'listJournalExports'),
  }),
  route({
    summary: "Reads a register's journal export",
    description:
      "Answers the export's `status`; when `DONE`, the gzipped file's `bytes` and `sha256` and a `url` that downloads it " +
      'until `expires` (a new one at each read); when `FAILED`, the `error` the synchronous export would have answered ' +
      '(`404 NotFound` for a period without events, `409 JOURNAL_EXPORT_INCOMPLETE`). An export is kept 7 days.',
    responses: { 200: 'exportJobState' },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/journal-exports/{exportId}',
    versions: [33],
    handle: onFirstUse(exports, 'readJournalExport'),
  }),
];

export const handler = httpApi(routes);
