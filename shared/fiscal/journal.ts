/**
 * The register's electronic journal, its pure part: every fiscal write appends entries chained by
 * SHA-256 hashes, and the v33 generated e-journal signs the chain's head with the activation key.
 * Storage writes the entries `chainEvents` makes in the same transaction as the event itself.
 * Hashing, the canonical JSON and the verifier live in `verify-journal.ts`, which third parties copy.
 */
import type { ActivationSigner } from '#shared/signing/signer.ts';
import type { PrintType } from './model.ts';
import {
  entryHash,
  headMessage,
  type JournalEntryRecord,
  type JournalHead,
  type JsonValue,
  type SignedJournal,
  ZERO_HASH,
} from './verify-journal.ts';

export type { JournalEntryRecord, JournalHead, JournalVerification, JsonValue, SignedJournal } from './verify-journal.ts';
export { canonicalJson, entryHash, headMessage, verifyJournal, ZERO_HASH } from './verify-journal.ts';

/**
 * The events a register journals itself (`POST /e-journals/{cash}` with a `type`; docs/conventions.md §19):
 * the kinds SKVFS 2021:16 records beside sales. Each entry's `data` is `{created, treasurer, data}`
 * (`RegisterEventRecord` in register-events.ts).
 */
export const REGISTER_EVENT_TYPES = [
  'LOGIN',
  'LOGOUT',
  'DRAWER_OPENED',
  'CLEAR',
  'TRAINING_MODE_ON',
  'TRAINING_MODE_OFF',
  'REGISTER_STARTED',
  'REGISTER_STOPPED',
  'REGISTER_RESTARTED',
  'PRICE_ENQUIRY',
  'ARTICLE_REGISTERED',
  'ARTICLE_CHANGED',
  'ARTICLE_DELETED',
  'ARTICLE_PARKED',
  'PARKED_ARTICLE_CHANGED',
  'PARKED_ARTICLE_DELETED',
  'PARKED_ARTICLE_MOVED',
  'PARKING_OPENED',
  'PARKING_CLOSED',
  'CLOCK_CHANGED',
  'OTHER_REPORT',
  'CONTROL_PROGRAM_STATUS',
] as const;
export type RegisterEventType = (typeof REGISTER_EVENT_TYPES)[number];

/** What a journal entry records. */
export const JOURNAL_TYPES = [
  'DAY_OPENED',
  'DAY_CLOSED',
  'SALE_RECORDED',
  'SALE_CHANGED',
  'PRINT',
  'BALANCE',
  'REPORT_PRINTED',
  'DEVICE',
  'KD_REQUEST',
  'KD_OUTCOME',
  ...REGISTER_EVENT_TYPES,
] as const;
export type JournalType = (typeof JOURNAL_TYPES)[number];

/** What a fiscal write says happened; what it leaves out is recorded as null. */
export interface JournalEvent {
  type: JournalType;
  dayNumber: number | null;
  saleIdentifier?: string | null;
  receiptNumber?: number | null;
  printType?: PrintType | null;
  /** Integer hundredths. */
  amount?: number | null;
  controlCode?: string | null;
  /** Whatever else the event carries (null included). */
  data?: JsonValue;
}

/** A journal entry as stored and served. */
export interface JournalEntry extends JournalEntryRecord {
  type: JournalType;
  printType: PrintType | null;
}

/** The head of a register's journal before its first entry. */
export const GENESIS_HEAD: Readonly<JournalHead> = Object.freeze({ sequence: 0, hash: ZERO_HASH });

/**
 * The head a register's ledger keeps: the last entry's sequence and hash, and when it was created. A head written
 * before `created` was kept has none: its time is unknown.
 */
export interface ChainHead extends JournalHead {
  created?: number;
}

