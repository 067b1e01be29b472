/**
 * Software vendor (docs/conventions.md §10) and ApplicationDescription (spec 2.3): the vendor is the same
 * in every version; the application description gains `geolocation` in v33.
 */

/** The server numbers vendors, so a body names only the vendor's name; an `id` in it is dropped. */
export const softwareVendor = {
  $id: 'softwareVendor',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 96 },
  },
} as const;

const applicationProperties = {
  applicationPackage: { type: 'string', $ref: 'scalars#/$defs/applicationPackage' },
  // A production number is the prefix followed by a decimal count and must fit its 25 characters.
  productionNumberPrefix: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 12, pattern: '^[A-Za-z0-9]+$' },
  controlUnitRequired: { type: 'boolean' },
  name: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 64 },
  softwareVendor: { type: 'integer', $ref: 'scalars#/$defs/int32' },
  autoActivationCondition: { type: 'string', enum: ['NEVER', 'ALWAYS', 'NO_FEATURES'] },
  corporateIdValidationMethod: { type: 'string', enum: ['NONE', 'VALIDATE_SWEDISH'] },
} as const;

const required = [
  'applicationPackage',
  'productionNumberPrefix',
  'controlUnitRequired',
  'name',
  'softwareVendor',
  'autoActivationCondition',
  'corporateIdValidationMethod',
] as const;

/** v15 and v26. */
export const applicationDescription = {
  $id: 'applicationDescription',
  type: 'object',
  additionalProperties: false,
  required,
  properties: applicationProperties,
} as const;

export const applicationDescriptionV33 = {
  $id: 'applicationDescription.v33',
  type: 'object',
  additionalProperties: false,
  required,
  properties: { ...applicationProperties, geolocation: { $ref: 'geolocation' } },
} as const;
