/**
 * The service's items of the kd path (docs/conventions.md §25): a register's claim on one (receipt number,
 * print type), which makes a kd reach its unit once, and the Kd log record of spec 2.3 that `GET /kd-facets`
 * lists.
 */
import { type Key, pad, type Partition, partitionOf } from '#shared/db/keys.ts';
import { uniqueValueKey } from '#shared/db/streams.ts';
import { registerPk } from '#shared/domain/records.ts';
import { sellerPk } from '#shared/domain/seller.ts';
import type { KdLogOutcome, PrintType } from '#shared/fiscal/model.ts';
import type { KdRequest } from './codec.ts';

/**
 * `PENDING`: a request is out (`correlationId`, until `deadline`); `SIGNED`: the unit registered the receipt
 * (`controlCode`); `FAILED`: the unit's bridge answered something else for `correlationId`, so the unit did not
 * register it and the next kd sends again.
 */
export const KD_CLAIM_STATES = ['PENDING', 'SIGNED', 'FAILED'] as const;
export type KdClaimState = (typeof KD_CLAIM_STATES)[number];

/** A register's claim on one receipt number and print type, in the register's partition. */
export interface KdClaim {
  receiptNumber: number;
  printType: PrintType;
  /** The unit the request went to. */
  serial: string;
  /** What the unit registers: a repeat with other content is refused. */
  command: KdRequest;
  state: KdClaimState;
  correlationId: string;
  /** Epoch ms: the bridge drops the request after it; a PENDING claim past it may be sent again. */
  deadline: number;
  /** The unit's control code once SIGNED, else null. */
  controlCode: string | null;
  /** The request as the Kd log shows it (the last one sent). */
  request: KdLogRequest;
  /** Set when a waiter recorded that no reply came by the deadline (so a second waiter records nothing). */
  timedOut: boolean;
  created: number;
  updated: number;
}

/** A Kd log record (spec 2.3) and the fields that place it (who, which unit, what happened). */
export interface KdLogRecord {
  id: string;
  /** The activation the register sent the kd under. */
  activation: number;
  /** The receipt's amount (hundredths, absolute; `refund` gives the direction). */
  brutto: number;
  /** The receipt's time as the register sent it (`date`). */
  kdDate: number;
  /**
   * VAT rate in percent (text, as the register wrote it) -> the VAT at that rate in hundredths, as the unit registered
   * it: one meaning whether the register sent VAT amounts with `brutto` or gross amounts without (docs/conventions.md §25).
   */
  vatRateToSum: Record<string, number>;
  receiptNumber: number;
  printType: PrintType;
  refund: boolean;
  /** Null when the unit signed; else what went wrong, for a person. */
  errorMessage: string | null;
  /** Always null: the service never hands out stack traces. */
  errorStackTrace: null;
  sellerId: string;
  cashRegisterName: string;
  controlUnitSerial: string;
  /** The unit's software vendor (null when it has none). */
  softwareVendor: number | null;
  correlationId: string;
  outcome: KdLogOutcome;
  /** The unit's return code when it answered, else null. */
  returnCode: number | null;
  /** The control code when SIGNED, else null. */
  response: string | null;
  /** Epoch ms when the outcome was recorded. */
  created: number;
}

/** The fields of a Kd log record that come from the request. */
export type KdLogRequest = Pick<KdLogRecord, 'activation' | 'brutto' | 'kdDate' | 'vatRateToSum' | 'refund' | 'softwareVendor'>;

/** The sort-key prefix of every Kd log record: a directory's page is a Query of it. */
export const KD_LOG_PREFIX = 'KD#';

/** Which Kd log directory: all records, a seller's, a software vendor's units', or one unit's. */
export type KdLogScope = undefined | { sellerId: string } | { vendor: number } | { serial: string };

/** The directories every register may write to: all records, and a vendor whose units may be the whole fleet. */
type ShardedScope = undefined | { vendor: number };
/** The directories a chain or a unit writes to: small enough to stay one partition each. */
type WholeScope = { sellerId: string } | { serial: string };

/**
 * How many partitions a sharded directory is split into. At the peak the fleet's 100,000 registers print 40 receipts
 * an hour each: 100,000 x 40 / 3,600 = 1,111 records a second into all records, and as many into the directory of a
 * vendor whose units are the whole fleet, each a transactional put of < 1 KB (2 WCU): 2,222 WCU/s, past a partition's
 * 1,000. In 16 shards that is 2,222 / 16 = 139 WCU/s a partition key, under the 300 any key may take
 * (docs/decisions.md, "Kd log directories sharded").
 */
