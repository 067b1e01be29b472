/**
 * The answers of administration (docs/conventions.md §10, §23): users, devices, restaurants, control units and the
 * seller's overview, as exact schemas, every property described. Read by the OpenAPI documents (and so the typed client
 * and the contract tests), never by a function. Where the answer of one path differs by version, each version's shape
 * has its own schema (`userInfoV15` beside `userInfo`), named per version in the route's `responses`.
 *
 * Units: money in hundredths of the seller's currency (öre for SEK); instants in milliseconds since the epoch (UTC).
 * An entity a request body already describes (an application description, a tax, a geolocation, the restaurant) is a
 * `$ref` to that body's component rather than a copy.
 */
import { roleNames, V15_ACTIVATION_ROLE } from '#shared/auth/roles.ts';
import type { ApiVersion } from '#shared/versions.ts';
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
  ref,
  text,
} from './describe.ts';
import { restaurant } from './restaurant.ts';

// ---------------------------------------------------------------------------------------------------------------
// Users (spec 2.3 User; role names per version: v15 `roleType`, v26/v33 `userRoleType`).

const username = () => text('The name the user signs in with: 1 to 50 characters, no colon; unique.');
const role = (version: ApiVersion, also: readonly string[] = []) =>
  d(
    version === 15
      ? `The role in v15's names: \`ROLE_HYPER_ADMIN\`, \`ROLE_SOFTWARE_VENDOR_ADMIN\` (a software-vendor user) or \`SELLER_ADMIN\` (a regular user)${also.length > 0 ? `; \`${V15_ACTIVATION_ROLE}\` for a register's activation key` : ''}.`
      : "The role in v26/v33's names: `ROLE_HYPER_ADMIN`, `ROLE_SOFTWARE_VENDOR` (a software-vendor user) or `ROLE_REGULAR_USER`.",
    { type: 'string', enum: [...roleNames(version), ...also] },
  );
const softwareVendor = () =>
  nullableInteger(
    'The id of the software vendor the user belongs to; null for the hyper admin, and for a regular user the hyper admin placed under no vendor.',
  );
const userProperties = (version: ApiVersion) => ({
  username: username(),
  email: text("The user's e-mail address."),
  role: role(version),
  softwareVendor: softwareVendor(),
});
const password = () =>
  nullableText(
    'The stored password hash (`scrypt$N$r$p$salt$hash`, never the password), shown to the hyper admin only; null to anyone else.',
  );

/** v26/v33 `GET /users` and `GET /users/{username}`: a user, without its password. */
export const userInfo = exact('A user (v26, v33): never its password.', userProperties(33));

/** v15 `GET /users`: a user with `password`, the hash the hyper admin alone sees. */
export const userInfoV15 = exact('A user (v15): with `password`, its hash for the hyper admin, else null.', {
  ...userProperties(15),
  password: password(),
});

export const userMinified = exact('A user, briefly (v26, v33).', { username: username(), role: role(33) });

/** A seller in brief: who it is, as its profile says now. */
export const sellerSummary = exact('A seller, briefly.', {
  name: nullableText("The seller's (company's) name; null when its profile names none."),
  country: text("The seller's country, ISO 3166-1 alpha-2 (`SE`)."),
  corporateId: text("The seller's corporate id (organisationsnummer); after `country` it makes the seller id."),
});

/** v26/v33 `GET /auth/user`: the caller with the sellers it is connected to. */
export const sessionUser = exact('The calling user (v26, v33), with the sellers it is connected to.', {
  ...userProperties(33),
  connectedSellers: list(
    'The live sellers a regular user is connected to (deleted ones left out), in the order they were connected; empty for administrators, who reach sellers by their role.',
    ref('A connected seller.', 'sellerSummary'),
  ),
});

/** v15 `GET /auth/user`: the calling user as `GET /users` shows it, or a register's activation as a pseudo user. */
export const sessionUserV15 = exact(
  "The caller (v15): a user as the user list shows it, or, called with a register's key, its activation as a pseudo user of role `ACTIVATION` (username the activation id, every other field null).",
  {
    username: text("The user's name; for a register's key, the activation's id as text (`118`)."),
    email: nullableText("The user's e-mail address; null for a register's key."),
    role: role(15, [V15_ACTIVATION_ROLE]),
    softwareVendor: softwareVendor(),
    password: nullableText(
      "The caller's own stored password hash (`scrypt$N$r$p$salt$hash`) when it is the hyper admin; null for anyone else and for a register's key.",
    ),
  },
);

// ---------------------------------------------------------------------------------------------------------------
// The seller's overview (spec 2.3 Statistics records).

const alwaysFalse = (what: string) =>
  d(`Always false: the service keeps no ${what} (the spec's field, kept for the apps that read it).`, {
    type: 'boolean',
    const: false,
  });

export const sellerStats = exact(
  "The seller's registers at a glance, by each register's latest activation; a register whose latest activation is CLOSED counts for nothing. Days are UTC days.",
  {
    hasLocalControlUnits: flag(
      'Whether one of those registers has its control unit on the device (`controlUnitLocation` `DEVICE`).',
    ),
    expiredActivations: integer('How many of those registers have an activation whose `validTo` falls on a day before today.'),
    expireSoonActivations: integer(
      'How many have an activation whose `validTo` falls from today up to the same day next month, both included.',
    ),
    hasTables: alwaysFalse('tables'),
    hasAdditives: alwaysFalse('additives'),
    hasAdditiveClasses: alwaysFalse('additive classes'),
  },
);

// ---------------------------------------------------------------------------------------------------------------
// Devices and installations (spec 4.8).

