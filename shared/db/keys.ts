/**
 * The map of the single table: every item's key is built here, so the whole layout is on one page.
 *
 * | item                      | pk                  | sk                 | vsk (LSI byVersion)   |
 * |---------------------------|---------------------|--------------------|-----------------------|
 * | seller's version counter  | S#<sellerId>        | #VERSION           |                       |
 * | seller profile            | S#<sellerId>        | #PROFILE           | SELLER#<version>      |
 * | catalog entity (tax, ...) | S#<sellerId>        | <KIND>#<id>        | <KIND>#<version>      |
 * | image (*)                 | S#<sellerId>        | <KIND>#<entityId>/<filename> | <KIND>#<version> |
 * | image version (*)         | S#<sellerId>        | <KIND>_VERSION#<entityId>/<filename>#<version> |   |
 * | unique value's holder     | <stream's pk>       | UNIQUE#<KIND>#<field>#<value> |            |
 * | seller's id sequence      | S#<sellerId>        | #SEQ#<name>        |                       |
 * | seller's restaurant       | S#<sellerId>        | #RESTAURANT        |                       |
 * | seller's hairdresser      | S#<sellerId>        | #HAIRDRESSER       |                       |
 * | gateway payment result    | S#<sellerId>        | #PAYMENT#<orderId> |                       |
 * | seller directory entry    | SELLERS             | <sellerId>         |                       |
 * | restaurant directory entry| RESTAURANTS         | <sellerId>         |                       |
 * | user                      | U#<username>        | #USER              |                       |
 * | username's wrong passwords| U#<username>        | #WRONG_PASSWORDS   |                       |
 * | user directory entry      | USERS               | <username>         |                       |
 * | API key (by its hash)     | K#<sha256 hex>      | #KEY               |                       |
 * | id sequence               | SEQ                 | <name>             |                       |
 * | software vendor           | VENDORS             | <id>               |                       |
 * | vendor's seller link      | VS#<vendorId>       | <sellerId>         |                       |
 * | application description   | APPS                | <package>          |                       |
 * | installation              | I#<productionNo>    | #INSTALLATION      |                       |
 * | device's latest install   | D#<deviceId>        | APP#<package>      |                       |
 * | device directory entry    | DEVICES[#V<id>|#S<sellerId>] | <deviceId> |                    |
 * | control unit              | CU#<serial>         | #CU                |                       |
 * | activation naming the unit| CU#<serial>         | A#<activationId>   |                       |
 * | control unit directory    | CUS[#V<vendorId>]   | <serial>           |                       |
 * | unit's bridge, provisioned| CU#<serial>         | #BRIDGE            |                       |
 * | unit's bridge, last status| CU#<serial>         | #BRIDGE_SEEN       |                       |
 * | kd reply (expires)        | KDR#<correlationId> | #KDR               |                       |
 * | activation                | A#<id>              | #ACTIVATION        |                       |
 * | connection code (hash)    | C#<sha256 hex>      | #CODE              |                       |
 * | registration              | R#<sellerId>        | <cash>             |                       |
 * | register's counter, ledger| R#<sellerId>#<cash> | #VERSION           |                       |
 * | register's sale           | R#<sellerId>#<cash> | SALE#<identifier>  | SALE#<version>        |
 * | register's trading day    | R#<sellerId>#<cash> | DAY#<dayNumber>    | DAY#<version> (***)   |
 * | register's journal entry  | R#<sellerId>#<cash> | JOURNAL#<sequence> |                       |
 * | register's receipt number | R#<sellerId>#<cash> | RECEIPT#<number>   |                       |
 * | register's kd claim       | R#<sellerId>#<cash> | KD#<number>#<printType> |                  |
 * | closed day's products, a piece | R#<sellerId>#<cash> | PRODUCTS#<dayNumber>#<piece> |          |
 * | register's idempotency key (expires) | R#<sellerId>#<cash> | IDEMPOTENCY#<key> |            |
 * | kd log record (**)        | KDLOG[#S<sellerId>|#V<vendor>|#U<serial>] | KD#<kdDate>#<id> |  |
 * | maintenance switch        | SERVICE             | #MAINTENANCE       |                       |
 *
 * Day numbers, journal sequences and receipt numbers are zero-padded, so key order is their order.
 *
 * (*) KIND is SELLER_IMAGE, CATEGORY_IMAGE or PRODUCT_IMAGE; entityId is the category's or product's
 * identifier, empty for the seller's own images. An image version names the stored object of its bytes.
 *
 * (**) One copy of each Kd log record in every directory that lists it (all, the seller's, the unit's vendor's,
 * the unit's), keyed by the receipt's date, so `GET /kd-facets` is a Query of one partition in date order.
 *
 * (***) Closed days only. The open day (at most one, named by the register's counter) is rewritten by every sale, so
 * it has no vsk: days-diff reads it by key (`readDaysDiff`), and no sale moves an index entry of its day.
 *
 * A seller's catalog shares one partition so a diff is one strongly consistent Query on the
 * LSI; global records have partitions of their own. Directories (USERS, VENDORS, APPS, DEVICES, RESTAURANTS, CUS)
 * are partitions of small entries so that a list is one Query, never a Scan.
 */
