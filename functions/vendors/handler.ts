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
    query: listQuery(VENDOR_ORDER),
    responses: { 200: { view: softwareVendorValidator, list: true } },
    ...common,
    method: 'GET',
    path: '/software-vendors',
    handle: listVendors,
  }),
  route({
    responses: { 201: 'idResult' },
    ...common,
    method: 'POST',
    path: '/software-vendors',
    access: access.hyperAdmin,
    body: softwareVendorValidator,
    handle: createVendor,
  }),
  route({
    conditional: 'read',
    responses: { 200: { view: softwareVendorValidator } },
    errors: [['NotFound']],
    ...common,
    method: 'GET',
    path: '/software-vendors/{vendorId}',
    handle: getVendor,
  }),
  route({
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
    query: listQuery(APPLICATION_ORDER),
    responses: { 200: { view: applicationBody, list: true } },
    ...common,
    method: 'GET',
    path: '/application-descriptions',
    handle: listApplications,
  }),
  route({
    responses: { 201: 'identifierResult' },
    errors: [['VersionConflict'], ['ReferenceNotFound'], ['NotFound'], ['InconsistentData']],
    ...common,
    method: 'POST',
    path: '/application-descriptions',
    body: applicationBody,
    handle: createApplication,
  }),
  route({
    conditional: 'read',
    responses: { 200: { view: applicationBody } },
    errors: [['NotFound']],
    ...common,
    method: 'GET',
    path: '/application-descriptions/{applicationPackage}',
    handle: getApplication,
  }),
  route({
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
