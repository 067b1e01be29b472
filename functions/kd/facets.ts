import { canAccessSeller, insufficientRights, isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import { type KeyPage, type QueryFilter, readItem, readMergedPage } from '#shared/db/reads.ts';
import { requireLiveSeller, sellerReferenceMissing } from '#shared/domain/seller.ts';
import { type CodeOf, inconsistentData, referenceNotFound } from '#shared/errors.ts';
import { parseSellerId } from '#shared/http/params.ts';
import { intParam, listParams, notNegative, pageParams } from '#shared/http/query.ts';
import { ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type KdLogRecord, KD_LOG_PREFIX, type KdLogScope, kdKeys } from '#shared/kd/records.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { registrationKeys } from '#shared/domain/records.ts';

/** The one order of the Kd log: the receipt's date (`kdDate`), the key order of every directory. */
export const KD_ORDER_FIELDS = ['kdDate'] as const;

type FilterCode = Extract<CodeOf<'ReferenceNotFound'>, CodeOf<'InconsistentData'>>;

/** The register filter's refusals: v15 answers them as InconsistentData (spec 7.2), v26 and v33 as 404 (spec 4.3). */
const refusal = (version: ApiVersion, code: FilterCode, message: string) =>
  version === 15 ? inconsistentData(code, message) : referenceNotFound(message, code);

/** Which directory a list reads, and the filters it applies to that directory's records. */
interface Selection {
  scope: KdLogScope;
  filters: Partial<Pick<KdLogRecord, 'cashRegisterName' | 'controlUnitSerial' | 'softwareVendor'>>;
}

/**
 * Who sees which records, as for devices (docs/conventions.md §25): with `seller`, any user with access to that
 * seller sees its records; otherwise the hyper admin sees all and a software-vendor user those of its vendor's
 * units; a regular user names a seller.
 */
async function selection(request: ApiRequest): Promise<Selection> {
  const { query, principal, version } = request;
  const seller = query.get('seller') || null;
  const cash = query.get('cashRegisterName') || null;
  const controlUnit = query.get('controlUnit') || null;
  const wantedVendor = version === 15 ? undefined : intParam('softwareVendor', query.get('softwareVendor'));
  const ownVendor = vendorOf(principal);
  if (ownVendor !== undefined && wantedVendor !== undefined && wantedVendor !== ownVendor) throw insufficientRights();
  const vendor = ownVendor ?? wantedVendor;
  const filters: Selection['filters'] = {
    ...(cash === null ? {} : { cashRegisterName: cash }),
    ...(controlUnit === null ? {} : { controlUnitSerial: controlUnit }),
    ...(vendor === undefined ? {} : { softwareVendor: vendor }),
  };
  if (cash !== null && seller === null) {
    throw refusal(version, 'SELLER_SHOULD_BE_PROVIDED_FOR_CR', 'cashRegisterName needs seller');
  }
  if (seller !== null) {
    parseSellerId(seller, 'seller');
    if (!(await canAccessSeller(principal, seller))) throw insufficientRights();
    await requireLiveSeller(seller, sellerReferenceMissing);
    // A deleted register's records stay listed: the name was the seller's.
    if (cash !== null && !(await readItem(registrationKeys.registration(seller, cash)))) {
      throw refusal(version, 'SELLER_HAS_NOT_REGISTRATION', `The seller has no register ${cash}`);
    }
    return { scope: { sellerId: seller }, filters };
  }
  if (!isHyperAdmin(principal) && ownVendor === undefined) throw insufficientRights();
  if (controlUnit !== null) return { scope: { serial: controlUnit }, filters };
  return { scope: vendor === undefined ? undefined : { vendor }, filters };
}

/**
 * A page of one Kd log directory in key (date) order: the 16 shards of all records' or a vendor's read in parallel and
 * merged, the seller's or the unit's one partition (`kdKeys.logDirectory`).
 */
const readKdLogPage = (scope: KdLogScope, page: KeyPage, filter: QueryFilter | undefined) =>
  readMergedPage(kdKeys.logDirectory(scope), KD_LOG_PREFIX, page, filter);

/** `GET /kd-facets` (v15, v26, v33): Kd log records, by the receipt's date, paged; one directory's Queries, no Scan. */
export async function listKdFacets(request: ApiRequest): Promise<Reply> {
  const page =
    request.version === 15 ? { ...pageParams(request.query), orderDesc: false } : listParams(request.query, KD_ORDER_FIELDS);
  const { scope, filters } = await selection(request);
  const conditions = Object.keys(filters).map((field) => `#${field} = :${field}`);
  const filter =
    conditions.length === 0
      ? undefined
      : {
          FilterExpression: conditions.join(' AND '),
          ExpressionAttributeNames: Object.fromEntries(Object.keys(filters).map((field) => [`#${field}`, field])),
          ExpressionAttributeValues: Object.fromEntries(Object.entries(filters).map(([field, value]) => [`:${field}`, value])),
        };
  const records = await readKdLogPage(
    scope,
    { skip: notNegative('firstResult', page.firstResult), take: page.maxResults, descending: page.orderDesc },
    filter,
  );
  return ok(records.map(kdLogView));
}

/** A Kd log record as listed: spec 2.3's fields, then where it was and what came of it. */
export const kdLogView = (record: KdLogRecord) => ({
  activation: record.activation,
  brutto: record.brutto,
  kdDate: record.kdDate,
  vatRateToSum: record.vatRateToSum,
  receiptNumber: record.receiptNumber,
  printType: record.printType,
  refund: record.refund,
  errorMessage: record.errorMessage,
  errorStackTrace: record.errorStackTrace,
  sellerId: record.sellerId,
  cashRegisterName: record.cashRegisterName,
  controlUnitSerial: record.controlUnitSerial,
  softwareVendor: record.softwareVendor,
  outcome: record.outcome,
  returnCode: record.returnCode,
  response: record.response,
  created: record.created,
});
