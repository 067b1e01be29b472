/** The v26 payment gateway's request (docs/conventions.md §22). */

export const gatewayPayment = {
  $id: 'gatewayPayment',
  type: 'object',
  additionalProperties: false,
  required: ['amount'],
  properties: {
    // A decimal in the seller's currency: whole units and at most two decimals, no sign, no exponent ("125.50").
    amount: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 16, pattern: '^(0|[1-9][0-9]{0,12})(\\.[0-9]{1,2})?$' },
  },
} as const;