export const KD_LOG_SHARDS = 16;

/** The shards' names: the 16 hex digits a record id can begin with (`kdLogShardOf`). */
const SHARD_NAMES = Array.from({ length: KD_LOG_SHARDS }, (_, shard) => shard.toString(16));

/**
 * The shard a record goes to in a sharded directory: its id's first hex digit, lower case (`0`-`f`). Ids are random
 * UUIDs, so the shards fill evenly, and a record's shard follows from the record alone (no counter to contend on).
 */
export function kdLogShardOf(id: string): string {
  const shard = id.charAt(0).toLowerCase();
  if (!SHARD_NAMES.includes(shard)) throw new Error(`Kd log record id ${id} does not begin with a hex digit`);
  return shard;
}

const isSharded = (scope: KdLogScope): scope is ShardedScope => scope === undefined || 'vendor' in scope;

const shardPk = (scope: ShardedScope, shard: string) =>
  scope === undefined ? `KDLOG#A${shard}` : `KDLOG#V${scope.vendor}#${shard}`;

const wholePk = (scope: WholeScope) => ('sellerId' in scope ? `KDLOG#S${scope.sellerId}` : `KDLOG#U${scope.serial}`);

export const kdKeys = {
  /** A register's claim on a receipt number and print type: its kd reaches the unit once (docs/conventions.md §25). */
  claim: (sellerId: string, cash: string, receiptNumber: number, printType: string): Key<KdClaim> => ({
    pk: registerPk(sellerId, cash),
    sk: `KD#${pad(receiptNumber)}#${printType}`,
  }),
  /** Which register of a seller holds a registerId at its units (two names may give one id: the first keeps it). */
  registerId: (sellerId: string, registerId: string): Key<{ holder: string }> =>
    uniqueValueKey(sellerPk(sellerId), 'KD', 'registerId', registerId),
  /**
   * One copy of a Kd log record in every directory that lists it (all, the seller's, the unit's vendor's, the
   * unit's), keyed by the receipt's date, so `GET /kd-facets` reads one directory in date order. All records
   * (`KDLOG#A<shard>`) and a vendor's (`KDLOG#V<vendor>#<shard>`) put it in the record's shard (`kdLogShardOf`);
   * the seller's (`KDLOG#S<sellerId>`) and the unit's (`KDLOG#U<serial>`) are one partition each.
   */
  log: (scope: KdLogScope, kdDate: number, id: string): Key<KdLogRecord> => ({
    pk: isSharded(scope) ? shardPk(scope, kdLogShardOf(id)) : wholePk(scope),
    sk: `${KD_LOG_PREFIX}${pad(kdDate)}#${id}`,
  }),
  /**
   * The partitions that hold a directory: its 16 shards (`KD_LOG_SHARDS`) for all records and a vendor's, the one
   * partition of a seller's or a unit's. A page of it merges them (`readMergedPage`); a sort key is in one only.
   */
  logDirectory: (scope: KdLogScope): Partition<KdLogRecord>[] =>
    isSharded(scope) ? SHARD_NAMES.map((shard) => partitionOf(shardPk(scope, shard))) : [partitionOf(wholePk(scope))],
} as const;

/**
 * Where a Kd log item stored before the directories were sharded belongs now (docs/decisions.md, "Kd log directories
 * sharded"), for the migration that moves them: an item of `KDLOG` goes to `KDLOG#A<shard>`, one of `KDLOG#V<vendor>`
 * to `KDLOG#V<vendor>#<shard>`, the shard its id's (`kdLogShardOf`), with the same sort key; any other item (the
 * seller's, the unit's, or one in a shard already) answers its own key, so a second run moves nothing. The migration
 * puts the item under the key answered and deletes it under the old one when they differ.
 */
export function migrateKdLogKey(item: Key<KdLogRecord> & Pick<KdLogRecord, 'id'>): Key<KdLogRecord> {
  const oldVendor = /^KDLOG#V(\d+)$/.exec(item.pk)?.[1];
  const scope: ShardedScope | null =
    item.pk === 'KDLOG' ? undefined : oldVendor === undefined ? null : { vendor: Number(oldVendor) };
  return scope === null ? { pk: item.pk, sk: item.sk } : { pk: shardPk(scope, kdLogShardOf(item.id)), sk: item.sk };
}
