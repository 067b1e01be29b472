import * as validators from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { onFirstUse, perVersion, route, type Route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';
import type { SaleBody } from './sales.ts';

// Each part loads its module on first use: an instance that serves sales never parses the reports' or
// the journal's code at Init (docs/decisions.md, Cold start).
const balance = () => import('./balance.ts');
const days = () => import('./days.ts');
const journals = () => import('./journals.ts');
const sales = () => import('./sales.ts');

const saleBody = perVersion<SaleBody>({ 15: validators.saleV15, 26: validators.saleV26, 33: validators.saleV33 });

/** Users with access to the seller, and its registers, read (docs/conventions.md §14). */
const reader = { access: access.seller } as const;
/** Only the register itself writes its fiscal records (docs/conventions.md §14). */
const register = { access: access.ownRegister } as const;
const V15: readonly (15 | 26 | 33)[] = [15];

/** A register's trading day (spec 4.7): sales, receipts, days, reports, cash balance and the e-journal. */
export const routes: Route[] = [
  // Sales
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/sales',
    versions: ALL_VERSIONS,
    body: saleBody,
    handle: onFirstUse(sales, 'recordSale'),
  }),
  route({
    ...register,
    method: 'PUT',
    path: '/{sellerId}/sales',
    versions: SINCE_26,
    body: saleBody,
    handle: onFirstUse(sales, 'putSale'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/sales',
    versions: SINCE_26,
    body: saleBody,
    handle: onFirstUse(sales, 'recordSale'),
  }),
  route({
    ...register,
    method: 'PUT',
    path: '/{sellerId}/registrations/{cash}/sales',
    versions: SINCE_26,
    body: saleBody,
    handle: onFirstUse(sales, 'putSale'),
  }),
  route({ ...reader, method: 'GET', path: '/{sellerId}/sales', versions: ALL_VERSIONS, handle: onFirstUse(sales, 'listSales') }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/sales-minified',
    versions: SINCE_26,
    handle: onFirstUse(sales, 'listSalesMinified'),
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales-diff/{versionFrom}/{versionTo}',
    versions: SINCE_26,
    handle: onFirstUse(sales, 'salesDiff'),
  }),
  // Receipts and copies
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/sales/{identifier}/receipt',
    versions: V15,
    handle: onFirstUse(sales, 'getReceipt'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/sales/{identifier}/receipt',
    versions: V15,
    handle: onFirstUse(sales, 'printReceipt'),
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales/{identifier}/receipt',
    versions: SINCE_26,
    handle: onFirstUse(sales, 'getReceipt'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/sales/{identifier}/receipt',
    versions: SINCE_26,
    handle: onFirstUse(sales, 'printReceipt'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/sales/{saleId}/copy',
    versions: V15,
    handle: onFirstUse(sales, 'printCopy'),
  }),
  route({
    ...register,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/sales/{saleId}/copy',
    versions: SINCE_26,
    handle: onFirstUse(sales, 'printCopy'),
  }),
  // Days and reports
  route({ ...reader, method: 'GET', path: '/{sellerId}/days', versions: V15, handle: onFirstUse(days, 'listDaysV15') }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/days',
    versions: SINCE_26,
    body: validators.day,
    handle: onFirstUse(days, 'openDay'),
  }),
  route({
    ...register,
    method: 'PUT',
    path: '/{sellerId}/days/{identifier}',
    versions: SINCE_26,
    body: validators.day,
    handle: onFirstUse(days, 'updateDay'),
  }),
  route({ ...register, method: 'POST', path: '/{sellerId}/days/current', versions: V15, handle: onFirstUse(days, 'closeDay') }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/days/{dayId}/report',
    versions: V15,
    handle: onFirstUse(days, 'getReport'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/days/{dayId}/report',
    versions: V15,
    handle: onFirstUse(days, 'printReport'),
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days',
    versions: SINCE_26,
    handle: onFirstUse(days, 'listDays'),
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days-minified',
    versions: SINCE_26,
    handle: onFirstUse(days, 'listDaysMinified'),
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days-diff/{versionFrom}/{versionTo}',
    versions: SINCE_26,
    handle: onFirstUse(days, 'daysDiff'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/days/current',
    versions: SINCE_26,
    handle: onFirstUse(days, 'closeDay'),
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/days/{dayIdentifier}/report',
    versions: SINCE_26,
    handle: onFirstUse(days, 'getReport'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/days/{dayIdentifier}/report',
    versions: SINCE_26,
    handle: onFirstUse(days, 'printReport'),
  }),
  // Cash balance
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/registrations/{cash}/balance',
    versions: ALL_VERSIONS,
    handle: onFirstUse(balance, 'getBalance'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/registrations/{cash}/balance',
    versions: ALL_VERSIONS,
    body: validators.balanceChange,
    handle: onFirstUse(balance, 'changeBalance'),
  }),
  // E-journal
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/e-journals/{cash}',
    versions: ALL_VERSIONS,
    handle: onFirstUse(journals, 'listJournal'),
  }),
  route({
    ...register,
    method: 'POST',
    path: '/{sellerId}/e-journals/{cash}',
    versions: ALL_VERSIONS,
    body: validators.journalUpload,
    handle: onFirstUse(journals, 'appendDeviceEvent'),
  }),
  route({
    ...reader,
    method: 'GET',
    path: '/{sellerId}/generated-e-journals/{cash}',
    versions: [33],
    handle: onFirstUse(journals, 'generatedJournal'),
  }),
];

export const handler = httpApi(routes);
