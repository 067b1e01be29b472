import {
  applicationDescription as applicationDescriptionValidator,
  applicationDescriptionV33 as applicationDescriptionV33Validator,
  softwareVendor as softwareVendorValidator,
} from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS } from '#shared/versions.ts';
import { createApplication, deleteApplication, getApplication, listApplications, putApplication } from './applications.ts';
import { createVendor, deleteVendor, getVendor, listVendors, putVendor } from './vendors.ts';

const applicationBody = {
  15: applicationDescriptionValidator,
  26: applicationDescriptionValidator,
  33: applicationDescriptionV33Validator,
};

// `administrator` lets the hyper admin and software-vendor users in; the domain functions keep a vendor user to its vendor.
const common = { versions: ALL_VERSIONS, access: access.administrator };

/** Software vendors and their application descriptions (docs/conventions.md §10). */
export const routes: Route[] = [
  route({ ...common, method: 'GET', path: '/software-vendors', handle: listVendors }),
  route({
    ...common,
    method: 'POST',
    path: '/software-vendors',
    access: access.hyperAdmin,
    body: softwareVendorValidator,
    handle: createVendor,
  }),
  route({ ...common, method: 'GET', path: '/software-vendors/{vendorId}', handle: getVendor }),
  route({
    ...common,
    method: 'PUT',
    path: '/software-vendors/{vendorId}',
    body: softwareVendorValidator,
    handle: putVendor,
  }),
  route({ ...common, method: 'DELETE', path: '/software-vendors/{vendorId}', access: access.hyperAdmin, handle: deleteVendor }),

  route({ ...common, method: 'GET', path: '/application-descriptions', handle: listApplications }),
  route({
    ...common,
    method: 'POST',
    path: '/application-descriptions',
    body: applicationBody,
    handle: createApplication,
  }),
  route({ ...common, method: 'GET', path: '/application-descriptions/{applicationPackage}', handle: getApplication }),
  route({
    ...common,
    method: 'PUT',
    path: '/application-descriptions/{applicationPackage}',
    body: applicationBody,
    handle: putApplication,
  }),
  route({ ...common, method: 'DELETE', path: '/application-descriptions/{applicationPackage}', handle: deleteApplication }),
];

export const handler = httpApi(routes);
