import type { HairdresserBody, RestaurantBody } from '#schemas/types.ts';
import type { Feature } from '#shared/auth/features.ts';
import { type Key, pad, type Partition, partitionOf } from '#shared/db/keys.ts';
import type { Revised } from '#shared/db/revisions.ts';

/**
 * The global records of installing and activating registers (spec 2.3), as stored: one
 * canonical form each, shown per API version by the functions that serve them. Their keys are at the end.
 */

export type ActivationStatus = 'ISSUED' | 'ACTIVE' | 'WORKING' | 'CLOSED';
export type ControlUnitLocation = 'DEVICE' | 'REMOTE';
export type AutoActivationCondition = 'NEVER' | 'ALWAYS' | 'NO_FEATURES';
export type CorporateIdValidationMethod = 'NONE' | 'VALIDATE_SWEDISH';

export interface Geolocation {
  /** v15 only. */
  address?: string | null;
  city: string;
  postalCode: string;
}

export interface Contact {
  name: string;
  phone: string;
  email: string;
}

/** Records that others reference count their references; deletion needs zero (`shared/db/transact.ts`). */
export interface Referenced {
  refs?: number;
}

/** A software vendor (docs/conventions.md §10): it owns applications, control units and vendor users. */
export interface SoftwareVendor extends Referenced {
  id: number;
  name: string;
  /** Where `POST /email` sends its registers' messages (docs/conventions.md §21); absent or null: none. */
  supportEmail?: string | null;
}

/** An application description: a register app of one vendor; installations reference it. */
export interface ApplicationDescription extends Referenced {
  applicationPackage: string;
  productionNumberPrefix: string;
  controlUnitRequired: boolean;
  name: string;
  softwareVendor: number;
  autoActivationCondition: AutoActivationCondition;
  corporateIdValidationMethod: CorporateIdValidationMethod;
  geolocation: Geolocation | null;
}

/** One install of an application on a device, named by its production number. */
export interface Installation {
  id: number;
  productionNumber: string;
  deviceId: string;
  applicationPackage: string;
  registrationDate: number;
  gcmRegistrationId: string | null;
  gcmUnsubscribeDate: number | null;
  programVersion: string | null;
  /** BuildInfo name -> value. */
  buildInfo: Record<string, string>;
}

/**
 * A certified control unit, registered the first time an activation names it, for the application's vendor;
 * the hyper admin may disconnect it from its vendor (null) and connect it to one (docs/conventions.md §23).
 * Its activations count on it (`refs`): a unit is deleted only while none names it.
 */
export interface ControlUnit extends Referenced {
  id: number;
  serial: string;
  registrationDate: number;
  controlUnitLocation: ControlUnitLocation;
  geolocation: Geolocation | null;
  softwareVendor: number | null;
  /** A cloud control unit (docs/conventions.md §27): its serial is the system's RegisterID; absent for a unit behind a bridge. */
  cloud?: CloudUnit;
}

/** What the service keeps of a register enrolled with the stage's cloud system. */
export interface CloudUnit {
  system: 'infrasec';
  /** The system's id of its control server (TCSID), named where receipts and exports name the unit. */
  controlServerId: string;
  /** The register's address as enrolled (RegisterAddress of every signing). */
  registerAddress: string;
  enrolled: number;
}

/** An activation: a register's right to use a set of features for a period. */
export interface Activation {
  id: number;
  status: ActivationStatus;
  /** Set on every action on the activation. */
  issued: number;
  sellerId: string;
  country: string;
  corporateId: string;
  sellerName: string | null;
  cashRegisterName: string;
  applicationPackage: string | null;
  /** Null until a register connects with a connection code, or when the application needs no installation. */
  productionNumber: string | null;
  validFrom: number;
  validTo: number;
  features: Feature[];
  controlUnitLocation: ControlUnitLocation | null;
  controlUnitSerial: string | null;
  /** A cloud unit's control server id (`CloudUnit`), which receipts name as the unit; absent otherwise. */
  controlServerId?: string | null;
  controlUnitGeolocation: Geolocation | null;
  contact: Contact | null;
  comment: string | null;
  /** SHA-256 of the activation's API key; null until one is issued. */
  keyHash: string | null;
}

