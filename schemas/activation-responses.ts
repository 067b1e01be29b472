/**
 * The answers of activation (spec 4.2, docs/conventions.md §10-§11) as exact schemas: the register's own (production
 * number, token, signed activation code, connection) and the administrators' (activations-advanced, the activation
 * view). Where a version answers otherwise, each version has its schema (`...V15`, `...V26`, `...V33`). Exported
 * through schemas/responses.ts; read by the OpenAPI documents (and so the typed client and the contract tests), never
 * by a function. Instants are milliseconds since the epoch (UTC) throughout.
 */
import { FEATURE_NAMES } from '#shared/auth/features.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { d, exact, flag, instant, integer, list, nullableInstant, nullableInteger, nullableText, text } from './describe.ts';

const ACTIVATION_STATUSES = ['ISSUED', 'ACTIVE', 'WORKING', 'CLOSED'] as const;
const CONTROL_UNIT_LOCATIONS = ['DEVICE', 'REMOTE'] as const;

/** An object schema that is null where the record has none. */
const orNull = <const S extends { type: string }>(description: string, schema: S) => ({
  ...schema,
  type: [schema.type, 'null'],
  description,
});

const activationId = integer("The activation's id: the `{activationId}` of GET /activations/{activationId}.");
const activationStatus = (what: string) => d(what, { type: 'string', enum: ACTIVATION_STATUSES });
const productionNumber = text(
  "The installation's production number (tillverkningsnummer): the application's prefix and a serial number.",
);
const nullableProductionNumber = (whenNull: string) =>
  nullableText(`The production number (tillverkningsnummer) of the register's installation; null ${whenNull}.`);
const validFrom = instant("When the activation's period begins");
const validTo = instant("When the activation's period ends; 253402300799999 (9999-12-31T23:59:59.999Z) for an open-ended one");
const apiKeyNote = 'sent as `X-Api-Key` (or as Basic credentials, the key alone) on every call of the register';
const sellerCountry = text("The seller's country, ISO 3166-1 alpha-2 (`SE`).");
const sellerCorporateId = text("The seller's corporate id (organisationsnummer).");

// ---------------------------------------------------------------------------------------------------------------
// The register's own answers.

export const productionNumberResult = exact('The new installation (v15 generate-production-number).', {
  productionNumber: text(
    "The new installation's production number (tillverkningsnummer): the application's prefix and a serial number; the register names its installation by it when it orders its activation.",
  ),
});

export const activationTokenResult = exact('The ordered activation (v15 order-activation).', {
  activationSecurityToken: text(
    `The register's API key (32 characters of base64url), ${apiKeyNote} once an administrator has made the activation ACTIVE (at once when the application activates automatically). Shown only in this answer.`,
  ),
});

export const existsResult = exact('Whether the register name is taken.', {
  exists: flag(
    'True when the seller already has a register of that name (a deleted register does not count). v26 answers a taken name `400 NonUnique` instead, so its `exists` is always false.',
  ),
});

/** The descriptor of a v2 code: the fields of `DESCRIPTOR_FIELDS_V2` (shared/signing/activation-code.ts), in that order. */
const descriptorFields = {
  activationId,
  status: activationStatus(
    "The activation's status when the code was signed: ISSUED, ACTIVE or WORKING (a closed activation gets no code).",
  ),
  issued: instant('When the activation last changed (its issue, or the latest action on it)'),
  country: sellerCountry,
  corporateId: sellerCorporateId,
  sellerName: nullableText("The seller's name when the activation was issued; null when the seller had none."),
  cashRegisterName: text("The register's name (kassabeteckning), unique per seller."),
  applicationPackage: nullableText('The application the activation is for; null on an activation that names none.'),
  productionNumber: nullableText(
    "The production number of the register's installation; null until the register connects with a connection code.",
  ),
  validFrom,
  validTo,
  features: list("The features the activation grants, in the reading version's names.", {
    type: 'string',
    enum: [...new Set(Object.values(FEATURE_NAMES).flat())],
  }),
  controlUnitLocation: d('Where the control unit is: `DEVICE` (beside the register) or `REMOTE`; null without one.', {
    type: ['string', 'null'],
    enum: [...CONTROL_UNIT_LOCATIONS, null],
  }),
  controlUnitSerial: nullableText("The control unit's serial; null when the activation names none."),
} as const;