/**
 * The entries recording `events` after `head`, in order, all stamped `created` = max(`now`, the head's created), and
 * the head they leave. The max keeps created nondecreasing along the sequence though one Lambda's clock may be behind
 * another's, so a period of time is a contiguous run of the journal (docs/conventions.md §19). Throws a TypeError when
 * an event holds something JSON cannot carry (a NaN amount, say).
 */
export function chainEvents(
  head: ChainHead,
  events: readonly JournalEvent[],
  now: number,
): { entries: JournalEntry[]; head: ChainHead } {
  const created = Math.max(now, head.created ?? now);
  const entries: JournalEntry[] = [];
  let last: ChainHead = head;
  for (const event of events) {
    const unhashed: Omit<JournalEntry, 'hash'> = {
      sequence: last.sequence + 1,
      type: event.type,
      created,
      dayNumber: event.dayNumber,
      saleIdentifier: event.saleIdentifier ?? null,
      receiptNumber: event.receiptNumber ?? null,
      printType: event.printType ?? null,
      amount: event.amount ?? null,
      controlCode: event.controlCode ?? null,
      data: event.data ?? null,
      previousHash: last.hash,
    };
    const entry: JournalEntry = { ...unhashed, hash: entryHash(unhashed) };
    entries.push(entry);
    last = { sequence: entry.sequence, hash: entry.hash, created };
  }
  return { entries, head: last };
}

/** The entries of a period, all of them, or (too many for one answer) the end of the longest period that fits. */
export type EntriesWithin = { entries: JournalEntry[] } | { longestTo: number };

/**
 * The entries of `entries` (a contiguous run of one journal, in sequence order) while their JSON, as an answer lists
 * them, takes at most `bytes`: all of them, or, at the first that does not fit, the `created` a period from the same
 * start must end at to fit. A write's entries share their time, so that period ends at the last entry created before
 * the one that did not fit (none: just before it, a period of nothing). Never holds more than `bytes` of entries and
 * one entry beside them.
 */
export async function entriesWithin(entries: AsyncIterable<JournalEntry>, bytes: number): Promise<EntriesWithin> {
  const kept: JournalEntry[] = [];
  let used = 0;
  for await (const entry of entries) {
    // The entry's JSON and the comma before the next.
    used += Buffer.byteLength(JSON.stringify(entry), 'utf8') + 1;
    if (used > bytes) return { longestTo: kept.findLast((fits) => fits.created < entry.created)?.created ?? entry.created - 1 };
    kept.push(entry);
  }
  return { entries: kept };
}

/** Who the generated journal belongs to, and when it was made (epoch milliseconds). */
export interface JournalIdentity {
  sellerId: string;
  cashRegisterName: string;
  generated: number;
}

/**
 * The v33 generated e-journal of `entries` (the whole chain, or a contiguous slice of it: its head is
 * its last entry; no entries: the genesis head), its head signed by `signer`.
 */
export async function signedJournal(
  entries: readonly JournalEntry[],
  signer: ActivationSigner,
  identity: JournalIdentity,
): Promise<SignedJournal<JournalEntry>> {
  entries.forEach((entry, index) => {
    const before = entries[index - 1];
    // The signature vouches for a chain: never sign a selection with holes.
    if (before && entry.sequence !== before.sequence + 1) {
      throw new Error(`journal entries are not contiguous: sequence ${entry.sequence} follows ${before.sequence}`);
    }
  });
  const last = entries.at(-1);
  const head: JournalHead = last ? { sequence: last.sequence, hash: last.hash } : { ...GENESIS_HEAD };
  const { sellerId, cashRegisterName, generated } = identity;
  const [signature, publicKeyFileName] = await Promise.all([
    signer.sign(Buffer.from(headMessage({ sellerId, cashRegisterName, generated, head }), 'utf8')),
    signer.publicKeyFileName(),
  ]);
  return {
    sellerId,
    cashRegisterName,
    generated,
    entries: [...entries],
    head,
    signature: signature.toString('base64'),
    publicKeyFileName,
  };
}
