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

/** A register's trading day (spec 4.7): sales, receipts, days, reports, cash balance and the e-journal. */
export const routes: Route[] = [
  // Sales
  route({
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
    responses: { 200: { list: 'dayView' } },
    errors: [...REGISTER_READ, ...DIFF_REFUSALS],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days-diff/{versionFrom}/{versionTo}',
    versions: SINCE_26,
    handle: onFirstUse(days, 'daysDiff'),
  }),
  route({
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
    query: GENERATED_QUERY,
    responses: { 200: 'generatedJournal' },
    errors: REGISTER_READ,
    ...reader,
    method: 'GET',
    path: '/{sellerId}/generated-e-journals/{cash}',
    versions: [33],
    handle: onFirstUse(journals, 'generatedJournal'),
  }),
  route({
    query: GENERATED_QUERY,
    responses: { 200: { media: ['application/xml'] } },
    errors: [...REGISTER_READ, ['InconsistentData', 'JOURNAL_EXPORT_INCOMPLETE']],
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/journal-export',
    versions: [33],
    handle: onFirstUse(journals, 'journalExport'),
  }),
];

export const handler = httpApi(routes);
