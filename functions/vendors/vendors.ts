import type { SoftwareVendorBody } from '#schemas/types.ts';
import { insufficientRights, isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { pageOf } from '#shared/db/paging.ts';
import { readItem, readPartition } from '#shared/db/reads.ts';
import {
  createRevised,
  deleteRevised,
  type RevisedDecision,
  type RevisedRecord,
  updateRevised,
  writeRevised,
} from '#shared/db/revisions.ts';
import { nextNumber, transact } from '#shared/db/transact.ts';
import { type SoftwareVendor, vendorKeys } from '#shared/domain/records.ts';
import { notFound, unprocessable, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, type Preconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { listParams } from '#shared/http/query.ts';
import { noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';

/** The hyper admin acts for every vendor, a software-vendor user for its own only; anyone else is refused (403). */
export function checkVendorScope(principal: Principal | undefined, vendorId: number): void {
  if (!isHyperAdmin(principal) && vendorOf(principal) !== vendorId) throw insufficientRights();
}

/** The software vendor, or undefined when it does not exist. */
export const readVendor = (id: number): Promise<RevisedRecord<SoftwareVendor> | undefined> => readItem(vendorKeys.vendor(id));

const missing = (id: number) => notFound(`Software vendor ${id} does not exist`);
const vendorIdOf = (request: ApiRequest<unknown, 'vendorId'>) => Number(request.params.vendorId);
const show = (vendor: SoftwareVendor) => ({ id: vendor.id, name: vendor.name, supportEmail: vendor.supportEmail ?? null });

/** POST /software-vendors: numbered from a sequence; answers 201 `{"id"}` (docs/conventions.md §10). */
export async function createVendor(request: ApiRequest<SoftwareVendorBody>): Promise<Reply> {
  const id = await nextNumber('VENDOR');
  const vendor: SoftwareVendor = { id, name: request.body.name, supportEmail: request.body.supportEmail ?? null };
  await transact([createRevised({ ...vendorKeys.vendor(id), ...vendor }, () => versionConflict(`Software vendor ${id} exists`))]);
  return { status: 201, body: { id } };
}

/** GET /software-vendors/{vendorId} */
export async function getVendor(request: ApiRequest<unknown, 'vendorId'>): Promise<Reply> {
  const id = vendorIdOf(request);
  checkVendorScope(request.principal, id);
  const vendor = await readVendor(id);
  if (!vendor) throw missing(id);
  if (unchangedSince(request.headers, vendor.revision)) return notModified(vendor.revision);
  return ok(show(vendor), vendor.revision);
}

/** PUT /software-vendors/{vendorId}: renames the vendor and sets its support address (204). */
export function putVendor(request: ApiRequest<SoftwareVendorBody, 'vendorId'>): Promise<Reply> {
  const id = vendorIdOf(request);
  checkVendorScope(request.principal, id);
  const conditions = preconditions(request.headers);
  return writeRevised(vendorKeys.vendor(id), (current) => decideVendorUpdate(id, request.body, conditions, current));
}

/**
 * An update decided on the vendor as read: its name, and its `supportEmail` when the body names one (left out, it
 * is kept: clients that predate the field rename without erasing it), at the revision read; 404 when there is
 * none, 409 on unmet preconditions.
 */
export function decideVendorUpdate(
  id: number,
  { name, supportEmail }: SoftwareVendorBody,
  conditions: Preconditions,
  current: RevisedRecord<SoftwareVendor> | undefined,
): RevisedDecision<Reply> {
  if (!current) throw missing(id);
  checkPreconditions(conditions, current.revision);
  const fields = supportEmail === undefined ? { name } : { name, supportEmail };
  return { steps: [updateRevised(vendorKeys.vendor(id), fields, current.revision)], result: noContent() };
}

/** DELETE /software-vendors/{vendorId}: only while no application, user or control unit references it (422). */
export function deleteVendor(request: ApiRequest<unknown, 'vendorId'>): Promise<Reply> {
  const id = vendorIdOf(request);
  const conditions = preconditions(request.headers);
  return writeRevised(vendorKeys.vendor(id), (current) => decideVendorDelete(id, conditions, current));
}

/**
 * A delete decided on the vendor as read: removed at the revision read while nothing references it.
 * Refused: none (404), unmet preconditions (409), applications, users or control units counted on it
 * (422 SOFTWARE_VENDOR_HAS_REFERENCED_DATA).
 */
export function decideVendorDelete(
  id: number,
  conditions: Preconditions,
  current: RevisedRecord<SoftwareVendor> | undefined,
): RevisedDecision<Reply> {
  if (!current) throw missing(id);
  checkPreconditions(conditions, current.revision);
  if ((current.refs ?? 0) > 0) {
    throw unprocessable(
      'SOFTWARE_VENDOR_HAS_REFERENCED_DATA',
      `Software vendor ${id} still has applications, users or control units`,
    );
  }
  return { steps: [deleteRevised(vendorKeys.vendor(id), current.revision)], result: noContent() };
}

export const ORDER_FIELDS = ['id', 'name'] as const;

/** GET /software-vendors: every vendor for the hyper admin, its own for a vendor user; LIST parameters, by id by default. */
export async function listVendors(request: ApiRequest): Promise<Reply> {
  const query = listParams(request.query, ORDER_FIELDS);
  const vendors = await visibleVendors(request.principal);
  const listed = pageOf(vendors, query, {
    searched: (vendor) => [vendor.name],
    field: (vendor, field) => vendor[field],
    tiebreak: (vendor) => String(vendor.id).padStart(10, '0'),
  });
  return ok(listed.map(show));
}

async function visibleVendors(principal: Principal | undefined): Promise<SoftwareVendor[]> {
  if (isHyperAdmin(principal)) return readPartition(vendorKeys.directory);
  const own = vendorOf(principal);
  const vendor = own === undefined ? undefined : await readVendor(own);
  return vendor ? [vendor] : [];
}
