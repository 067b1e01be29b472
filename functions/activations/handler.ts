import {
  activationAdvancedV26,
  activationAdvancedV33,
  activationOrder,
  activationStatusChange,
  activationUpdateV15,
  activationUpdateV26,
  activationUpdateV33,
  connectionV26,
  connectionV33,
  nameExistence,
  nameExistenceWithCountry,
  productionNumberOrder,
} from '#schemas/generated/validators.js';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { onFirstUse, type Route, route } from '#shared/http/router.ts';
import { ALL_VERSIONS, SINCE_26 } from '#shared/versions.ts';

// A register's moves and the administrators' load on first use, out of the function's Init (docs/decisions.md, Cold start).
const admin = () => import('./admin.ts');
const register = () => import('./register.ts');

const NOAUTH = '/noauth/activations';

/** Installing and activating registers (spec 4.2) and the administrators' activation moves (docs/conventions.md §10). */
export const routes: Route[] = [
  route({
    responses: { 201: 'productionNumberResult' },
    errors: [['NotFound'], ['ReferenceNotFound'], ['InconsistentData'], ['UnprocessableEntity'], ['Forbidden']],
    method: 'POST',
    path: `${NOAUTH}/generate-production-number`,
    versions: [15],
    access: access.anyone,
    body: productionNumberOrder,
    handle: onFirstUse(register, 'generateProductionNumber'),
  }),
  route({
    responses: { 201: 'activationTokenResult' },
    errors: [
      ['NotFound'],
      ['ReferenceNotFound'],
      ['InconsistentData'],
      ['UnprocessableEntity'],
      ['Forbidden'],
      ['CashRegisterNameIsNotUnique'],
    ],
    method: 'POST',
    path: `${NOAUTH}/order-activation`,
    versions: [15],
    access: access.anyone,
    body: activationOrder,
    handle: onFirstUse(register, 'orderActivation'),
  }),
  route({
    responses: { 201: 'existsResult' },
    errors: [['NotFound'], ['ReferenceNotFound'], ['NonUnique']],
    method: 'POST',
    path: `${NOAUTH}/cash-register-name/existance`,
    versions: ALL_VERSIONS,
    access: access.anyone,
    body: { 15: nameExistenceWithCountry, 26: nameExistenceWithCountry, 33: nameExistence },
    handle: onFirstUse(register, 'nameExists'),
  }),
  route({
    responses: { 200: { media: ['application/x-pem-file'] } },
    errors: [['NotFound']],
    method: 'GET',
    path: `${NOAUTH}/public-keys/{publicKeyFileName}`,
    versions: ALL_VERSIONS,
    access: access.anyone,
    handle: onFirstUse(register, 'publicKey'),
  }),
  route({
    responses: { 200: 'activationCode' },
    errors: [['NotFound'], ['ReferenceNotFound']],
    method: 'GET',
    path: '/activations/activation-code',
    versions: [15],
    access: access.register,
    handle: onFirstUse(register, 'activationCode'),
  }),
  route({
    responses: { 201: 'activationCode' },
    errors: [['NotFound'], ['ReferenceNotFound']],
    method: 'POST',
    path: '/activations/activation-code',
    versions: SINCE_26,
    access: access.register,
    handle: onFirstUse(register, 'activationCode'),
  }),
  // The connection code is the credential: the register has no key before it connects.
  route({
    responses: { 201: 'connectionResult' },
    errors: [
      ['NotFound'],
      ['ReferenceNotFound'],
      ['InconsistentData'],
      ['UnprocessableEntity'],
      ['Forbidden'],
      ['VersionConflict'],
    ],
    method: 'POST',
    path: '/activations/connection',
    versions: SINCE_26,
    access: access.anyone,
    body: { 26: connectionV26, 33: connectionV33 },
    handle: onFirstUse(register, 'connect'),
  }),
  route({
    responses: { 201: 'activationAdvancedResult' },
    errors: [['NotFound'], ['ReferenceNotFound'], ['InconsistentData'], ['UnprocessableEntity'], ['VersionConflict']],
    method: 'POST',
    path: '/activations-advanced',
    versions: SINCE_26,
    access: access.administrator,
    body: { 26: activationAdvancedV26, 33: activationAdvancedV33 },
    handle: onFirstUse(admin, 'activateAdvanced'),
  }),
  route({
    responses: { 200: 'activation' },
    errors: [['NotFound']],
    method: 'GET',
    path: '/activations/{activationId}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: onFirstUse(admin, 'getActivation'),
  }),
  route({
    responses: { 204: null },
    errors: [['NotFound'], ['ReferenceNotFound'], ['InconsistentData'], ['UnprocessableEntity'], ['VersionConflict']],
    method: 'PUT',
    path: '/activations/{activationId}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    body: { 15: activationUpdateV15, 26: activationUpdateV26, 33: activationUpdateV33 },
    handle: onFirstUse(admin, 'updateActivation'),
  }),
  route({
    responses: { 204: null },
    errors: [
      ['NotFound'],
      ['UnprocessableEntity', 'ACTIVATION_IS_ACTIVE_ALREADY', 'ACTIVATION_IS_CLOSED_ALREADY', 'ACTIVATION_IS_WORKING_ALREADY'],
      ['InconsistentData', 'ACTIVATION_STATUS_IS_NOT_MODIFIABLE_BY_PUT'],
    ],
    method: 'PUT',
    path: '/activations/{activationId}/status',
    versions: ALL_VERSIONS,
    access: access.administrator,
    body: activationStatusChange,
    handle: onFirstUse(admin, 'changeStatus'),
  }),
];

export const handler = httpApi(routes);
