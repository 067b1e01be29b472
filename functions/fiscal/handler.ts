import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import { balanceBody, changeBalance, getBalance } from './balance.ts';
import {
  closeDay,
  dayBody,
  daysDiff,
  getReport,
  listDays,
  listDaysMinified,
  listDaysV15,
  openDay,
  printReport,
  updateDay,
} from './days.ts';
import { appendDeviceEvent, generatedJournal, journalUploadBody, listJournal } from './journals.ts';
import {
  getReceipt,
  listSales,
  listSalesMinified,
  printCopy,
  printReceipt,
  putSale,
  recordSale,
  saleBody,
  salesDiff,
} from './sales.ts';

/** Users with access to the seller, and its registers, read (docs/conventions.md §14). */
const reader = { access: access.seller } as const;
/** Only the register itself writes its fiscal records (docs/conventions.md §14). */
const register = { access: access.ownRegister } as const;
const V15: readonly (15 | 26 | 33)[] = [15];

/** A register's trading day (spec 4.7): sales, receipts, days, reports, cash balance and the e-journal. */
export const routes: Route[] = [
  // Sales
  route({ ...register, method: 'POST', path: '/{sellerId}/sales', versions: ALL_VERSIONS, body: saleBody, handle: recordSale }),
  route({ ...register, method: 'PUT', path: '/{sellerId}/sales', versions: SINCE_26, body: saleBody, handle: putSale }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/sales',
    versions: SINCE_26,
    body: saleBody,
    handle: recordSale,
  }),
  route({
    ...register,
    method: 'PUT',
    path: '/{sellerId}/registrations/{cash}/sales',
    versions: SINCE_26,
    body: saleBody,
    handle: putSale,
  }),
  route({ ...reader, method: 'GET', path: '/{sellerId}/sales', versions: ALL_VERSIONS, handle: listSales }),
  route({ ...reader, method: 'GET', path: '/{sellerId}/sales-minified', versions: SINCE_26, handle: listSalesMinified }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales-diff/{versionFrom}/{versionTo}',
    versions: SINCE_26,
    handle: salesDiff,
  }),
  // Receipts and copies
  route({ ...reader, method: 'GET', path: '/{sellerId}/sales/{identifier}/receipt', versions: V15, handle: getReceipt }),
  route({ ...register, method: 'POST', path: '/{sellerId}/sales/{identifier}/receipt', versions: V15, handle: printReceipt }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales/{identifier}/receipt',
    versions: SINCE_26,
    handle: getReceipt,
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/sales/{identifier}/receipt',
    versions: SINCE_26,
    handle: printReceipt,
  }),
  route({ ...register, method: 'POST', path: '/{sellerId}/sales/{saleId}/copy', versions: V15, handle: printCopy }),
  route({
    ...register,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales/{saleId}/copy',
    versions: SINCE_26,
    handle: printCopy,
  }),
  // Days and reports
  route({ ...reader, method: 'GET', path: '/{sellerId}/days', versions: V15, handle: listDaysV15 }),
  route({ ...register, method: 'POST', path: '/{sellerId}/days', versions: SINCE_26, body: dayBody, handle: openDay }),
  route({
    ...register,
    method: 'PUT',
    path: '/{sellerId}/days/{identifier}',
    versions: SINCE_26,
    body: dayBody,
    handle: updateDay,
  }),
  route({ ...register, method: 'POST', path: '/{sellerId}/days/current', versions: V15, handle: closeDay }),
  route({ ...reader, method: 'GET', path: '/{sellerId}/days/{dayId}/report', versions: V15, handle: getReport }),
  route({ ...register, method: 'POST', path: '/{sellerId}/days/{dayId}/report', versions: V15, handle: printReport }),
  route({ ...reader, method: 'GET', path: '/{sellerId}/registrations/{cash}/days', versions: SINCE_26, handle: listDays }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days-minified',
    versions: SINCE_26,
    handle: listDaysMinified,
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days-diff/{versionFrom}/{versionTo}',
    versions: SINCE_26,
    handle: daysDiff,
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/days/current',
    versions: SINCE_26,
    handle: closeDay,
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days/{dayIdentifier}/report',
    versions: SINCE_26,
    handle: getReport,
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/days/{dayIdentifier}/report',
    versions: SINCE_26,
    handle: printReport,
  }),
  // Cash balance
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/balance',
    versions: ALL_VERSIONS,
    handle: getBalance,
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/balance',
    versions: ALL_VERSIONS,
    body: balanceBody,
    handle: changeBalance,
  }),
  // E-journal
  route({ ...reader, method: 'GET', path: '/{sellerId}/e-journals/{cash}', versions: ALL_VERSIONS, handle: listJournal }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/e-journals/{cash}',
    versions: ALL_VERSIONS,
    body: journalUploadBody,
    handle: appendDeviceEvent,
  }),
  route({ ...reader, method: 'GET', path: '/{sellerId}/generated-e-journals/{cash}', versions: [33], handle: generatedJournal }),
];

export const handler = httpApi(routes);
