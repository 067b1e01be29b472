import type { ApplicationDescriptionBody } from '#schemas/types.ts';
import { applicationDescription, applicationDescriptionV33 } from '#schemas/vendor.ts';
import { fieldsOf } from '#schemas/views.ts';
import { isHyperAdmin, vendorOf } from '#shared/auth/access.ts';
import { keys, partitions } from '#shared/db/keys.ts';
import { pageOf } from '#shared/db/paging.ts';
import { readItem, readPartition } from '#shared/db/reads.ts';
import { createRevised, deleteRevised, type RevisedRecord, updateRevised, writeRevised } from '#shared/db/revisions.ts';
import { reference, transact } from '#shared/db/transact.ts';
import type { ApplicationDescription } from '#shared/domain/records.ts';
import { inconsistentData, notFound, referenceNotFound, unprocessable, versionConflict } from '#shared/errors.ts';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { listParams } from '#shared/http/query.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { merge, present, type VersionView } from '#shared/versions.ts';
import { checkVendorScope } from './vendors.ts';

/** One canonical record; v15 and v26 neither show nor write `geolocation`, so their writes keep it. */
export const applicationView: VersionView<ApplicationDescription> = {
  15: fieldsOf(applicationDescription),
  26: fieldsOf(applicationDescription),
  33: fieldsOf(applicationDescriptionV33),
};

/** The application description of a package, or undefined when there is none. */
export const readApplication = (applicationPackage: string): Promise<RevisedRecord<ApplicationDescription> | undefined> =>
  readItem(keys.application(applicationPackage));

const packageOf = (request: ApiRequest<unknown, 'applicationPackage'>) => request.params.applicationPackage;
const missing = (applicationPackage: string) => notFound(`Application description ${applicationPackage} does not exist`);

/** One more (or one fewer) application of the vendor, in the transaction that writes the application. */
const countApplication = (vendorId: number, delta: 1 | -1) =>
  reference(keys.vendor(vendorId), () => referenceNotFound(`Software vendor ${vendorId} does not exist`), delta);

/** Every canonical field, absent ones as null, so readers in other groups always find the whole record. */
const stored = (app: ApplicationDescription) => present(app, applicationView[33]);

/** POST /application-descriptions: the client's package names it (201, no body); an existing package is 409. */
export async function createApplication(request: ApiRequest<ApplicationDescriptionBody>): Promise<Reply> {
  const app = merge<ApplicationDescription>(undefined, request.body, applicationView[request.version]);
  checkVendorScope(request.principal, app.softwareVendor);
  await transact([
    createRevised({ ...keys.application(app.applicationPackage), ...stored(app) }, () =>
      versionConflict(`Application description ${app.applicationPackage} exists already`),
    ),
    countApplication(app.softwareVendor, 1),
  ]);
  return created();
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
  const conditions = preconditions(request.headers);
  const key = keys.application(applicationPackage);
  return writeRevised(key, (current) => {
    if (!current) throw missing(applicationPackage);
    checkVendorScope(request.principal, current.softwareVendor);
    checkPreconditions(conditions, current.revision);
    const app = merge<ApplicationDescription>(current, request.body, applicationView[request.version]);
    const moved = app.softwareVendor !== current.softwareVendor;
    return {
      steps: [
        updateRevised(key, stored(app), current.revision),
        ...(moved ? [countApplication(app.softwareVendor, 1), countApplication(current.softwareVendor, -1)] : []),
      ],
      result: noContent(),
    };
  });
}

/** DELETE /application-descriptions/{applicationPackage}: only while no installation references it (422). */
export function deleteApplication(request: ApiRequest<unknown, 'applicationPackage'>): Promise<Reply> {
  const applicationPackage = packageOf(request);
  const conditions = preconditions(request.headers);
  const key = keys.application(applicationPackage);
  return writeRevised(key, (current) => {
    if (!current) throw missing(applicationPackage);
    checkVendorScope(request.principal, current.softwareVendor);
    checkPreconditions(conditions, current.revision);
    if ((current.refs ?? 0) > 0) {
      throw unprocessable('APP_DESC_HAS_REFERENCED_DATA', `Application ${applicationPackage} still has installations`);
    }
    return {
      steps: [deleteRevised(key, current.revision), countApplication(current.softwareVendor, -1)],
      result: noContent(),
    };
  });
}

const ORDER_FIELDS = ['applicationPackage', 'name', 'softwareVendor'] as const;

/** GET /application-descriptions: every one for the hyper admin, its vendor's for a vendor user; LIST parameters. */
export async function listApplications(request: ApiRequest): Promise<Reply> {
  const query = listParams(request.query, ORDER_FIELDS);
  const own = vendorOf(request.principal);
  const all = await readPartition(partitions.applications);
  const visible = isHyperAdmin(request.principal) ? all : all.filter((app) => app.softwareVendor === own);
  const listed = pageOf(visible, query, {
    searched: (app) => [app.name, app.applicationPackage],
    field: (app, field) => app[field],
    tiebreak: (app) => app.applicationPackage,
  });
  return ok(listed.map((app) => present(app, applicationView[request.version])));
}