import type { ApiKeyRecord } from '#shared/auth/api-keys.ts';
import type { WrongPasswords } from '#shared/auth/password-limit.ts';
import type { UserEntry, UserRecord } from '#shared/auth/users.ts';
import type { StoredInstallation } from '#shared/domain/installations.ts';
import type {
  Activation,
  ApplicationDescription,
  ConnectionCode,
  ControlUnit,
  DeviceEntry,
  DeviceInstall,
  GatewayPayment,
  Hairdresser,
  Registration,
  Restaurant,
  RestaurantDirectoryEntry,
  SoftwareVendor,
  VendorSellerLink,
} from '#shared/domain/records.ts';
import type { Seller, SellerDirectoryEntry } from '#shared/domain/seller.ts';
import type { JournalEntry } from '#shared/fiscal/journal.ts';
import type { KeptAnswer } from '#shared/http/idempotency.ts';
import type { MaintenanceSwitch } from '#shared/http/maintenance-mode.ts';
import type { DayProductsPiece, ReceiptLink, ReceiptRecord, RegisterCounter } from '#shared/fiscal/ledger.ts';
import type { BridgeRecord, BridgeStatusMessage, KdReplyMessage } from '#shared/kd/protocol.ts';
import type { KdClaim, KdLogRecord } from '#shared/kd/records.ts';
import type { Revised } from './revisions.ts';
import type { Counter, Stored } from './streams.ts';

declare const itemType: unique symbol;

/**
 * A key of the table. `T` is the item stored under it: a read by key is typed by the key alone,
 * so no call site casts what it read. The marker exists only for the compiler.
 */
export interface Key<T = unknown> {
  pk: string;
  sk: string;
  readonly [itemType]?: T;
}

/** A whole partition (a directory of small entries): one Query reads it. */
export interface Partition<T = unknown> {
  pk: string;
  readonly [itemType]?: T;
}

/** Versions (and a register's numbers) are zero-padded so that string order is numeric order. */
export const pad = (version: number) => String(version).padStart(15, '0');

export const sellerPk = (sellerId: string) => `S#${sellerId}`;

const userPk = (username: string) => `U#${username}`;

/** The sort-key prefix of one entity's images of a kind (`PRODUCT_IMAGE`, ...): one Query reads them. */
export const imagesPrefix = (kind: string, entityIdentifier: string) => `${kind}#${entityIdentifier}/`;
/** The sort-key prefix of every entity of one kind in a version stream's partition (`keys.streamEntity`). */
export const entityPrefix = (kind: string) => `${kind}#`;
/** The sort-key prefix of a register's journal entries (`keys.journalEntry`). */
export const JOURNAL_PREFIX = 'JOURNAL#';

/** The partition of a register's own stream: its counter, and later its sales and days. */
export const registerPk = (sellerId: string, cash: string) => `R#${sellerId}#${cash}`;

/** The sort-key prefix of every Kd log record: a directory's page is a Query of it. */
export const KD_LOG_PREFIX = 'KD#';

/** Which Kd log directory: all records, a seller's, a software vendor's units', or one unit's. */
export type KdLogScope = undefined | { sellerId: string } | { vendor: number } | { serial: string };

