/**
 * The answers of activation (docs/conventions.md §11): the register's own and the administrators'. Read by the OpenAPI
 * documents (and so the typed client and the contract tests), never by a function.
 */
import { having } from './describe.ts';

const text = { type: 'string' } as const;

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

export const existsResult = {
  type: 'object',
  required: ['exists'],
  properties: { exists: { type: 'boolean' } },
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
