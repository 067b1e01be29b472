/**
 * The answers of the catalog's sync, images, registrations and the payment gateway (docs/conventions.md §7, §22). Read
 * by the OpenAPI documents (and so the typed client and the contract tests), never by a function.
 */
import { having } from './describe.ts';

export const registration = having('A registration of a register.', 'cashRegisterName');

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
