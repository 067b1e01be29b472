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

const kdLogPk = (scope: KdLogScope) =>
  scope === undefined
    ? 'KDLOG'
    : 'sellerId' in scope
      ? `KDLOG#S${scope.sellerId}`
      : 'vendor' in scope
        ? `KDLOG#V${scope.vendor}`
        : `KDLOG#U${scope.serial}`;

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
   * unit's), keyed by the receipt's date, so `GET /kd-facets` is a Query of one partition in date order.
   */
  log: (scope: KdLogScope, kdDate: number, id: string): Key<KdLogRecord> => ({
    pk: kdLogPk(scope),
    sk: `${KD_LOG_PREFIX}${pad(kdDate)}#${id}`,
  }),
  logDirectory: (scope: KdLogScope): Partition<KdLogRecord> => partitionOf(kdLogPk(scope)),
} as const;
