/**
 * Response bodies that are no request body's view (a request schema named as a response is shown as its view:
 * scripts/openapi.ts). Only the OpenAPI documents and the contract tests read them; a function never does. Every
 * property is typed and described (tests/unit/answer-descriptions.test.ts), the fiscal answers in
 * schemas/fiscal-responses.ts, the others by area beside it.
 */
import { exact, integer, text } from './describe.ts';

export * from './activation-responses.ts';
export * from './admin-responses.ts';
export * from './catalog-responses.ts';
export * from './fiscal-responses.ts';

export const identifierResult = exact('The identifier of the created entity (docs/conventions.md §4).', {
  identifier: text(
    'The identifier the entity was created under: the one the request named, else one the service made (a UUID; for an image, `<uuid>.<extension>`).',
  ),
});

export const idResult = exact('The number the server gave the created record.', {
  id: integer("The new record's number, given by the server; the record's path names it."),
});

export const versionResult = {
  type: 'object',
  description: "The seller's current version (docs/conventions.md §7); v26/v33 also name the API version of the last change.",
  additionalProperties: false,
  required: ['version'],
  properties: {
    version: integer("The seller's version: the number of its latest change to the catalog or profile, 0 before any."),
    modificationApiVersion: integer(
      'v26 and v33: the API version (15, 26 or 33) the latest change was written through; before any, the reading version.',
    ),
  },
} as const;
