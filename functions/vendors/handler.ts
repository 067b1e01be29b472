import {
  applicationDescription as applicationDescriptionValidator,
  applicationDescriptionV33 as applicationDescriptionV33Validator,
  softwareVendor as softwareVendorValidator,
} from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { listQuery } from '#shared/http/query.ts';
import { type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import {
  ORDER_FIELDS as APPLICATION_ORDER,
  createApplication,
  deleteApplication,
  getApplication,
  listApplications,
  putApplication,
} from './applications.ts';
import { ORDER_FIELDS as VENDOR_ORDER, createVendor, deleteVendor, getVendor, listVendors, putVendor } from './vendors.ts';

const applicationBody = {
  15: applicationDescriptionValidator,
  26: applicationDescriptionValidator,
  33: applicationDescriptionV33Validator,
};

// `administrator` lets the hyper admin and software-vendor users in; the domain functions keep a vendor user to its vendor.
const common = { versions: ALL_VERSIONS, access: access.administrator };

/** Software vendors and their application descriptions (docs/conventions.md §10). */
export const routes: Route[] = [
  route({
    summary: 'Lists software vendors',
    description:
      'Lists the vendors with LIST parameters, by id unless `orderBy` says otherwise: every vendor for the hyper ' +
      "admin, its own for a software-vendor user. Each shows its `supportEmail`, where its registers' e-mails go.",
    query: listQuery(VENDOR_ORDER),
    responses: { 200: { view: softwareVendorValidator, list: true } },
    ...common,
    method: 'GET',
    path: '/software-vendors',
    handle: listVendors,
  }),
  route({
    summary: 'Creates a software vendor',
    description:
      'Creates a vendor from its `name` and `supportEmail` and answers its `id`, a number from a sequence that is ' +
      'never reused.',
    responses: { 201: 'idResult' },
    ...common,
    method: 'POST',
    path: '/software-vendors',
    access: access.hyperAdmin,
    body: softwareVendorValidator,
    handle: createVendor,
  }),
  route({
    summary: 'Reads a software vendor',
    description: 'Answers the vendor (a software-vendor user: its own) with its revision as ETag.',
    conditional: 'read',
    responses: { 200: { view: softwareVendorValidator } },
    errors: [['NotFound']],
    ...common,
    method: 'GET',
    path: '/software-vendors/{vendorId}',
    handle: getVendor,
  }),
  route({
    summary: 'Updates a software vendor',
    description:
      'Renames the vendor and sets its `supportEmail`: left out, the address is kept; `null` removes it. An unknown ' +
      'vendor is not created.',
    conditional: 'write',
    responses: { 204: null },
    errors: [['NotFound']],
    ...common,
    method: 'PUT',
    path: '/software-vendors/{vendorId}',
    body: softwareVendorValidator,
    handle: putVendor,
  }),
  route({
    summary: 'Deletes a software vendor',
    description:
      'Deletes a vendor no application description, user or control unit refers to any more. Its id is never given to ' +
      'another vendor.',
    conditional: 'write',
    responses: { 204: null },
    errors: [['NotFound'], ['UnprocessableEntity', 'SOFTWARE_VENDOR_HAS_REFERENCED_DATA']],
    ...common,
    method: 'DELETE',
    path: '/software-vendors/{vendorId}',
    access: access.hyperAdmin,
    handle: deleteVendor,
  }),

  route({
    summary: 'Lists application descriptions',
    description:
      'Lists the register applications with LIST parameters (`orderBy` `applicationPackage`, `name` or ' +
      "`softwareVendor`): every one for the hyper admin, its vendor's for a software-vendor user.",
    query: listQuery(APPLICATION_ORDER),
    responses: { 200: { view: applicationBody, list: true } },
    ...common,
    method: 'GET',
    path: '/application-descriptions',
    handle: listApplications,
  }),
  route({
    summary: 'Creates an application description',
    description:
      'Describes a register application under its `applicationPackage`, which names it from then on, and answers that ' +
      "package; an existing package is refused. Its `productionNumberPrefix` starts its installations' production " +
      'numbers; `controlUnitRequired`, `autoActivationCondition` and `corporateIdValidationMethod` govern its ' +
      'activations. v33 adds `geolocation`.',
    responses: { 201: 'identifierResult' },
    errors: [['VersionConflict'], ['ReferenceNotFound'], ['NotFound'], ['InconsistentData']],
    ...common,
    method: 'POST',
    path: '/application-descriptions',
    body: applicationBody,
    handle: createApplication,
  }),
  route({
    summary: 'Reads an application description',
    description: 'Answers the application description (v15 and v26 without `geolocation`) with its revision as ETag.',
    conditional: 'read',
    responses: { 200: { view: applicationBody } },
    errors: [['NotFound']],
    ...common,
    method: 'GET',
    path: '/application-descriptions/{applicationPackage}',
    handle: getApplication,
  }),
  route({
    summary: 'Updates an application description',
    description:
      "Writes the version's fields over the application description (a v15 or v26 write keeps its `geolocation`); an " +
      'unknown package is not created. Moved to another vendor, it no longer keeps the old one from being deleted.',
    conditional: 'write',
    responses: { 204: null },
    errors: [['NotFound'], ['ReferenceNotFound'], ['InconsistentData'], ['UnprocessableEntity', 'APPLICATION_PACKAGES_MISMATCH']],
    ...common,
    method: 'PUT',
    path: '/application-descriptions/{applicationPackage}',
    body: applicationBody,
    handle: putApplication,
  }),
  route({
    summary: 'Deletes an application description',
    description: 'Deletes an application description no installation refers to any more.',
    conditional: 'write',
    responses: { 204: null },
    errors: [['NotFound'], ['UnprocessableEntity', 'APP_DESC_HAS_REFERENCED_DATA']],
    ...common,
    method: 'DELETE',
    path: '/application-descriptions/{applicationPackage}',
    handle: deleteApplication,
  }),
];

export const handler = httpApi(routes);
