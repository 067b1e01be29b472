/** @cash-register/client: a typed client of the cash-register API (v15, v26, v33), generated from its OpenAPI documents. */
export {
  type ApiPaths,
  type ApiVersion,
  authorization,
  type CashRegisterClient,
  type ClientConfig,
  clientOf,
  createCashRegisterClient,
  type Credentials,
  type ErrorBody,
  errorBodyOf,
  withCredentials,
} from './client.ts';
export {
  ExportError,
  type ExportErrorReason,
  type ExportedFile,
  type ExportJob,
  type ExportOptions,
  type ExportRoutes,
  type ExportState,
  type ExportStatus,
  exportJournal,
  exportSalesCsv,
  type JournalExport,
  runExport,
  type SalesCsvExport,
} from './exports.ts';
export { type Answer, etagOf, ifMatch, isVersionConflict, type Update, updateWithETag } from './etag.ts';
export {
  type IdempotencyHeaders,
  postSale,
  type Retried,
  type RetryPolicy,
  retryIdempotent,
  type Sale,
  sendOnce,
} from './retry.ts';
export type { components as V15Components, paths as V15Paths } from './generated/v15.ts';
export type { components as V26Components, paths as V26Paths } from './generated/v26.ts';
export type { components as V33Components, paths as V33Paths } from './generated/v33.ts';
