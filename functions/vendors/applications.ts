import { applicationDescription, applicationDescriptionV33 } from '#schemas/generated/fields.js';
import type { ApplicationDescriptionBody } from '#schemas/types.ts';
import { isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
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
import { reference, transact } from '#shared/db/transact.ts';
import { type ApplicationDescription, applicationKeys, vendorKeys } from '#shared/domain/records.ts';
import { inconsistentData, notFound, referenceNotFound, unprocessable, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, type Preconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { listParams } from '#shared/http/query.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { type ApiVersion, merge, present, type VersionView } from '#shared/versions.ts';
import { checkVendorScope } from './vendors.ts';

/** One canonical record; v15 and v26 neither show nor write `geolocation`, so their writes keep it. */
export const applicationView: VersionView<ApplicationDescription> = {
  15: applicationDescription,
  26: applicationDescription,
  33: applicationDescriptionV33,
};

/** The application description of a package, or undefined when there is none. */
export const readApplication = (applicationPackage: string): Promise<RevisedRecord<ApplicationDescription> | undefined> =>
  readItem(applicationKeys.application(applicationPackage));

const packageOf = (request: ApiRequest<unknown, 'applicationPackage'>) => request.params.applicationPackage;
const missing = (applicationPackage: string) => notFound(`Application description ${applicationPackage} does not exist`);

/** One more (or one fewer) application of the vendor, in the transaction that writes the application. */
const countApplication = (vendorId: number, delta: 1 | -1) =>
  reference(vendorKeys.vendor(vendorId), () => referenceNotFound(`Software vendor ${vendorId} does not exist`), delta);

/** Every canonical field, absent ones as null, so readers in other groups always find the whole record. */
const stored = (app: ApplicationDescription) => present(app, applicationView[33]);

/** POST /application-descriptions: the client's package names it (201 with it as the identifier); an existing package is 409. */
export async function createApplication(request: ApiRequest<ApplicationDescriptionBody>): Promise<Reply> {
  const app = merge<ApplicationDescription>(undefined, request.body, applicationView[request.version]);
  checkVendorScope(request.principal, app.softwareVendor);
  await transact([
    createRevised({ ...applicationKeys.application(app.applicationPackage), ...stored(app) }, () =>
      versionConflict(`Application description ${app.applicationPackage} exists already`),
    ),
    countApplication(app.softwareVendor, 1),
  ]);
  return created(app.applicationPackage);
}

/** GET /application-descriptions/{applicationPackage} */
export async function getApplication(request: ApiRequest<unknown, 'applicationPackage'>): Promise<Reply> {
  const applicationPackage = packageOf(request);
  const app = await readApplication(applicationPackage);
  if (!app) throw missing(applicationPackage);
  checkVendorScope(request.principal, app.softwareVendor);
  if (unchangedSince(request.headers, app.revision)) return notModified(app.revision);
  return ok(present(app, applicationView[request.version]), app.revision);
}

/** PUT /application-descriptions/{applicationPackage}: updates (204); moving it to another vendor moves its count. */
export function putApplication(request: ApiRequest<ApplicationDescriptionBody, 'applicationPackage'>): Promise<Reply> {
  const applicationPackage = packageOf(request);
  if (request.body.applicationPackage !== applicationPackage) {
    throw inconsistentData('URL_AND_BODY_IDENTIFIERS_MISMATCH', 'The application packages of the URL and the body differ');
  }
  checkVendorScope(request.principal, request.body.softwareVendor);
  const write: ApplicationUpdate = {
    applicationPackage,
    principal: request.principal,
    conditions: preconditions(request.headers),
    body: request.body,
    version: request.version,
  };
  return writeRevised(applicationKeys.application(applicationPackage), (current) => decideApplicationUpdate(write, current));
}

/** Who writes which application description, known before it is read. */
export interface ApplicationWrite {
  applicationPackage: string;
  principal: Principal | undefined;
  conditions: Preconditions;
}

/** An update of an application description: the body and the version it was written through. */
export interface ApplicationUpdate extends ApplicationWrite {
  body: ApplicationDescriptionBody;
  version: ApiVersion;
}

/**
 * An update decided on the application as read: the version's fields written over it at the revision
 * read; moved to another vendor, one application fewer on the old vendor and one more on the new.
 * Refused: none (404), an application of another vendor than the caller's (403), unmet preconditions (409).
 */
export function decideApplicationUpdate(
  write: ApplicationUpdate,
  current: RevisedRecord<ApplicationDescription> | undefined,
): RevisedDecision<Reply> {
  if (!current) throw missing(write.applicationPackage);
  checkVendorScope(write.principal, current.softwareVendor);
  checkPreconditions(write.conditions, current.revision);
  const app = merge<ApplicationDescription>(current, write.body, applicationView[write.version]);
  const moved = app.softwareVendor !== current.softwareVendor;
  return {
    steps: [
      updateRevised(applicationKeys.application(write.applicationPackage), stored(app), current.revision),
      ...(moved ? [countApplication(app.softwareVendor, 1), countApplication(current.softwareVendor, -1)] : []),
    ],
    result: noContent(),
  };
}

/** DELETE /application-descriptions/{applicationPackage}: only while no installation references it (422). */
export function deleteApplication(request: ApiRequest<unknown, 'applicationPackage'>): Promise<Reply> {
  const applicationPackage = packageOf(request);
  const write: ApplicationWrite = {
    applicationPackage,
    principal: request.principal,
    conditions: preconditions(request.headers),
  };
  return writeRevised(applicationKeys.application(applicationPackage), (current) => decideApplicationDelete(write, current));
}

/**
 * A delete decided on the application as read: removed at the revision read, one application fewer
 * on its vendor. Refused: none (404), another vendor's (403), unmet preconditions (409), installations
 * counted on it (422 APP_DESC_HAS_REFERENCED_DATA).
 */
export function decideApplicationDelete(
  write: ApplicationWrite,
  current: RevisedRecord<ApplicationDescription> | undefined,
): RevisedDecision<Reply> {
  const { applicationPackage } = write;
  if (!current) throw missing(applicationPackage);
  checkVendorScope(write.principal, current.softwareVendor);
  checkPreconditions(write.conditions, current.revision);
  if ((current.refs ?? 0) > 0) {
    throw unprocessable('APP_DESC_HAS_REFERENCED_DATA', `Application ${applicationPackage} still has installations`);
  }
  return {
    steps: [
      deleteRevised(applicationKeys.application(applicationPackage), current.revision),
      countApplication(current.softwareVendor, -1),
    ],
    result: noContent(),
  };
}

export const ORDER_FIELDS = ['applicationPackage', 'name', 'softwareVendor'] as const;

/** GET /application-descriptions: every one for the hyper admin, its vendor's for a vendor user; LIST parameters. */
export async function listApplications(request: ApiRequest): Promise<Reply> {
  const query = listParams(request.query, ORDER_FIELDS);
  const own = vendorOf(request.principal);
  const all = await readPartition(applicationKeys.directory);
  const visible = isHyperAdmin(request.principal) ? all : all.filter((app) => app.softwareVendor === own);
  const listed = pageOf(visible, query, {
    searched: (app) => [app.name, app.applicationPackage],
    field: (app, field) => app[field],
    tiebreak: (app) => app.applicationPackage,
  });
  return ok(listed.map((app) => present(app, applicationView[request.version])));
}
