/** Tax (spec 2.3): the same shape in v15, v26 and v33. */
export const tax = {
  $id: 'tax',
  type: 'object',
  additionalProperties: false,
  required: ['vat', 'name'],
  properties: {
    deleted: { type: ['boolean', 'null'] },
    identifier: { type: ['string', 'null'], $ref: 'scalars#/$defs/identifier' },
    vat: { type: 'integer', minimum: 0, maximum: 100 },
    name: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 32 },
    custom: { type: ['string', 'null'], $ref: 'scalars#/$defs/custom' },
  },
} as const;
