import type { HairdresserBody, RestaurantBody } from '#schemas/types.ts';
import type { Feature } from '#shared/auth/features.ts';

/**
 * The global records of installing and activating registers (spec 2.3), as stored: one
 * canonical form each, shown per API version by the functions that serve them. Keys are in
 * `shared/db/keys.ts`.
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
  controlUnitGeolocation: Geolocation | null;
  contact: Contact | null;
  comment: string | null;
  /** SHA-256 of the activation's API key; null until one is issued. */
  keyHash: string | null;
}

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
