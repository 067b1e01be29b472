/** The e-mail message of spec 2.3 (`POST /email`, v26 and v33; docs/conventions.md §21). */

/** One attachment: its base64 `body` (spec); `filename` and `contentType` are ours and optional. */
const attachment = {
  type: 'object',
  additionalProperties: false,
  required: ['body'],
  properties: {
    body: { type: 'string', $ref: 'scalars#/$defs/base64' },
    filename: { type: ['string', 'null'], $ref: 'scalars#/$defs/identifier' },
    contentType: {
      type: ['string', 'null'],
      $ref: 'scalars#/$defs/text',
      maxLength: 127,
      pattern: '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$',
    },
  },
} as const;

export const emailMessage = {
  $id: 'emailMessage',
  type: 'object',
  additionalProperties: false,
  required: ['subject', 'body'],
  properties: {
    contentType: { type: ['string', 'null'], enum: ['text/plain', 'text/html', null] },
    subject: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 255 },
    body: { type: 'string', $ref: 'scalars#/$defs/multilineText', maxLength: 5000 },
    attachments: { type: ['array', 'null'], maxItems: 20, items: attachment },
  },
} as const;