/**
 * How receipts and exports name an activation's control unit: a cloud unit by its control server's id, any other by
 * its serial (docs/conventions.md §27); null without a unit. A server id shorter than the 17 characters of SKVFS
 * 2021:16's manufacturing number is padded with spaces, which that number may hold.
 */
export const unitNameOf = (activation: Pick<Activation, 'controlUnitSerial' | 'controlServerId'> | undefined): string | null =>
  activation?.controlServerId?.padEnd(UNIT_NUMBER_LENGTH) ?? activation?.controlUnitSerial ?? null;

/** TillverkningsnummerForKontrollenheten is 17 characters (Skatteverket's schema, docs/skvfs2021-16). */
const UNIT_NUMBER_LENGTH = 17;

/** A named register of a seller on an installation. */
export interface Registration {
  id: number;
  sellerId: string;
  country: string;
  corporateId: string;
  cashRegisterName: string;
  productionNumber: string | null;
  applicationPackage: string | null;
  /** The latest activation, then the earlier ones (newest first). */
  activationIds: number[];
  created: number;
  /** Rises on every change: the registration's ETag. */
  revision: number;
  deleted: boolean;
}

/** A single-use connection code of an activation (stored by the code's hash). */
export interface ConnectionCode {
  activationId: number;
  expires: number;
  used: boolean;
}

/** A device directory entry: the device and its latest installation in that directory's scope. */
export interface DeviceEntry {
  deviceId: string;
  latestProductionNumber?: string;
  updated?: number;
}

/** The latest installation of an application on a device. */
export interface DeviceInstall {
  productionNumber: string;
  installed: number;
}

/** A software vendor's link to a seller that runs one of its applications (the seller id is the sort key). */
export interface VendorSellerLink {
  sk: string;
  linked: number;
}

/**
 * The canonical restaurant: v26 and v33 have every field, v15 all but `workHoursWeek`. v15 does not
 * require `averageBill`, so a restaurant written through it may have none.
 */
export type Restaurant = Omit<RestaurantBody, 'averageBill'> & { averageBill?: number | null };

export type Hairdresser = HairdresserBody;

/** An entry of the RESTAURANTS directory, written in the restaurant's transaction: a list is one Query. */
export interface RestaurantDirectoryEntry {
  sellerId: string;
  country: string;
  corporateId: string;
  name: string | null;
  description: string | null;
  city: string | null;
  address: string | null;
  averageBill: number | null;
  /** The first of the restaurant's images: the picture a list shows. */
  logo: string | null;
  custom: string | null;
}

/** The one stored result of a v26 gateway payment of a seller's order (docs/conventions.md §22). */
export interface GatewayPayment {
  /** The amount charged, in hundredths of `currency`. */
  amount: number;
  currency: string;
  status: 'ACCEPT' | 'DECLINE';
  transactionId: string | null;
  acquirer: string | null;
  declineReason: string | null;
  created: number;
}

/*
 * The keys of these records. They live beside the types and import nothing at run time but the table engine's key
 * shapes, so any floor (and the edge bridge, through shared/kd/protocol.ts) may name a record's key.
 */

export const vendorKeys = {
  vendor: (id: number): Key<SoftwareVendor & Revised> => ({ pk: 'VENDORS', sk: String(id) }),
  directory: partitionOf<SoftwareVendor & Revised>('VENDORS'),
  /** The link of a vendor to a seller that runs its applications. */
  sellerLink: (vendorId: number, sellerId: string): Key<VendorSellerLink> => ({ pk: `VS#${vendorId}`, sk: sellerId }),
  /** The sellers that run a vendor's applications (one link each). */
  sellers: (vendorId: number): Partition<VendorSellerLink> => partitionOf(`VS#${vendorId}`),
} as const;