const signedCodeFields = {
  activationInfoVersion: integer(
    'The format of the descriptor and its signature; 2: JSON text, ECDSA P-256 / SHA-256 (docs/conventions.md §11). A device keeps accepting every version.',
  ),
  activationDescriptorInfo: {
    type: 'string',
    description:
      "What the activation grants, as JSON text with its fields in one fixed order (`activationId`, `status`, `issued`, `country`, `corporateId`, `sellerName`, `cashRegisterName`, `applicationPackage`, `productionNumber`, `validFrom`, `validTo`, `features`, `controlUnitLocation`, `controlUnitSerial`): the signature covers exactly its UTF-8 bytes, so parse it only after verifying. Its instants are milliseconds since the epoch (UTC). Whether the activation is still in force is the register's check.",
    contentMediaType: 'application/json',
    contentSchema: exact('The activation descriptor (`ActivationDescriptor` of shared/signing/verify.ts).', descriptorFields),
  },
  signature: text(
    'Base64 of the DER-encoded ECDSA P-256 signature (SHA-256) over the UTF-8 bytes of `activationDescriptorInfo`.',
  ),
} as const;

export const activationCodeV15 = exact(
  "The register's signed activation code (docs/conventions.md §11), as v15 shows it (without the key's file name): verify it offline with the service's public key.",
  signedCodeFields,
);

export const activationCode = exact(
  "The register's signed activation code (docs/conventions.md §11): verify it offline with the public key it names.",
  {
    ...signedCodeFields,
    publicKeyFileName: text(
      'The file name of the public key that verifies the signature (`activation-key-<16 hex digits>.pem`), served at GET /noauth/activations/public-keys/{publicKeyFileName}; a rotated key gets a new name.',
    ),
  },
);

/** v33's answers name the seller's contact details as its profile has them. */
const sellerContact = {
  address: nullableText("The seller's street address; null when its profile has none (or the seller has no profile)."),
  zip: nullableText("The seller's postal code; null when its profile has none."),
  city: nullableText("The seller's city; null when its profile has none."),
  phone: nullableText("The seller's phone number; null when its profile has none."),
} as const;

export const connectionResultV26 = exact(
  'The connected register (v26): its signed activation and its API key, shown only here.',
  {
    activationCodeInfo: d("The activation's signed code, signed at the connection.", activationCode),
    activationSecurityToken: text(`The register's API key (32 characters of base64url), ${apiKeyNote}.`),
    activationId,
  },
);

export const connectionResultV33 = exact(
  "The connected register (v33): its API key, shown only here, its installation and the seller's contact details.",
  {
    apiKey: text(`The register's API key (32 characters of base64url), ${apiKeyNote}.`),
    productionNumber: text(
      "The production number of the register's installation: the one the request named, or the new installation's.",
    ),
    activationId,
    ...sellerContact,
  },
);

// ---------------------------------------------------------------------------------------------------------------
// The administrators' answers.

const advancedFields = {
  apiKey: nullableText(
    `The register's API key (32 characters of base64url), ${apiKeyNote}; shown only in this answer. Null when the order gave a \`connectionCode\`: the register receives its key when it connects.`,
  ),
  productionNumber: nullableProductionNumber(
    'until the register connects with the connection code (or when its application needs no installation)',
  ),
  activationId,
} as const;

export const activationAdvancedResultV26 = exact('The issued activation (v26) and its API key.', advancedFields);

export const activationAdvancedResultV33 = exact("The issued activation (v33), its API key and the seller's contact details.", {
  ...advancedFields,
  ...sellerContact,
});

/** A geolocation as the version shows it: `address` is v15's alone. */
const geolocation = (what: string, version: ApiVersion) => ({
  type: ['object', 'null'],
  description: `${what}; null when none was given.`,
  additionalProperties: false,
  required: ['city', 'postalCode'],
  properties: {
    ...(version === 15
      ? { address: text('The street address, where a v15 request wrote it (a v26 or v33 body has none).') }
      : {}),
    city: text('The city.'),
    postalCode: text('The postal code.'),
  },
});