const kdLogPk = (scope: KdLogScope) =>
  scope === undefined
    ? 'KDLOG'
    : 'sellerId' in scope
      ? `KDLOG#S${scope.sellerId}`
      : 'vendor' in scope
        ? `KDLOG#V${scope.vendor}`
        : `KDLOG#U${scope.serial}`;
/** All control units (`CUS`), or those connected to one vendor (`CUS#V<id>`). */
const controlUnitDirectoryPk = (vendor?: number) => (vendor === undefined ? 'CUS' : `CUS#V${vendor}`);

const deviceDirectoryPk = (scope?: { vendor: number } | { sellerId: string }) =>
  scope === undefined ? 'DEVICES' : 'vendor' in scope ? `DEVICES#V${scope.vendor}` : `DEVICES#S${scope.sellerId}`;

export const keys = {
  sellerCounter: (sellerId: string): Key<Counter> => ({ pk: sellerPk(sellerId), sk: '#VERSION' }),
  sellerProfile: (sellerId: string): Key<Stored<Seller>> => ({ pk: sellerPk(sellerId), sk: '#PROFILE' }),
  sellerDirectory: (sellerId: string): Key<SellerDirectoryEntry> => ({ pk: 'SELLERS', sk: sellerId }),
  /** A sequence of the seller's own (order ids), in its partition: sellers never share a hot item. */
  sellerSequence: (sellerId: string, name: string): Key<{ n: number }> => ({ pk: sellerPk(sellerId), sk: `#SEQ#${name}` }),
  /** Which entity of a kind holds a value that must be unique in its stream (a precept's order). */
  uniqueValue: (streamPk: string, kind: string, field: string, value: string): Key<{ holder: string }> => ({
    pk: streamPk,
    sk: `UNIQUE#${kind}#${field}#${value}`,
  }),
  restaurant: (sellerId: string): Key<Restaurant & Revised> => ({ pk: sellerPk(sellerId), sk: '#RESTAURANT' }),
  hairdresser: (sellerId: string): Key<Hairdresser & Revised> => ({ pk: sellerPk(sellerId), sk: '#HAIRDRESSER' }),
  /** The one result of a v26 gateway payment of an order (docs/conventions.md §22), in the seller's partition. */
  gatewayPayment: (sellerId: string, orderId: string): Key<GatewayPayment> => ({
    pk: sellerPk(sellerId),
    sk: `#PAYMENT#${orderId}`,
  }),
  restaurantDirectory: (sellerId: string): Key<RestaurantDirectoryEntry> => ({ pk: 'RESTAURANTS', sk: sellerId }),
  /** An entity of a version stream's partition (a seller's catalog): `T` is the entity's data. */
  streamEntity: <T>(pk: string, kind: string, identifier: string): Key<Stored<T>> => ({
    pk,
    sk: `${entityPrefix(kind)}${identifier}`,
  }),
  catalog: <T = unknown>(sellerId: string, kind: string, identifier: string): Key<Stored<T>> =>
    keys.streamEntity<T>(sellerPk(sellerId), kind, identifier),
  /** An image; `/` cannot occur in identifiers, so `<entityId>/` is a safe prefix for one entity's images. */
  image: <T>(sellerId: string, kind: string, entityIdentifier: string, filename: string): Key<Stored<T>> => ({
    pk: sellerPk(sellerId),
    sk: `${imagesPrefix(kind, entityIdentifier)}${filename}`,
  }),
  /** One version of an image (where its bytes are): no vsk, so diffs never see it; its prefix is not the image's. */
  imageVersion: <T>(sellerId: string, kind: string, entityIdentifier: string, filename: string, version: number): Key<T> => ({
    pk: sellerPk(sellerId),
    sk: `${kind}_VERSION#${entityIdentifier}/${filename}#${pad(version)}`,
  }),
  user: (username: string): Key<UserRecord> => ({ pk: userPk(username), sk: '#USER' }),
  /**
   * The wrong passwords of a username, known or not, beside its user (expires: `expiresAt`), so one Query of the
   * partition reads both (`shared/auth/password-limit.ts`).
   */
  wrongPasswords: (username: string): Key<WrongPasswords> => ({ pk: userPk(username), sk: '#WRONG_PASSWORDS' }),
  /** A username's partition: its user, if any, and its wrong-password counter, if any. */
  userPartition: (username: string): Partition<UserRecord | WrongPasswords> => ({ pk: userPk(username) }),
  userDirectory: (username: string): Key<UserEntry> => ({ pk: 'USERS', sk: username }),
  apiKey: (hash: string): Key<ApiKeyRecord> => ({ pk: `K#${hash}`, sk: '#KEY' }),
  sequence: (name: string): Key<{ n: number }> => ({ pk: 'SEQ', sk: name }),
  vendor: (id: number): Key<SoftwareVendor & Revised> => ({ pk: 'VENDORS', sk: String(id) }),
  vendorSeller: (vendorId: number, sellerId: string): Key<VendorSellerLink> => ({ pk: `VS#${vendorId}`, sk: sellerId }),
  application: (applicationPackage: string): Key<ApplicationDescription & Revised> => ({ pk: 'APPS', sk: applicationPackage }),
  installation: (productionNumber: string): Key<StoredInstallation> => ({ pk: `I#${productionNumber}`, sk: '#INSTALLATION' }),
  deviceInstall: (deviceId: string, applicationPackage: string): Key<DeviceInstall> => ({
    pk: `D#${deviceId}`,
    sk: `APP#${applicationPackage}`,
  }),
  deviceDirectory: (deviceId: string, scope?: { vendor: number } | { sellerId: string }): Key<DeviceEntry> => ({
    pk: deviceDirectoryPk(scope),
    sk: deviceId,
  }),
  controlUnit: (serial: string): Key<ControlUnit> => ({ pk: `CU#${serial}`, sk: '#CU' }),
  /** Written with every activation that names the unit: the unit's activations are one Query, never a Scan. */
  controlUnitActivation: (serial: string, activationId: number): Key<{ activationId: number }> => ({
    pk: `CU#${serial}`,
    sk: `${CONTROL_UNIT_ACTIVATION_PREFIX}${pad(activationId)}`,
  }),
  /** A unit's entry in the directory of all units, or of its vendor's: a copy of the unit, kept with it. */
  controlUnitDirectory: (serial: string, vendor?: number): Key<ControlUnit> => ({
    pk: controlUnitDirectoryPk(vendor),
    sk: serial,
  }),
  bridge: (serial: string): Key<BridgeRecord> => ({ pk: `CU#${serial}`, sk: '#BRIDGE' }),
  bridgeSeen: (serial: string): Key<BridgeStatusMessage> => ({ pk: `CU#${serial}`, sk: '#BRIDGE_SEEN' }),
  kdReply: (correlationId: string): Key<KdReplyMessage & { expiresAt: number }> => ({ pk: `KDR#${correlationId}`, sk: '#KDR' }),
  activation: (id: number): Key<Activation> => ({ pk: `A#${id}`, sk: '#ACTIVATION' }),
  connectionCode: (hash: string): Key<ConnectionCode> => ({ pk: `C#${hash}`, sk: '#CODE' }),
  registration: (sellerId: string, cash: string): Key<Registration> => ({ pk: `R#${sellerId}`, sk: cash }),
  registerCounter: (sellerId: string, cash: string): Key<RegisterCounter> => ({ pk: registerPk(sellerId, cash), sk: '#VERSION' }),
  journalEntry: (sellerId: string, cash: string, sequence: number): Key<JournalEntry> => ({
    pk: registerPk(sellerId, cash),
    sk: `${JOURNAL_PREFIX}${pad(sequence)}`,
  }),
  receipt: (sellerId: string, cash: string, receiptNumber: number): Key<ReceiptRecord> => ({
    pk: registerPk(sellerId, cash),
    sk: `RECEIPT#${pad(receiptNumber)}`,
  }),
  /** A printed receipt's digital link (docs/conventions.md §16): the unguessable token names the register and sale. */
  receiptLink: (token: string): Key<ReceiptLink> => ({ pk: `RL#${token}`, sk: '#RL' }),
  /** A register's claim on a receipt number and print type: its kd reaches the unit once (docs/conventions.md §25). */
  kdClaim: (sellerId: string, cash: string, receiptNumber: number, printType: string): Key<KdClaim> => ({
    pk: registerPk(sellerId, cash),
    sk: `KD#${pad(receiptNumber)}#${printType}`,
  }),
  /** A piece of a closed day's per-product figures (shared/fiscal/ledger.ts `productPieces`). */
  dayProducts: (sellerId: string, cash: string, dayNumber: number, piece: number): Key<DayProductsPiece> => ({
    pk: registerPk(sellerId, cash),
    sk: `PRODUCTS#${pad(dayNumber)}#${pad(piece)}`,
  }),
  /** What a register's write kept under its `Idempotency-Key` (docs/conventions.md §15), for a day. */
  idempotencyKey: (sellerId: string, cash: string, key: string): Key<KeptAnswer> => ({
    pk: registerPk(sellerId, cash),
    sk: `IDEMPOTENCY#${key}`,
  }),
  /** Which register of a seller holds a registerId at its units (two names may give one id: the first keeps it). */
  kdRegisterId: (sellerId: string, registerId: string): Key<{ holder: string }> =>
    keys.uniqueValue(sellerPk(sellerId), 'KD', 'registerId', registerId),
  /** One copy of a Kd log record in a directory, by the receipt's date. */
  kdLog: (scope: KdLogScope, kdDate: number, id: string): Key<KdLogRecord> => ({
    pk: kdLogPk(scope),
    sk: `${KD_LOG_PREFIX}${pad(kdDate)}#${id}`,
  }),
  /** The operator's switch every route reads (shared/http/maintenance-mode.ts); one item for the whole service. */
  maintenanceSwitch: (): Key<MaintenanceSwitch> => ({ pk: 'SERVICE', sk: '#MAINTENANCE' }),
} as const;