export const applicationKeys = {
  application: (applicationPackage: string): Key<ApplicationDescription & Revised> => ({ pk: 'APPS', sk: applicationPackage }),
  directory: partitionOf<ApplicationDescription & Revised>('APPS'),
} as const;

/** The scope of a device directory: all devices, a vendor's, or a seller's. */
type DeviceScope = undefined | { vendor: number } | { sellerId: string };
const deviceDirectoryPk = (scope: DeviceScope) =>
  scope === undefined ? 'DEVICES' : 'vendor' in scope ? `DEVICES#V${scope.vendor}` : `DEVICES#S${scope.sellerId}`;

export const deviceKeys = {
  /** The latest install of an application on a device. */
  install: (deviceId: string, applicationPackage: string): Key<DeviceInstall> => ({
    pk: `D#${deviceId}`,
    sk: `APP#${applicationPackage}`,
  }),
  directoryEntry: (deviceId: string, scope?: DeviceScope): Key<DeviceEntry> => ({ pk: deviceDirectoryPk(scope), sk: deviceId }),
  directory: (scope?: DeviceScope): Partition<DeviceEntry> => partitionOf(deviceDirectoryPk(scope)),
} as const;

/** A control unit's partition: the unit, the activations naming it, and its bridge's items (shared/kd/protocol.ts). */
export const controlUnitPk = (serial: string) => `CU#${serial}`;
/** The sort-key prefix of the activations naming a unit, in its partition: one Query reads them. */
export const CONTROL_UNIT_ACTIVATION_PREFIX = 'A#';
/** All control units (`CUS`), or those connected to one vendor (`CUS#V<id>`). */
const controlUnitDirectoryPk = (vendor?: number) => (vendor === undefined ? 'CUS' : `CUS#V${vendor}`);

export const controlUnitKeys = {
  unit: (serial: string): Key<ControlUnit> => ({ pk: controlUnitPk(serial), sk: '#CU' }),
  /** Written with every activation that names the unit: the unit's activations are one Query, never a Scan. */
  activation: (serial: string, activationId: number): Key<{ activationId: number }> => ({
    pk: controlUnitPk(serial),
    sk: `${CONTROL_UNIT_ACTIVATION_PREFIX}${pad(activationId)}`,
  }),
  /** A unit's entry in the directory of all units, or of its vendor's: a copy of the unit, kept with it. */
  directoryEntry: (serial: string, vendor?: number): Key<ControlUnit> => ({ pk: controlUnitDirectoryPk(vendor), sk: serial }),
  directory: (vendor?: number): Partition<ControlUnit> => partitionOf(controlUnitDirectoryPk(vendor)),
  /** A register's enrollment with the cloud system, kept so a repeated order reuses it (docs/conventions.md §27). */
  enrollment: (sellerId: string, cashRegisterName: string): Key<{ serial: string; cloud: CloudUnit }> => ({
    pk: `CLOUDCU#${sellerId}#${cashRegisterName}`,
    sk: '#ENROLLED',
  }),
} as const;

export const activationKeys = {
  activation: (id: number): Key<Activation> => ({ pk: `A#${id}`, sk: '#ACTIVATION' }),
  /** A connection code, by the code's hash. */
  connectionCode: (hash: string): Key<ConnectionCode> => ({ pk: `C#${hash}`, sk: '#CODE' }),
} as const;

/**
 * The partition of a register's own stream: its counter, sales, days, journal, receipts and kept answers
 * (shared/fiscal/ledger.ts, shared/http/idempotency.ts, shared/kd/records.ts).
 */
export const registerPk = (sellerId: string, cash: string) => `R#${sellerId}#${cash}`;

export const registrationKeys = {
  registration: (sellerId: string, cash: string): Key<Registration> => ({ pk: `R#${sellerId}`, sk: cash }),
  /** A seller's registrations (one item per register name). */
  registrations: (sellerId: string): Partition<Registration> => partitionOf(`R#${sellerId}`),
} as const;
