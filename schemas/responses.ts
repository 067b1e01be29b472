/**
 * Response bodies that are no request body's view (a request schema named as a response is shown as its view:
 * scripts/openapi.ts). Only the OpenAPI documents and the contract tests read them; a function never does. Where the
 * exact shape is not captured yet they name the properties every answer has and leave the rest open. The fiscal answers
 * (reports, receipts, the e-journal, days, the cash balance, the Kd log) are exact and described: schemas/fiscal-responses.ts.
 */
export * from './fiscal-responses.ts';

/** An object that has at least these properties. */
const having = <const K extends readonly string[]>(description: string, ...required: K) =>
  ({
    type: 'object',
    description,
    required,
    properties: Object.fromEntries(required.map((name) => [name, {}])) as Record<K[number], object>,
  }) as const;

/** An answer's schema that also names the properties it may carry besides the required ones (any value), so an example shows no unnamed ones. */
const alsoNaming = <const S extends { properties: object }, const K extends readonly string[]>(schema: S, ...names: K) => ({
  ...schema,
  properties: { ...schema.properties, ...(Object.fromEntries(names.map((name) => [name, {}])) as Record<K[number], object>) },
});

const integer = { type: 'integer' } as const;
const text = { type: 'string' } as const;

export const identifierResult = {
  type: 'object',
  description: 'The identifier of the created entity (docs/conventions.md §4).',
  required: ['identifier'],
  properties: { identifier: text },
} as const;

export const idResult = {
  type: 'object',
  description: 'The number the server gave the created record.',
  required: ['id'],
  properties: { id: integer },
} as const;

export const versionResult = {
  type: 'object',
  description: "The seller's current version (docs/conventions.md §7); v26/v33 also name the API version of the last change.",
  required: ['version'],
  properties: { version: integer, modificationApiVersion: { type: ['integer', 'null'] } },
} as const;

export const existsResult = {
  type: 'object',
  required: ['exists'],
  properties: { exists: { type: 'boolean' } },
} as const;

export const productionNumberResult = {
  type: 'object',
  required: ['productionNumber'],
  properties: { productionNumber: text },
} as const;

export const activationTokenResult = {
  type: 'object',
  required: ['activationSecurityToken'],
  properties: { activationSecurityToken: text },
} as const;

export const activationCode = having(
  'A signed activation code (docs/conventions.md §11).',
  'activationInfoVersion',
  'activationDescriptorInfo',
  'signature',
);
export const activationAdvancedResult = having(
  'An issued activation with its key.',
  'apiKey',
  'productionNumber',
  'activationId',
);
export const connectionResult = having(
  'The connected activation with its key (`apiKey`, or a signed code and `activationSecurityToken`).',
  'activationId',
);
export const activation = having('An activation with its registration, installation and control unit.', 'activationInfo');

export const userView = having('A user.', 'username', 'role');
export const userMinified = having('A user, briefly.', 'username', 'role');
export const sessionUser = having('The caller.', 'username', 'role');

export const sellerStats = having("The seller's registers and sales at a glance.");

export const registration = having('A registration of a register.', 'cashRegisterName');
export const device = having('A device.', 'deviceId');
export const deviceOverview = having('A device with its installations.', 'deviceId');
export const buildInfo = having('A build of the application on an installation.');
export const restaurantOverview = having('A restaurant overview.');
export const restaurantListItem = having('A restaurant in the list.');
export const imageRecord = having('An image version (docs/conventions.md §7).', 'filename', 'version');
export const imagePath = { type: 'string', description: "The path of the image's current version (v15)." } as const;
export const modifications = having(
  'Which diffs changed in a range (docs/conventions.md §7).',
  'from',
  'to',
  'version',
  'modifications',
);
export const commodityAdvanced = having('A commodity with its product and categories.');
export const orderAdvanced = having('An order with its lines.');
export const gatewayResult = having(
  'The outcome of a payment (docs/conventions.md §22).',
  'acquirer',
  'declineReason',
  'status',
  'transactionId',
);

export const controlUnitInfo = alsoNaming(
  having(
    'A control unit (docs/conventions.md §23).',
    'id',
    'serial',
    'registrationDate',
    'controlUnitLocation',
    'softwareVendor',
  ),
  'geolocation',
);
export const bridgeStatus = alsoNaming(
  having(
    "A control unit's edge bridge (docs/conventions.md §23).",
    'serial',
    'thingName',
    'provisioned',
    'lastSeen',
    'online',
    'bridgeVersion',
  ),
  'provisionedAt',
);
