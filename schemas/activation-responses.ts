/**
 * The answers of activation (spec 4.2, docs/conventions.md §10-§11) as exact schemas: the register's own (production
 * number, token, signed activation code, connection) and the administrators' (activations-advanced, the activation
 * view). Where a version answers otherwise, each version has its schema (`...V15`, `...V26`, `...V33`). Exported
 * through schemas/responses.ts; read by the OpenAPI documents (and so the typed client and the contract tests), never
 * by a function. Instants are milliseconds since the epoch (UTC) throughout.
 */
import { FEATURE_NAMES } from '#shared/auth/features.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { registrationInstallation } from './catalog-responses.ts';
import { d, exact, flag, instant, integer, list, nullableRef, nullableText, orNull, ref, text } from './describe.ts';

const ACTIVATION_STATUSES = ['ISSUED', 'ACTIVE', 'WORKING', 'CLOSED'] as const;
const CONTROL_UNIT_LOCATIONS = ['DEVICE', 'REMOTE'] as const;

const activationId = integer("The activation's id: the `{activationId}` of GET /activations/{activationId}.");
const activationStatus = (what: string) => d(what, { type: 'string', enum: ACTIVATION_STATUSES });
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
  productionNumber: nullableText(
    "The production number (tillverkningsnummer) of the register's installation; null until the register connects with the connection code (or when its application needs no installation).",
  ),
  activationId,
} as const;

export const activationAdvancedResultV26 = exact('The issued activation (v26) and its API key.', advancedFields);

export const activationAdvancedResultV33 = exact("The issued activation (v33), its API key and the seller's contact details.", {
  ...advancedFields,
  ...sellerContact,
});

/**
 * The activation view (spec 2.3 Activation) in a version: its parts are the answers' own components (the activation as
 * a registration shows it, the control unit, the registration per version, the seller in brief, the installation).
 */
const activationView = (version: ApiVersion) => {
  const registrationAdvanced = (what: string) =>
    exact(what, {
      registrationInfo: nullableRef(
        "The activation's registration (seller and register name); null when there is none, or it was deleted since.",
        version === 15 ? 'registrationV15' : 'registration',
      ),
      sellerInfo: nullableRef('The seller as its profile says now; null when it has no profile.', 'sellerSummary'),
      installationAdvancedInfo: orNull("The activation's installation with its build information; null when it has none (yet).", {
        ...registrationInstallation,
        required: [...registrationInstallation.required, 'buildInfoes'],
        properties: {
          ...registrationInstallation.properties,
          buildInfoes: list(
            'The build information the register gave at its install, one record per name.',
            ref('One build information record.', 'buildInfo'),
          ),
        },
      }),
    });
  return exact(`An activation (spec 2.3 Activation, v${version}) with its control unit, registration, seller and installation.`, {
    activationInfo: ref('The activation (spec 2.3).', 'registrationActivation'),
    controlUnitInfo: nullableRef(
      'The control unit the activation names; null when it names none (or its record is gone).',
      'controlUnitInfo',
    ),
    registrationAdvancedInfo: registrationAdvanced("The activation's registration, seller and installation."),
    issued: instant('When the activation last changed: `activationInfo.issued`'),
    registrationAdvanced: registrationAdvanced('The same as `registrationAdvancedInfo` (both names are answered).'),
  });
};

export const activationV15 = activationView(15);
export const activationV26 = activationView(26);
export const activationV33 = activationView(33);