const deviceId = () => text("The device's id, as its register app reported it when it installed (1 to 17 characters).");
const productionNumber = (what: string) => text(`${what}: the application's prefix and a number, at most 25 characters.`);

export const device = exact('A device a register app is installed on.', { deviceId: deviceId() });

export const buildInfo = exact('One pair of text the app reported about its build or device when it installed.', {
  name: text('What the pair names (`os`, `model`), at most 25 characters.'),
  value: text('Its value, at most 1024 characters.'),
  installation: productionNumber('The production number of the installation that reported it'),
});

/** `GET /devices-overview` and `/devices-overview/{deviceId}` (v26, v33). */
export const deviceOverview = exact(
  'A device with its latest installation, the application that runs on it and the registers on it.',
  {
    deviceId: deviceId(),
    latestInstallationInfo: nullableRef(
      "The device's latest installation of a register app; null when it cannot be read.",
      'registrationInstallation',
    ),
    deviceInfo: ref('The device.', 'device'),
    applicationDescriptionInfo: nullableRef(
      'The application description of the installed app (without its geolocation); null without an installation.',
      'applicationDescription',
    ),
    buildInfoes: list("The installation's build info; empty without an installation.", ref('One pair.', 'buildInfo')),
    registrationOverviewInfoes: list(
      'The registers of every seller on the installation, one per seller; empty without an installation.',
      ref('A register on the installation.', 'registrationOverview'),
    ),
  },
);

// ---------------------------------------------------------------------------------------------------------------
// Restaurants (spec 2.3 Restaurant), v26 and v33.

const RESTAURANT_FIELDS = Object.keys(restaurant.properties);

export const restaurantOverview = {
  type: 'object',
  description:
    "The seller's restaurant as v26/v33 show it (`restaurantView`: every field, null where it has none; `averageBill` is null when written through v15 without one), with the seller's live taxes and its currency.",
  allOf: [{ $ref: component('restaurantView') }, { required: RESTAURANT_FIELDS }],
  required: ['taxes', 'currency'],
  properties: {
    taxes: list("The seller's taxes that are not deleted, in identifier order.", ref('A tax.', 'tax')),
    currency: ref(
      "The seller's currency, ISO 4217 (`SEK`): the unit of `averageBill`, in hundredths; null when the seller's profile names none.",
      'currency',
    ),
  },
  unevaluatedProperties: false,
} as const;

export const restaurantListItem = exact('A public restaurant in the list: what its seller wrote, the first image its logo.', {
  country: text("The seller's country, ISO 3166-1 alpha-2 (`SE`): with `corporateId` it makes the seller id."),
  corporateId: text("The seller's corporate id (organisationsnummer)."),
  name: nullableText("The restaurant's name; null when it has none."),
  description: nullableText("The restaurant's description; null when it has none."),
  city: nullableText('The city it is in; null when it names none.'),
  address: nullableText('Its street address; null when it names none.'),
  averageBill: nullableInteger("What a visit costs on average, in hundredths of the seller's currency; null when it names none."),
  logo: nullableText("The file name of the restaurant's first image (its picture in the list); null without images."),
  custom: nullableText("The register app's own data about the restaurant; null when it has none."),
});

// ---------------------------------------------------------------------------------------------------------------
// Control units (docs/conventions.md §23).

export const controlUnitInfo = exact('A fiscal control unit (docs/conventions.md §23), the same in every version.', {
  id: integer("The unit's number, given by the server when the first activation named it."),
  registrationDate: instant('When the first activation naming it registered it'),
  controlUnitLocation: d('Where the unit is: `DEVICE`, on the counter beside the register; `REMOTE`, elsewhere.', {
    type: 'string',
    enum: ['DEVICE', 'REMOTE'],
  }),
  serial: text("The unit's serial, 1 to 20 characters; unique."),
  geolocation: {
    anyOf: [{ $ref: component('geolocation') }, { $ref: component('geolocation.v15') }],
    description:
      'Where the unit stands, as the activation that registered it gave it; `address` (v15 alone) where a v15 order wrote one, read through v15; null for a unit registered REMOTE without one.',
  },
  softwareVendor: nullableInteger('The id of the software vendor the unit is connected to; null while it is disconnected.'),
});

export const cloudUnitStatus = exact("A cloud control unit as the stage's cloud system reports it (docs/conventions.md §27).", {
  serial: text("The unit's serial: the register's RegisterID at the system."),
  system: text('The cloud system: `infrasec`.'),
  controlServerId: text("The system's control server, which receipts and exports name as the unit."),
  registerAddress: text('The address the register was enrolled with and every receipt is signed with.'),
  enrolled: instant('When the register was enrolled'),
  reachable: flag('Whether the system answered the status request just now; the fields below are null when not.'),
  active: { type: ['boolean', 'null'], description: 'Whether the system holds the register active.' },
  loginCount: nullableInteger('How many requests the system has seen from the register.'),
  lastLogin: nullableText("The system's time of the register's last request, as it writes it."),
  message: nullableText("The system's message when it refused the status request or could not be reached."),
});

export const bridgeStatus = exact("A control unit's edge bridge (docs/conventions.md §23).", {
  serial: text("The unit's serial."),
  thingName: text("The bridge's thing in AWS IoT: `cu-` and the serial."),
  provisioned: flag('Whether the bridge was provisioned (`npm run provision-bridge`) and not removed since.'),
  provisionedAt: nullableInstant('When it was provisioned; null when it is not'),
  lastSeen: nullableInstant("When the bridge published its last status, by the bridge's clock; null before any"),
  online: flag('Whether that status said online; false before any, and after a bridge went away (its last will).'),
  bridgeVersion: nullableText('The version of the bridge that status reported (`1.4.0`); null before any.'),
});
