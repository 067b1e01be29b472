/**
 * Software vendor (docs/conventions.md §10) and ApplicationDescription (spec 2.3): the vendor is the same
 * in every version; the application description gains `geolocation` in v33.
 */

/**
 * An e-mail address a message is sent to (docs/decisions.md, E-mail): one mailbox in plain `local@domain` form,
 * the local part of RFC 5322 atoms and dots, the domain of DNS labels with at least one dot. No display name,
 * comma, quote or angle bracket, so a mail library can never read it as a list or a header.
 */
const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
export const EMAIL_ADDRESS_PATTERN = `^[${ATEXT}]+(?:\\.[${ATEXT}]+)*@${LABEL}(?:\\.${LABEL})+$`;

/**
 * The server numbers vendors, so a body names the vendor's name and its support address; an `id` in it is
 * dropped. `supportEmail` (ours, docs/conventions.md §21): where `POST /email` sends a register's messages; left out of a PUT it
 * is kept, `null` removes it.
 */
export const softwareVendor = {
  $id: 'softwareVendor',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 96 },
    supportEmail: {
      type: ['string', 'null'],
      $ref: 'scalars#/$defs/text',
      minLength: 6,
      maxLength: 254,
      pattern: EMAIL_ADDRESS_PATTERN,
    },
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
