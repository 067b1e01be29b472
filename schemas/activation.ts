/**
 * Installing and activating a register (spec 4.2): production numbers, activation orders (v15),
 * activations-advanced (v26, v33), connections, cash-register-name checks and the admin moves.
 */
import { FEATURE_NAMES } from '#shared/auth/features.ts';
import { geolocationV15 } from './common.ts';

/** A nullable string of at most `maxLength` characters (and at least `minLength` where the spec sets one). */
const text = (maxLength: number, minLength?: number) =>
  ({ type: ['string', 'null'], $ref: 'scalars#/$defs/text', maxLength, ...(minLength ? { minLength } : {}) }) as const;
/** A note an admin writes: may span lines. */
const multilineText = (maxLength: number) =>
  ({ type: ['string', 'null'], $ref: 'scalars#/$defs/multilineText', maxLength }) as const;
const date = { type: ['integer', 'null'], $ref: 'scalars#/$defs/date' } as const;
const requiredDate = { type: 'integer', $ref: 'scalars#/$defs/date' } as const;

/** Build information of an installation: name (<= 25) -> value (<= 1024), at most 100 pairs. */
const buildInfo = {
  type: ['object', 'null'],
  maxProperties: 100,
  propertyNames: { $ref: 'scalars#/$defs/text', minLength: 1, maxLength: 25 },
  additionalProperties: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 1024 },
} as const;

const features = (version: 15 | 26 | 33) =>
  ({ type: ['array', 'null'], maxItems: 20, items: { type: 'string', enum: FEATURE_NAMES[version] } }) as const;

const controlUnitLocation = { type: ['string', 'null'], enum: ['DEVICE', 'REMOTE', null] } as const;
const controlUnitSerial = text(20, 1);
const deviceId = { type: 'string', $ref: 'scalars#/$defs/deviceId' } as const;
const applicationPackage = { type: 'string', $ref: 'scalars#/$defs/applicationPackage' } as const;
const optionalPackage = { type: ['string', 'null'], $ref: 'scalars#/$defs/applicationPackage' } as const;
const optionalProductionNumber = { type: ['string', 'null'], $ref: 'scalars#/$defs/productionNumber' } as const;
const corporateId = { type: 'string', $ref: 'scalars#/$defs/corporateId' } as const;
const country = { type: 'string', $ref: 'scalars#/$defs/country' } as const;
const optionalCountry = { type: ['string', 'null'], $ref: 'scalars#/$defs/country' } as const;
const cashRegisterName = { type: 'string', $ref: 'scalars#/$defs/cashRegisterName' } as const;
/** The spec gives only a minimum (SIZE_SHOULD_BE_MORE_THEN); the maximum sits apart so each bound names its own code. */
const gcmRegistrationId = {
  type: ['string', 'null'],
  $ref: 'scalars#/$defs/text',
  minLength: 1,
  allOf: [{ maxLength: 4096 }],
} as const;
/** A connection code's length is checked by the endpoint (ACTIVATION_CODE_WRONG_LENGTH); this only bounds it. */
const connectionCode = text(64);

/** The four device fields of v15 (generate-production-number, order-activation's installationOrderInfo). */
const installationOrder = {
  type: 'object',
  additionalProperties: false,
  required: ['deviceId', 'applicationPackage'],
  properties: { deviceId, buildInfo, applicationPackage, gcmRegistrationId },
} as const;

export const productionNumberOrder = { $id: 'productionNumberOrder', ...installationOrder } as const;

export const activationOrder = {
  $id: 'activationOrder',
  type: 'object',
  additionalProperties: false,
  required: ['installationOrderInfo', 'country', 'corporateId', 'activationDetailsInfo', 'cashRegisterName'],
  properties: {
    installationOrderInfo: installationOrder,
    productionNumber: optionalProductionNumber,
    country,
    corporateId,
    companyName: text(96, 1),
    contactInfo: { $ref: 'contact' },
    activationDetailsInfo: {
      type: 'object',
      additionalProperties: false,
      required: ['validFrom', 'validTo'],
      properties: {
        validFrom: requiredDate,
        validTo: requiredDate,
        features: features(15),
        controlUnitLocation,
        controlUnitSerial,
      },
    },
    deviceLocation: { $ref: 'geolocation.v15' },
    cashRegisterName,
    comment: multilineText(1024),
  },
} as const;

const programVersion = text(64, 1);

const installationCreationV26 = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['deviceId'],
  properties: { deviceId, buildInfo, gcmRegistrationId },
} as const;
const installationCreationV33 = {
  ...installationCreationV26,
  properties: { ...installationCreationV26.properties, programVersion },
} as const;