const partition = <T>(pk: string): Partition<T> => ({ pk });

/** The directories and other partitions read whole: a list is one Query, never a Scan. */
export const partitions = {
  sellers: partition<SellerDirectoryEntry>('SELLERS'),
  restaurants: partition<RestaurantDirectoryEntry>('RESTAURANTS'),
  users: partition<UserEntry>('USERS'),
  vendors: partition<SoftwareVendor & Revised>('VENDORS'),
  applications: partition<ApplicationDescription & Revised>('APPS'),
  /** The sellers that run a vendor's applications (one link each). */
  vendorSellers: (vendorId: number): Partition<VendorSellerLink> => ({ pk: `VS#${vendorId}` }),
  devices: (scope?: { vendor: number } | { sellerId: string }): Partition<DeviceEntry> => ({ pk: deviceDirectoryPk(scope) }),
  /** Every control unit, or those connected to one vendor. */
  controlUnits: (vendor?: number): Partition<ControlUnit> => ({ pk: controlUnitDirectoryPk(vendor) }),
  /** A seller's registrations (one item per register name). */
  registrations: (sellerId: string): Partition<Registration> => ({ pk: `R#${sellerId}` }),
  /** A Kd log directory (`keys.kdLog`). */
  kdLog: (scope: KdLogScope): Partition<KdLogRecord> => ({ pk: kdLogPk(scope) }),
} as const;

/** Sort key of the version index for an entity kind at a version. */
export const versionSortKey = (kind: string, version: number) => `${kind}#${pad(version)}`;

/** Sort key of the tombstone index: when the entity was deleted, so the oldest come first. */
export const tombstoneSortKey = (modified: number) => pad(modified);

/** The version-index range holding a kind's versions v with from < v <= to. */
export const versionRange = (kind: string, from: number, to: number) =>
  [versionSortKey(kind, from + 1), versionSortKey(kind, to)] as const;

/** Sort-key prefix of the activations naming a control unit, in its partition. */
export const CONTROL_UNIT_ACTIVATION_PREFIX = 'A#';

export const VERSION_INDEX = 'byVersion';
/** Sparse: only tombstones carry `tsk`, so the purge reads exactly the deletions it may remove. */
export const TOMBSTONE_INDEX = 'byTombstone';
