/** Shapes several resources share (spec 2.3): Geolocation and Contact. */

/** Geolocation: v15 has `address` too; v33 bounds city and postal code to 255 characters. */
export const geolocationV15 = {
  $id: 'geolocation.v15',
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['address', 'city', 'postalCode'],
  properties: {
    address: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 500 },
    city: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 255 },
    postalCode: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 255 },
  },
} as const;

export const geolocation = {
  $id: 'geolocation',
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['city', 'postalCode'],
  properties: {
    city: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 255 },
    postalCode: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 255 },
  },
} as const;

export const contact = {
  $id: 'contact',
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['name', 'phone', 'email'],
  properties: {
    name: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 96 },
    phone: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 255 },
    email: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 255 },
  },
} as const;
