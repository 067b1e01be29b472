/**
 * The answers of the catalog's sync, images, registrations and the payment gateway (docs/conventions.md §7, §22) as
 * exact schemas, every property described. Read by the OpenAPI documents (and so the typed client and the contract
 * tests), never by a function.
 *
 * A catalog entity an answer embeds is its request body's view (`productView`, `taxView`, `categoryView`, ... of the
 * documents: every field present, null where the entity has none), referenced rather than copied; a field of the
 * answer's own entity takes its request schema's type (schemas/catalog.ts). Money is in hundredths of the seller's currency, instants in
 * milliseconds since the epoch (UTC).
 */
import { FEATURE_NAMES } from '#shared/auth/features.ts';
import { commodity, order } from './catalog.ts';
import type { Schema } from './describe.ts';
import {
  component,
  d,
  exact,
  flag,
  instant,
  integer,
  list,
  nullableInstant,
  nullableInteger,
  nullableRef,
  nullableText,
  orNull,
  ref,
  text,
} from './describe.ts';
/** A field of a request body (schemas/catalog.ts) as an answer shows it: its type, null admitted or not, and its scalar's constraints. */
function bodyField(field: Schema, description: string, nullable: boolean) {
  const types = [field.type].flat().filter((type) => type !== 'null');
  const { $ref } = field;
  return {
    ...field,
    type: nullable ? [...types, 'null'] : types.length === 1 ? types[0] : types,
    ...(typeof $ref === 'string' ? { $ref: component($ref.replace('#', '')) } : {}),
    description,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Registrations (spec 4.7): the list, the detailed list and one register's registration.

const registrationCommon = {
  id: integer("The registration's number, given by the server."),
  cashRegisterName: text("The register's name (kassabeteckning), unique per seller."),
  country: text("The seller's country, ISO 3166-1 alpha-2 (`SE`)."),
  corporateId: text("The seller's corporate id (organisationsnummer), without the country."),
};

const productionNumber = nullableText(
  'The production number of the installation (the app on a device) the register runs on; null when it has none.',
);

export const registrationV15 = exact('A register of the seller (v15).', {
  ...registrationCommon,
  installationId: nullableInteger('The number of the installation the register runs on; null when it has none.'),
});

export const registration = exact('A register of the seller (v26, v33).', { ...registrationCommon, productionNumber });

export const registrationSeller = exact(
  'The seller at a glance, as its profile says now (each field null when the profile has none).',
  {
    name: nullableText("The seller's (company's) name."),
    country: nullableText("The seller's country, ISO 3166-1 alpha-2."),
    corporateId: nullableText("The seller's corporate id (organisationsnummer)."),
    currency: nullableText("The seller's currency, ISO 4217 (`SEK`)."),
    countActiveCashRegisters: integer(
      "How many registers have their latest activation in use (ACTIVE or WORKING within its validity period): in `registrations-advanced` among all the seller's registers (whatever the page), for one registration 1 or 0.",
    ),
    turnover: integer(
      "What the same registers took since their first days, in hundredths of the currency: their grand totals, sold brutto (Paid and Complete sales) less refunds, training receipts not included; in `registrations-advanced` all the seller's registers (a deleted registration's too), for one registration its own.",
    ),
  },
);

export const registrationInstallation = {
  ...exact('An installation: the register app on a device, named by its production number.', {
    id: integer("The installation's number, given by the server."),
    registrationDate: instant('When the installation was registered'),
    deviceId: text("The device's id."),
    applicationPackage: text("The application's package name."),
    productionNumber: text("The installation's production number (tillverkningsnummer)."),
    gcmRegistrationId: nullableText("The device's push registration id; null when it has none."),
    gcmUnsubscribeDate: nullableInstant('When the device unsubscribed from push messages; null when it has not'),
    programVersion: nullableText("v33 only: the register program's version as the installation reported it; null when unknown."),
  }),
  required: [
    'id',
    'registrationDate',
    'deviceId',
    'applicationPackage',
    'productionNumber',
    'gcmRegistrationId',
    'gcmUnsubscribeDate',
  ],
} as const;

export const registrationOverview = exact('A register on an installation.', {
  country: text("Its seller's country, ISO 3166-1 alpha-2."),
  corporateId: text("Its seller's corporate id."),
  cashRegisterName: text("The register's name."),
  productionNumber: text("The installation's production number."),
});

export const registrationActivation = exact('An activation of the register (spec 2.3 Activation).', {
  id: integer("The activation's number."),
  status: d('ISSUED (not yet connected), ACTIVE, WORKING (in use) or CLOSED.', {
    type: 'string',
    enum: ['ISSUED', 'ACTIVE', 'WORKING', 'CLOSED'],
  }),
  issued: instant('When the activation was last acted on (issued, connected, changed)'),
  controlUnitLocation: d('Where its control unit is: on the device or remote; null when it names none.', {
    type: ['string', 'null'],
    enum: ['DEVICE', 'REMOTE', null],
  }),
  validFrom: instant('The start of its validity period'),
  validTo: instant('The end of its validity period'),
  sellerName: nullableText("The seller's name as the activation holds it; null when it has none."),
  controlUnitId: nullableInteger(
    'The number of its control unit; null when it names none, and always null in `activationsAtSameRegistration`.',
  ),
  controlUnitGeolocation: ref('Where its control unit is; null when it says nothing.', 'geolocationView'),
  contact: ref('Whom to contact about the register; null when none is named.', 'contactView'),
  comment: nullableText('A comment; null when none.'),
  features: list(
    "The features it grants, in the reading version's names (v26 says `SYNCRONIZATION` for v33's `SYNCHRONIZATION`).",
    d('A feature.', { type: 'string', enum: [...new Set(Object.values(FEATURE_NAMES).flat())] }),
  ),
});

/** The installation, its device and its build infos, null without one; the registers on it, empty without one. */
const onInstallation = (registers: string) => ({
  installationInfo: nullableRef('The installation the register runs on; null when it has none.', 'registrationInstallation'),
  deviceInfo: nullableRef('The device the installation is on; null without an installation.', 'device'),
  buildInfoes: d("The installation's build information, one item per name; null without an installation.", {
    type: ['array', 'null'],
    items: { $ref: component('buildInfo') },
  }),
  [registers]: list('The registers of every seller on the same installation, this one included; empty without an installation.', {
    $ref: component('registrationOverview'),
  }),
});

export const registrationAdvanced = exact('A register of the seller in detail (v26, v33).', {
  ...registrationCommon,
  productionNumber,
  sellerInfo: ref('The seller.', 'registrationSeller'),
  applicationDescriptionInfo: ref(
    'The application the register runs (its description); null when the registration names none.',
    'applicationDescriptionView',
  ),
  ...onInstallation('registrationOverviewInfoes'),
});

export const registrationDetail = exact("One register's registration (v26, v33).", {
  cashRegisterName: text("The register's name (kassabeteckning)."),
  sellerOverviewInfo: ref('The seller.', 'registrationSeller'),
  applicationName: nullableText('The name of the application the register runs; null when unknown.'),
  ...onInstallation('sellersAtSameInstallation'),
  controlUnitSerial: nullableText("The serial of the latest activation's control unit; null when it names none."),
  activationInfo: nullableRef("The register's latest activation; null when it has none.", 'registrationActivation'),
  activationsAtSameRegistration: list("The register's earlier activations, newest first.", {
    $ref: component('registrationActivation'),
  }),
});

// ---------------------------------------------------------------------------------------------------------------
// Images (docs/conventions.md §7, spec 4.6).

export const imageRecord = exact(
  "An image's current version (docs/conventions.md §7): in a diff a deleted image shows `deleted: true` with its file name, owner, version and time.",
  {
    deleted: flag('True when the image was deleted (only in a diff).'),
    filename: text("The image's file name, unique per owner."),
    version: integer("The seller's version the image was last written or deleted at."),
    entityIdentifier: text("Whose image it is: the category's or product's identifier, or the seller id for the seller's own."),
    modified: instant('When that version was written'),
  },
);

export const imagePath = text(
  "The path of an image's current version (v15): `/v15/{sellerId}/images/current/{filename}` (or the product's images), the file name URL-encoded.",
);

// ---------------------------------------------------------------------------------------------------------------
// Sync (docs/conventions.md §7).

const DIFFS = [
  'seller',
  'taxes',
  'categories',
  'products',
  'commodities',
  'precepts',
  'bookings',
  'treasurers',
  'seller-images',
  'category-images',
  'product-images',
] as const;

export const modifications = exact("Which diffs changed in a range of the seller's versions (docs/conventions.md §7).", {
  from: integer('The version the register has (the range starts after it).'),
  to: integer("The version the range ends at, included: the one asked for, else the seller's current version."),
  version: integer("The seller's current version."),
  modifications: list(
    'One item per kind of data that changed in the range, in the order of `entity` below; empty when nothing changed.',
    exact('A kind of data that changed.', {
      entity: d(
        "Which: the prefix of its diff endpoint (`taxes` is `/taxes-diff`); `seller` is the seller's profile (read with GET /sellers/{sellerId}).",
        { type: 'string', enum: DIFFS },
      ),
      changed: integer('How many of its entities changed in the range (written or deleted), at least 1.'),
      deleted: integer('How many of those are deletions (tombstones).'),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------------------------
// Advanced views: a commodity with its product and category, an order with its products.

/** A product with its tax, as the advanced views embed them. */
const productAndTax = {
  product: ref('The product.', 'productView'),
  tax: ref("The product's tax; null when it is gone.", 'taxView'),
};

const commodityFields = {
  deleted: flag('False: a list shows live commodities only.'),
  identifier: bodyField(commodity.properties.identifier, "The commodity's identifier.", false),
  category: bodyField(commodity.properties.category, "The identifier of the commodity's category.", false),
  custom: bodyField(commodity.properties.custom, 'Free text of the register app; null when none.', true),
};

export const commodityAdvancedV15 = exact('A commodity with its product and category (v15).', {
  ...commodityFields,
  product: ref("The commodity's product (in place of its identifier); null when it is gone.", 'productView'),
  categoryInfo: ref("The commodity's category; null when it is gone.", 'categoryV15View'),
});

export const commodityAdvanced = exact(
  "A commodity with its product, the product's tax and images, and its category (v26, v33).",
  {
    ...commodityFields,
    product: bodyField(commodity.properties.product, "The identifier of the commodity's product.", false),
    color: bodyField(commodity.properties.color, 'Its colour on the register, an ARGB integer; null when none.', true),
    productAdvancedInfo: orNull(
      "The commodity's product with its tax and images; null when the product is gone.",
      exact("The commodity's product with its tax and images.", {
        ...productAndTax,
        images: list("The file names of the product's current images.", text('A file name.')),
      }),
    ),
    categoryInfo: ref("The commodity's category; null when it is gone.", 'categoryView'),
  },
);

const line = order.properties.orderItems.items.properties;

export const orderAdvanced = exact('An order (v15) with its lines, each with its product and tax.', {
  id: integer("The order's number, given by the server."),
  treasurerName: bodyField(order.properties.treasurerName, 'The name of the treasurer who took the order.', false),
  orderItems: list(
    'The lines, in the order taken.',
    exact('A line.', {
      productIdentifier: bodyField(line.productIdentifier, 'The identifier of the product ordered.', false),
      productCustomization: bodyField(line.productCustomization, 'How the product is to be made; null when as it is.', true),
      delta: bodyField(
        line.delta,
        'How much: a count of units when `deltaUnit` is true, else an amount of money in hundredths of the currency.',
        false,
      ),
      deltaUnit: bodyField(line.deltaUnit, 'True when `delta` counts units; false or null when it is an amount.', true),
      productInfo: orNull(
        'The product and its tax as they are now; null when the product has been deleted since.',
        exact('The product and its tax.', productAndTax),
      ),
    }),
  ),
  deleted: flag('False: a deleted order is not shown.'),
});

// ---------------------------------------------------------------------------------------------------------------
// The payment gateway (docs/conventions.md §22).

export const gatewayResult = exact('The outcome of a payment through the gateway (docs/conventions.md §22).', {
  acquirer: nullableText('Who acquired the payment, as the provider names it; null when the provider gives none (an ERROR).'),
  declineReason: nullableText("Why the payment was declined, in the provider's words; null unless DECLINE."),
  status: d('ACCEPT (charged), DECLINE (refused; stored like ACCEPT) or ERROR (nothing charged or stored: pay again).', {
    type: 'string',
    enum: ['ACCEPT', 'DECLINE', 'ERROR'],
  }),
  transactionId: nullableText("The provider's transaction id; null when it gives none (an ERROR)."),
});