/** activationInfo (spec 2.3 Activation) in a version's feature names. */
const activationInfo = (version: ApiVersion) =>
  exact('The activation (spec 2.3).', {
    id: activationId,
    status: activationStatus(
      '`ISSUED` (waiting for an administrator), `ACTIVE`, `WORKING` (its register has called) or `CLOSED` (final) (docs/conventions.md §10).',
    ),
    issued: instant('When the activation last changed: set at its issue and on every action on it'),
    controlUnitLocation: d(
      'Where its control unit is: `DEVICE` (beside the register) or `REMOTE`; null when it names no unit and no location.',
      { type: ['string', 'null'], enum: [...CONTROL_UNIT_LOCATIONS, null] },
    ),
    validFrom,
    validTo,
    sellerName: nullableText("The seller's name when the activation was issued; null when the seller had none."),
    controlUnitId: nullableInteger(
      "The id of the control unit the activation names (`controlUnitInfo.id`); null when it names none (or the unit's record is gone).",
    ),
    controlUnitGeolocation: geolocation('Where the control unit stands, as the order gave it', version),
    contact: orNull(
      'The contact person the order (or the latest change) gave; null when none was given.',
      exact('A contact person.', {
        name: text("The contact's name."),
        phone: text("The contact's phone number (may be empty)."),
        email: text("The contact's e-mail address."),
      }),
    ),
    comment: nullableText("An administrator's note on the activation; null when there is none."),
    features: list(
      `The features the activation grants, in v${version}'s names (features v${version} does not know are left out).`,
      {
        type: 'string',
        enum: FEATURE_NAMES[version],
      },
    ),
  });

const controlUnitInfo = (version: ApiVersion) =>
  orNull(
    'The control unit the activation names; null when it names none (or its record is gone).',
    exact('A control unit (docs/conventions.md §23).', {
      id: integer("The unit's id."),
      registrationDate: instant('When the unit was registered (the first activation that named it)'),
      controlUnitLocation: d('Where the unit is: `DEVICE` (beside the register) or `REMOTE`.', {
        type: 'string',
        enum: CONTROL_UNIT_LOCATIONS,
      }),
      serial: text("The unit's serial."),
      geolocation: geolocation('Where the unit stands', version),
      softwareVendor: nullableInteger("The id of the unit's software vendor; null when the hyper admin disconnected it."),
    }),
  );

/** registrationInfo: v15 names the installation by id, v26 and v33 by production number. */
const registrationInfo = (version: ApiVersion) =>
  orNull(
    "The activation's registration (seller and register name); null when there is none, or it was deleted since.",
    exact('A registration (spec 2.3).', {
      id: integer("The registration's id."),
      cashRegisterName: text("The register's name (kassabeteckning), unique per seller."),
      country: sellerCountry,
      corporateId: sellerCorporateId,
      ...(version === 15
        ? { installationId: nullableInteger("The id of the activation's installation; null when it has none.") }
        : { productionNumber: nullableProductionNumber('while it has none') }),
    }),
  );

const installationAdvancedInfo = (version: ApiVersion) =>
  orNull(
    "The activation's installation with its build information; null when it has none (yet).",
    exact('An installation (spec 2.3) and its build information.', {
      id: integer("The installation's id."),
      registrationDate: instant('When the installation was made'),
      deviceId: text("The id of the installation's device."),
      applicationPackage: text('The application installed.'),
      productionNumber,
      gcmRegistrationId: nullableText('The push-message registration id the register gave; null when it gave none.'),
      gcmUnsubscribeDate: nullableInstant('When the register unsubscribed from push messages; null when it has not'),
      ...(version === 33
        ? { programVersion: nullableText('The version of the register program at its install; null when it gave none.') }
        : {}),
      buildInfoes: list(
        'The build information the register gave at its install, one record per name.',
        exact('One build information record.', {
          name: text("The build information's name."),
          value: text('Its value.'),
          installation: text("The installation's production number."),
        }),
      ),
    }),
  );

const activationView = (version: ApiVersion) => {
  const registrationAdvanced = (what: string) =>
    exact(what, {
      registrationInfo: registrationInfo(version),
      sellerInfo: orNull(
        'The seller as its profile says now; null when it has no profile.',
        exact('The seller.', {
          name: nullableText("The seller's (company's) name; null when its profile names none."),
          country: sellerCountry,
          corporateId: sellerCorporateId,
        }),
      ),
      installationAdvancedInfo: installationAdvancedInfo(version),
    });
  return exact(`An activation (spec 2.3 Activation, v${version}) with its control unit, registration, seller and installation.`, {
    activationInfo: activationInfo(version),
    controlUnitInfo: controlUnitInfo(version),
    registrationAdvancedInfo: registrationAdvanced("The activation's registration, seller and installation."),
    issued: instant('When the activation last changed: `activationInfo.issued`'),
    registrationAdvanced: registrationAdvanced('The same as `registrationAdvancedInfo` (both names are answered).'),
  });
};

export const activationV15 = activationView(15);
export const activationV26 = activationView(26);
export const activationV33 = activationView(33);