/**
 * The five bodies of activations-advanced share one schema: which fields are sent chooses the case. The period may be
 * null or left out (register apps written for srv4pos send nulls): from now, open-ended (functions/activations/admin.ts).
 */
const advancedV26Properties = {
  country: optionalCountry,
  corporateId,
  companyName: text(96, 1),
  cashRegisterName,
  features: features(26),
  validFrom: date,
  validTo: date,
  contactInfo: { $ref: 'contact' },
  comment: multilineText(1024),
  controlUnitSerial,
  controlUnitLocation,
  controlUnitGeolocation: { $ref: 'geolocation' },
  applicationPackage: optionalPackage,
  productionNumber: optionalProductionNumber,
  installationCreationInfo: installationCreationV26,
  connectionCode,
} as const;

export const activationAdvancedV26 = {
  $id: 'activationAdvanced.v26',
  type: 'object',
  additionalProperties: false,
  required: ['corporateId', 'cashRegisterName'],
  properties: advancedV26Properties,
} as const;
/**
 * v33's registrationGeolocation as apps written for srv4pos send it (docs/compatibility.md): a street `address` (bounded
 * as v15's) and the `companyName` of the place, which names a seller the activation creates when the body gives no
 * top-level `companyName`. Registrations keep no geolocation, so nothing else of it is stored.
 */
const registrationGeolocationV33 = {
  type: geolocationV15.type,
  additionalProperties: false,
  required: ['city', 'postalCode'],
  properties: {
    ...geolocationV15.properties,
    address: { ...geolocationV15.properties.address, type: ['string', 'null'] },
    companyName: text(96, 1),
  },
} as const;

export const activationAdvancedV33 = {
  ...activationAdvancedV26,
  $id: 'activationAdvanced.v33',
  properties: {
    ...advancedV26Properties,
    features: features(33),
    registrationGeolocation: registrationGeolocationV33,
    installationCreationInfo: installationCreationV33,
  },
} as const;

const connectionInstallationV26 = {
  type: 'object',
  additionalProperties: false,
  required: ['deviceId', 'buildInfo', 'applicationPackage'],
  properties: {
    deviceId,
    buildInfo: { ...buildInfo, type: 'object' },
    applicationPackage,
    gcmRegistrationId,
    productionNumber: optionalProductionNumber,
    registrationDate: date,
    gcmUnsubscribeDate: date,
  },
} as const;

/** The spec does not name the installation object's property; it is `installation`. */
export const connectionV26 = {
  $id: 'connection.v26',
  type: 'object',
  additionalProperties: false,
  required: ['installation', 'activationCode'],
  properties: {
    installation: connectionInstallationV26,
    activationCode: { type: 'string', $ref: 'scalars#/$defs/text', maxLength: 64 },
  },
} as const;
export const connectionV33 = {
  ...connectionV26,
  $id: 'connection.v33',
  properties: {
    ...connectionV26.properties,
    installation: {
      ...connectionInstallationV26,
      properties: { ...connectionInstallationV26.properties, programVersion },
    },
  },
} as const;

/** v33 drops `country` from the existence check (spec 4.2); it may still be sent. */
export const nameExistence = {
  $id: 'nameExistence',
  type: 'object',
  additionalProperties: false,
  required: ['corporateId', 'cashRegisterName'],
  properties: { country: optionalCountry, corporateId, cashRegisterName },
} as const;
export const nameExistenceWithCountry = {
  ...nameExistence,
  $id: 'nameExistence.country',
  required: [...nameExistence.required, 'country'],
} as const;

/** docs/conventions.md §10: the admin moves an activation to ACTIVE or CLOSED. */
export const activationStatusChange = {
  $id: 'activationStatusChange',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ACTIVE', 'CLOSED'] } },
} as const;

/** An admin's change of an activation's period, features and notes; the status moves only through `/status`. */
const activationUpdate = (version: 15 | 26 | 33) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['validFrom', 'validTo'],
    properties: {
      status: { type: ['string', 'null'], enum: ['ISSUED', 'ACTIVE', 'WORKING', 'CLOSED', null] },
      validFrom: requiredDate,
      validTo: requiredDate,
      features: features(version),
      contactInfo: { $ref: 'contact' },
      comment: multilineText(1024),
    },
  }) as const;

export const activationUpdateV15 = { $id: 'activationUpdate.v15', ...activationUpdate(15) } as const;
export const activationUpdateV26 = { $id: 'activationUpdate.v26', ...activationUpdate(26) } as const;
export const activationUpdateV33 = { $id: 'activationUpdate.v33', ...activationUpdate(33) } as const;
