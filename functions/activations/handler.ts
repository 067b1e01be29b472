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
import { preloadCloudCertificate } from '#shared/kd/cloud-system.ts';

// A register's moves and the administrators' load on first use, out of the function's Init (docs/decisions.md, Cold start).
const admin = () => import('./admin.ts');
const register = () => import('./register.ts');

const NOAUTH = '/noauth/activations';

/** Installing and activating registers (spec 4.2) and the administrators' activation moves (docs/conventions.md §10). */
export const routes: Route[] = [
  route({
    summary: 'Gets a production number for an installation',
    description:
      'A register app installed on a device asks for the production number that names its installation, before it orders an activation. The device, the application package and its build info are recorded; the package must be a known application description.',
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
    summary: 'Orders an activation',
    description:
      "A v15 register app orders the activation of its installation for a seller under a register name, unique among the seller's registers. It answers the activation's security token: the key the register sends, as X-Api-Key, once an administrator has made the activation ACTIVE.",
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
    summary: 'Tells whether a register name is taken',
    description:
      'Answers whether the seller given by country and corporate id already has a register of that name, so an app can ask for another name before ordering an activation. Changes nothing.',
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
    summary: 'Reads the key that verifies activation codes',
    description:
      'The public key (PEM) that verifies signed activation codes offline, by the file name a code names. A rotated key gets a new name; an unknown name is 404.',
    responses: { 200: { media: ['application/x-pem-file'] } },
    errors: [['NotFound']],
    method: 'GET',
    path: `${NOAUTH}/public-keys/{publicKeyFileName}`,
    versions: ALL_VERSIONS,
    access: access.anyone,
    handle: onFirstUse(register, 'publicKey'),
  }),
  route({
    summary: "Reads the register's signed activation code",
    description:
      "The register's activation as a signed code (ECDSA P-256): its seller, register name, period and features, which the app verifies offline with the public key. An activation still ISSUED is refused until an administrator makes it ACTIVE.",
    responses: { 200: 'activationCodeV15' },
    errors: [['NotFound'], ['ReferenceNotFound']],
    method: 'GET',
    path: '/activations/activation-code',
    versions: [15],
    access: access.register,
    handle: onFirstUse(register, 'activationCode'),
  }),
  route({
    summary: "Gets the register's signed activation code",
    description:
      "The register's activation as a signed code (ECDSA P-256) naming the public key that verifies it offline: its seller, register name, period and features. An activation still ISSUED is refused until an administrator makes it ACTIVE.",
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
    summary: 'Connects an installation with a connection code',
    description:
      "A register app that has no key yet sends the connection code an administrator gave the seller, with its installation: the code is the credential, and is used up. v26 answers the signed activation code and the register's key (activationSecurityToken); v33 the key (apiKey), the production number and the seller's address.",
    responses: { 201: { 26: 'connectionResultV26', 33: 'connectionResultV33' } },
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
    summary: 'Issues an activation for a register',
    description:
      "An administrator orders an activation for a seller's register in one call: the seller (created when unknown), the register name, the period, the features and the installation. It answers the activation and the register's API key, shown only here.",
    responses: { 201: { 26: 'activationAdvancedResultV26', 33: 'activationAdvancedResultV33' } },
    errors: [['NotFound'], ['ReferenceNotFound'], ['InconsistentData'], ['UnprocessableEntity'], ['VersionConflict']],
    method: 'POST',
    path: '/activations-advanced',
    versions: SINCE_26,
    access: access.administrator,
    body: { 26: activationAdvancedV26, 33: activationAdvancedV33 },
    handle: onFirstUse(admin, 'activateAdvanced'),
  }),
  route({
    summary: 'Reads an activation',
    description:
      "An activation with its seller, register name, period, features and status (ISSUED, ACTIVE, WORKING or CLOSED). A software-vendor user reads only the activations of its own vendor's applications.",
    responses: { 200: { 15: 'activationV15', 26: 'activationV26', 33: 'activationV33' } },
    errors: [['NotFound']],
    method: 'GET',
    path: '/activations/{activationId}',
    versions: ALL_VERSIONS,
    access: access.administrator,
    handle: onFirstUse(admin, 'getActivation'),
  }),
  route({
    summary: 'Changes an activation',
    description:
      "Rewrites an activation's period, features, contact details and comment; its status changes only through the status operation. A software-vendor user changes only the activations of its own vendor's applications.",
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
    summary: "Changes an activation's status",
    description:
      "ISSUED may become ACTIVE; ISSUED, ACTIVE and WORKING may become CLOSED, which is final (an ACTIVE activation becomes WORKING at its register's first call). The register's key follows in the same write: a closed activation's key is refused at its next call.",
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

// The cloud system's client certificate is read at Init (docs/conventions.md §27).
preloadCloudCertificate();

export const handler = httpApi(routes);
