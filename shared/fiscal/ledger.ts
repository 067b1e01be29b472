import { entityPrefix, pad, type Key } from '#shared/db/keys.ts';
import { type Item, type KeyPage, queryAll, queryEach, readItem, readItems, readPage, withPrefix } from '#shared/db/reads.ts';
import {
  type Counter,
  counterWrite,
  eachVersion,
  entityWrite,
  readDiff,
  type Stored,
  type Stream,
  streamEntity,
} from '#shared/db/streams.ts';
import { table } from '#shared/db/client.ts';
import { queryItems } from '#shared/db/documents.ts';
import { commit, create, put, type Step } from '#shared/db/transact.ts';
import { insufficientRights } from '#shared/auth/access.ts';
import type { Principal } from '#shared/auth/principal.ts';
import { registerPk } from '#shared/domain/records.ts';
import { referenceNotFound } from '#shared/errors.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { type IdempotencyKey, type KeptAnswer, keepStep, keptAnswerKey, keptFor } from './kept-answers.ts';
import { type ChainHead, chainEvents, GENESIS_HEAD, type JournalEntry, type JournalEvent } from './journal.ts';
import type { Day, Sale } from './model.ts';
import { type Breakdown, breakdownOf, type DayTotals } from './totals.ts';

/**
 * A register's fiscal ledger (docs/conventions.md §14): every fiscal write of a register is one TransactWriteItems
 * that moves the register's counter from the version it read to the next, so its writes serialize on
 * that one item. The counter also holds what must never skip or repeat (the journal's head, the last
 * receipt number, the latest day), so a number is taken and used in the same transaction or not at all.
 */

/** The register's state beside its stream version, in its counter item. */
export interface Ledger {
  /**
   * The journal's last entry (sequence 0 and 64 zeros before the first) and when it was created (absent before the
   * first, and in a head written before heads kept it).
   */
  journal: ChainHead;
  /** The last receipt number taken; 0 before the first. */
  receipt: number;
  /** The last training receipt number taken (their own series, docs/conventions.md §16); absent before the first. */
  training?: number;
  /**
   * When the register's latest closed day was closed (epoch milliseconds), kept while later days open: a register
   * event may not be dated before it (docs/conventions.md §19). Absent before the first close.
   */
  lastClose?: number;
  /** The register's latest day; absent before its first. */
  day?: {
    dayNumber: number;
    date: number;
    opened: boolean;
    reportPrinted: boolean;
  };
  /** Brutto sold and refunded since the register's first day (a day's grand totals). */
  grand: { sales: number; refunds: number };
}

export interface RegisterCounter extends Counter {
  ledger?: Ledger;
}

/** The last number of the series a receipt takes: training receipts have their own (docs/conventions.md §16). */
export const lastReceipt = (ledger: Ledger, receipt: { training?: boolean | null }): number =>
  receipt.training ? (ledger.training ?? 0) : ledger.receipt;

export const EMPTY_LEDGER: Ledger = { journal: GENESIS_HEAD, receipt: 0, grand: { sales: 0, refunds: 0 } };

/** A stored day: its record, its running totals and the stream version it opened at. */
export interface DayRecord extends Day {
  totals: DayTotals;
  /** Every sale of this day or a later one has a higher version (days open in turn; a closed day's sales never change). */
  openVersion: number;
  /** How many pieces its close wrote of the closed day's per-product figures (`productPieces`); absent: none. */
  productPieces?: number;
}

/** A piece of a closed day's per-product figures, in an item of its own (`registerKeys.dayProducts`). */
export interface DayProductsPiece {
  products: Breakdown['products'];
}

/** Products per piece: a piece stays far below DynamoDB's 400 KB item limit (a product's figures take about 100 bytes). */
const PRODUCTS_PER_PIECE = 1_000;
/**
 * The most a close writes in pieces (about 2 MB), so that its transaction stays under DynamoDB's 4 MB and 100 items
 * with the day, the counter and the journal entry; a day of more products keeps none, and is read from its sales.
 */
const MAX_PIECES = 20;

/**
 * The writes of a closed day's per-product figures, a piece per `PRODUCTS_PER_PIECE` products in key order, for the
 * close's transaction; none (and `pieces` undefined) past `MAX_PIECES`. Read back by `readDayBreakdown`, so statistics of a
 * closed day read a few items instead of its sales.
 */
export function productPieces(register: Register, dayNumber: number, products: Breakdown['products']) {
  const entries = Object.entries(products).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const count = Math.ceil(entries.length / PRODUCTS_PER_PIECE);
  if (count > MAX_PIECES) return { pieces: undefined, steps: [] };
  const steps = Array.from({ length: count }, (_, piece) =>
    put({
      ...registerKeys.dayProducts(register.sellerId, register.cash, dayNumber, piece),
      products: Object.fromEntries(entries.slice(piece * PRODUCTS_PER_PIECE, (piece + 1) * PRODUCTS_PER_PIECE)),
    }),
  );
  return { pieces: count, steps };
}

/** What a receipt number was given to: the sale, its brutto and how much of it refunds took back. */
export interface ReceiptRecord {
  sale: string;
  brutto: number;
  refunded: number;
  /** When its one copy was printed (SKVFS 2014:9 6 kap. 3 §); absent before. */
  copied?: number;
}

/** What a receipt's digital link (`registerKeys.receiptLink`) opens: the sale of a register. */
export interface ReceiptLink {
  sellerId: string;
  cash: string;
  sale: string;
}

/** A register: its seller and its name (the `{cash}` of its paths). */
export interface Register {
  sellerId: string;
  cash: string;
}

/** The sort-key prefix of a register's journal entries (`registerKeys.journalEntry`): its journal is a Query of it. */
export const JOURNAL_PREFIX = 'JOURNAL#';
/**
 * The sort-key prefix of a register's hour markers (`registerKeys.journalHour`). `_` sorts after `#`, so the markers
 * follow the entries and a Query of `JOURNAL_PREFIX` never meets one.
 */
const JOURNAL_HOUR_PREFIX = 'JOURNAL_HOUR#';

/** An hour marker: the first journal entry created in its hour (docs/architecture.md, "The table's items"). */
export interface JournalHourMarker {
  sequence: number;
}

const HOUR_MS = 3_600_000;
/** The hour (since the epoch, UTC) of an instant in epoch milliseconds; never below 0, as no entry is older. */
export const journalHour = (instant: number): number => Math.max(0, Math.floor(instant / HOUR_MS));

/** The items of a register's partition besides its sales and days (`saleKey`, `dayKey`). */
export const registerKeys = {
  counter: (sellerId: string, cash: string): Key<RegisterCounter> => ({ pk: registerPk(sellerId, cash), sk: '#VERSION' }),
  journalEntry: (sellerId: string, cash: string, sequence: number): Key<JournalEntry> => ({
    pk: registerPk(sellerId, cash),
    sk: `${JOURNAL_PREFIX}${pad(sequence)}`,
  }),
  /** The first sequence of the register's journal created in `hour` (`journalHour`): where a period's read starts. */
  journalHour: (sellerId: string, cash: string, hour: number): Key<JournalHourMarker> => ({
    pk: registerPk(sellerId, cash),
    sk: `${JOURNAL_HOUR_PREFIX}${pad(hour)}`,
  }),
  receipt: (sellerId: string, cash: string, receiptNumber: number): Key<ReceiptRecord> => ({
    pk: registerPk(sellerId, cash),
    sk: `RECEIPT#${pad(receiptNumber)}`,
  }),
  /** A printed receipt's digital link (docs/conventions.md §16): the unguessable token names the register and sale. */
  receiptLink: (token: string): Key<ReceiptLink> => ({ pk: `RL#${token}`, sk: '#RL' }),
  dayProducts: (sellerId: string, cash: string, dayNumber: number, piece: number): Key<DayProductsPiece> => ({
    pk: registerPk(sellerId, cash),
    sk: `PRODUCTS#${pad(dayNumber)}#${pad(piece)}`,
  }),
} as const;

/** A register's days, oldest first. */
export const readDays = (register: Register): Promise<Item<Stored<DayRecord>>[]> =>
  queryAll<Stored<DayRecord>>(withPrefix(registerPk(register.sellerId, register.cash), entityPrefix(DAY)));

/** An hour marker to write: the hour and the first sequence created in it. */
export interface HourMarker {
  hour: number;
  sequence: number;
}

/**
 * The hour markers of `entries` (any order): for each hour some entry was created in, the least sequence created in
 * it, by hour. What the ledger writes for a write's entries, and what a migration writes for a journal journaled
 * before the markers were.
 */
export function hourMarkers(entries: Iterable<Pick<JournalEntry, 'sequence' | 'created'>>): HourMarker[] {
  const first = new Map<number, number>();
  for (const { sequence, created } of entries) {
    const hour = journalHour(created);
    const known = first.get(hour);
    if (known === undefined || sequence < known) first.set(hour, sequence);
  }
  return [...first].map(([hour, sequence]) => ({ hour, sequence })).sort((a, b) => a.hour - b.hour);
}

/**
 * The Update that writes a marker in the ledger's transaction: it never fails (no condition) and keeps the first
 * sequence written, should a marker already be there (a migration's, say).
 */
const markerStep = (register: Register, marker: HourMarker): Step => ({
  write: {
    Update: {
      TableName: table(),
      Key: registerKeys.journalHour(register.sellerId, register.cash, marker.hour),
      UpdateExpression: 'SET #sequence = if_not_exists(#sequence, :sequence)',
      ExpressionAttributeNames: { '#sequence': 'sequence' },
      ExpressionAttributeValues: { ':sequence': marker.sequence },
    },
  },
});

/** The markers of a write's `entries` after `head`: the hours they start (the head's own hour has its marker). */
function markerSteps(register: Register, head: ChainHead, entries: readonly JournalEntry[]): Step[] {
  const headHour = head.created === undefined ? undefined : journalHour(head.created);
  return hourMarkers(entries)
    .filter((marker) => marker.hour !== headHour)
    .map((marker) => markerStep(register, marker));
}

/** A period of a register's journal by the entries' `created` (epoch milliseconds, both ends in it); an end left out is open. */
export interface JournalPeriod {
  from?: number;
  to?: number;
}

/** The sort key past every journal entry's. */
const JOURNAL_END = `${JOURNAL_PREFIX}~`;

/**
 * The register's journal entries created in `period`, without their keys, in sequence order, read a page at a time as
 * the caller goes on. With `from`, one Query of the hour markers from `from`'s hour to `to`'s finds the first hour
 * there that has entries, and the journal is read from that hour's first sequence; without, from the first entry. With
 * `to`, a Query of the first marker after `to`'s hour (in the same round) ends the read before that hour's first
 * sequence. The read skips entries before `from` and ends at the first after `to`; its pages grow from
 * `PERIOD_FIRST_PAGE` entries, so what it reads past the period is at most about what it read of it, plus an hour.
 *
 * It misses nothing: `created` never decreases along the sequence (`chainEvents`), so the entries of a period are one
 * run of the journal, and every entry before an hour's first entry was created in an earlier hour; every hour that has
 * entries has its marker (the write that starts an hour writes it), so the first marker from `from`'s hour on names an
 * entry at or before the period's first, and the first marker after `to`'s hour names an entry after its last. No
 * marker in the period's hours: no entry was created in it.
 */
export async function* journalPeriod(register: Register, period: JournalPeriod): AsyncGenerator<JournalEntry> {
  const { from, to } = period;
  if (from !== undefined && to !== undefined && from > to) return;
  const { sellerId, cash } = register;
  const [first, after] = await Promise.all([
    from === undefined ? undefined : firstMarker(register, journalHour(from), to === undefined ? undefined : journalHour(to)),
    to === undefined ? undefined : firstMarker(register, journalHour(to) + 1, undefined),
  ]);
  if (from !== undefined && !first) return;
  const low = first ? registerKeys.journalEntry(sellerId, cash, first.sequence).sk : JOURNAL_PREFIX;
  const high = after ? registerKeys.journalEntry(sellerId, cash, after.sequence - 1).sk : JOURNAL_END;
  const items = queryEach<JournalEntry>(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':pk': registerPk(sellerId, cash), ':low': low, ':high': high },
    },
    PERIOD_FIRST_PAGE,
  );
  for await (const { pk, sk, ...entry } of items) {
    if (from !== undefined && entry.created < from) continue;
    if (to !== undefined && entry.created > to) return;
    yield entry;
  }
}

/** The first page of a period's read: a day of a register selling 150 receipts holds about a thousand entries. */
const PERIOD_FIRST_PAGE = 100;

/** The register's first hour marker from hour `low` on (to `high`, when given): one consistent Query of one item. */
async function firstMarker(register: Register, low: number, high: number | undefined): Promise<JournalHourMarker | undefined> {
  const { sellerId, cash } = register;
  const markers = await queryItems({
    TableName: table(),
    ConsistentRead: true,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
    ExpressionAttributeValues: {
      ':pk': registerPk(sellerId, cash),
      ':low': registerKeys.journalHour(sellerId, cash, low).sk,
      ':high': registerKeys.journalHour(sellerId, cash, high ?? Number.MAX_SAFE_INTEGER).sk,
    },
    Limit: 1,
  });
  return markers.Items?.[0] as JournalHourMarker | undefined;
}

/** A page of a register's journal entries, without their keys. */
export async function readJournalPage(register: Register, page: KeyPage): Promise<JournalEntry[]> {
  const entries = await readPage<JournalEntry>(registerPk(register.sellerId, register.cash), JOURNAL_PREFIX, page);
  return entries.map(({ pk, sk, ...entry }) => entry);
}

/** A register writing its records, and the activation it writes under (whose control unit signs its receipts). */
export interface Writer extends Register {
  activationId: number;
}

/**
 * The register writing (docs/conventions.md §14), in one place for every route that writes a register's records: the
 * caller's own activation. A path naming the seller and the register has been matched to it by the route's access
 * rule; a path naming neither (v15's seller-wide paths, the kd of v15 and v26) means it. Users write no register's
 * records: 403.
 */
export function writerOf(principal: Principal | undefined): Writer {
  if (principal?.kind !== 'activation') throw insufficientRights();
  return { sellerId: principal.sellerId, cash: principal.cashRegisterName, activationId: principal.activationId };
}

export const SALE = 'SALE' as const;
export const DAY = 'DAY' as const;

/** The register's version stream: its sales and days (docs/conventions.md §14), in its own partition. */
export const registerStream = ({ sellerId, cash }: Register): Stream => ({
  partition: { pk: registerPk(sellerId, cash) },
  counter: registerKeys.counter(sellerId, cash),
  missing: () => referenceNotFound(`No register ${cash}`),
});

export const saleKey = (register: Register, identifier: string): Key<Stored<Sale>> =>
  streamEntity<Sale>(registerStream(register), SALE, identifier);

/** Day numbers are padded in the key, so the days of a register list in their order. */
export const dayKey = (register: Register, dayNumber: number): Key<Stored<DayRecord>> =>
  streamEntity<DayRecord>(registerStream(register), DAY, pad(dayNumber));

/** The most registers a process remembers the latest day of; past it, it starts again. */
const REMEMBERED_REGISTERS = 1000;
/**
 * Each register's latest day number as this process last saw it in the register's counter (a write decided, a read of
 * the counter): what `latestDayAhead` guesses.
 */
const latestDays = new Map<string, number>();

/** Keeps the latest day a register's ledger names, for the register's next request's read ahead. */
export function rememberLatestDay(register: Register, ledger: Pick<Ledger, 'day'> | undefined): void {
  if (!ledger?.day) return;
  if (latestDays.size >= REMEMBERED_REGISTERS) latestDays.clear();
  latestDays.set(registerPk(register.sellerId, register.cash), ledger.day.dayNumber);
}

/** The register's latest day as this process last saw it (none: not seen), for a route's `readAhead`. */
export function latestDayAhead(register: Register): Key[] {
  const day = latestDays.get(registerPk(register.sellerId, register.cash));
  return day === undefined ? [] : [dayKey(register, day)];
}

/**
 * What a fiscal write of the register reads first (`writeLedger`), for a route's `readAhead`: its counter, the latest
 * day this process saw in it (a new day since is read when the counter names it), and what is kept under the request's
 * `Idempotency-Key`.
 */
export function ledgerReadsAhead(register: Register, idempotencyKey: string | undefined): Key[] {
  return [
    registerKeys.counter(register.sellerId, register.cash),
    ...latestDayAhead(register),
    ...(idempotencyKey === undefined ? [] : [keptAnswerKey(register.sellerId, register.cash, idempotencyKey)]),
  ];
}

/**
 * The register's days whose version v satisfies from < v <= to (docs/conventions.md §7), in version order. A closed day
 * is in the version index; the open day is not (every sale rewrites it, and moving its index entry each time cost a
 * delete and a put): the counter, read just before, names it, and it is read by key. It comes last, as no earlier day
 * changes once it opened (a day opens only after the last one's Z report is printed). A day stored open before it left
 * the index may be found both ways until its next write: it is shown once.
 */
export async function readDaysDiff(
  register: Register,
  range: { from: number; to: number },
  counter: RegisterCounter,
): Promise<Stored<DayRecord>[]> {
  const latest = counter.ledger?.day;
  const [indexed, open] = await Promise.all([
    readDiff<DayRecord>(registerStream(register), DAY, range, counter),
    latest?.opened ? readItem(dayKey(register, latest.dayNumber)) : undefined,
  ]);
  if (!open || open.version <= range.from || open.version > range.to) return indexed;
  return [...indexed.filter((day) => day.dayNumber !== open.dayNumber), open];
}

/** What a fiscal write is decided on: the register's version and ledger, and its latest day as stored. */
export interface LedgerState {
  version: number;
  ledger: Ledger;
  day: Stored<DayRecord> | undefined;
}

/** An entity of the register's stream a write puts, stamped with the write's version. */
export interface LedgerEntity {
  kind: typeof SALE | typeof DAY;
  key: Key<Stored<unknown>>;
  /** The entity as read (undefined: new): the put commits only over it. */
  seen: Stored<unknown> | undefined;
  data: object;
  /** False: no version-index entry (the open day, which `readDaysDiff` reads by key); absent: indexed. */
  indexed?: boolean;
}

/** What a fiscal write decides. No entities and no events: nothing is written (an idempotent replay). */
export interface LedgerDecision<R> {
  result: R;
  entities: readonly LedgerEntity[];
  /** The ledger after the write; its journal head is the write's own to set. */
  ledger: Omit<Ledger, 'journal'>;
  /** What happened, appended to the journal in this order (docs/conventions.md §19). */
  events: readonly JournalEvent[];
  alongside?: readonly Step[];
}

/** An item of the write's read, by its key. */
export type Reader = <T>(key: Key<T>) => Item<T> | undefined;

export interface LedgerWrite<R> {
  register: Register;
  apiVersion: ApiVersion;
  /** Items the decision needs besides the ledger and the latest day (the sale written, ...), read with the counter. */
  reads: readonly Key[];
  /**
   * Items whose keys depend on what the first read found (a receipt number's kd claim): read after it, in one
   * BatchGet with the latest day; none (the usual case) leaves that read a GetItem of the day.
   */
  laterReads?(ledger: Ledger, read: Reader): readonly Key[];
  /**
   * May read more (a close reads its day's sales; a print awaits the receipt context read beside the ledger's): it runs
   * again, on a fresh read, whenever the write is retried.
   */
  decide(state: LedgerState, read: Reader, now: number): LedgerDecision<R> | Promise<LedgerDecision<R>>;
}

/**
 * Decides and commits one fiscal write on a fresh read: the counter and the items asked for in one
 * strongly consistent BatchGet, then the latest day; the counter, the entities, the journal entries
 * and the decision's own steps in one transaction, conditioned on the counter's version. A concurrent
 * write of the same register makes it decide again on what that write left (bounded retries).
 */
export function writeLedger<R>(write: LedgerWrite<R>): Promise<R> {
  const counterKey = registerKeys.counter(write.register.sellerId, write.register.cash);
  return commit(async () => {
    const items = await readItems<unknown>([counterKey, ...write.reads]);
    const read: Reader = <T>(key: Key<T>) =>
      items.find((item) => item.pk === key.pk && item.sk === key.sk) as Item<T> | undefined;
    const counter = read(counterKey);
    const ledger = counter?.ledger ?? EMPTY_LEDGER;
    const latest = ledger.day ? dayKey(write.register, ledger.day.dayNumber) : undefined;
    const later = write.laterReads?.(ledger, read) ?? [];
    let day: Stored<DayRecord> | undefined;
    if (later.length === 0) day = latest ? await readItem(latest) : undefined;
    else {
      items.push(...(await readItems<unknown>(latest ? [latest, ...later] : later)));
      day = latest ? read(latest) : undefined;
    }
    const now = Date.now();
    const decision = await write.decide({ version: counter?.ver ?? 0, ledger, day }, read, now);
    // The day this write leaves latest (a first sale opens one), for the register's next write's read ahead.
    rememberLatestDay(write.register, decision.ledger);
    if (decision.entities.length === 0 && decision.events.length === 0) return { steps: [], result: decision.result };
    const next = (counter?.ver ?? 0) + 1;
    const { entries, head } = chainEvents(ledger.journal, decision.events, now);
    const steps: Step[] = [
      {
        write: counterWrite(counterKey, counter, next, write.apiVersion, undefined, {
          ledger: { ...decision.ledger, journal: head },
        }),
      },
      ...decision.entities.flatMap((entity) =>
        entityWrite(
          { entity: entity.key, kind: entity.kind, indexed: entity.indexed },
          entity.seen,
          { ...entity.data, deleted: false },
          next,
          now,
        ).map((item) => ({ write: item })),
      ),
      ...entries.map((entry) =>
        create({ ...registerKeys.journalEntry(write.register.sellerId, write.register.cash, entry.sequence), ...entry }),
      ),
      ...markerSteps(write.register, ledger.journal, entries),
      ...(decision.alongside ?? []),
    ];
    return { steps, result: decision.result };
  }, 'retry-all');
}

/** What a keyed write keeps of its result (none: only the key), and the result a kept answer gives a repeat. */
export interface KeptAs<R> {
  keep?: (result: R) => unknown;
  replay?: (kept: KeptAnswer) => R;
}

/**
 * A write a register may retry under an `Idempotency-Key` (docs/conventions.md §15): the key is read with the counter
 * and kept in the write's own transaction, with what `how.keep` keeps of its result; a repeat answers `how.replay` of
 * it and writes nothing. Without `replay`, a write that its own records make idempotent (a kd's claim): the key is kept
 * without an answer, so that the key with another request is refused, and a repeat decides as the first did. Without
 * a key, a plain `writeLedger`.
 */
export function writeLedgerKeyed<R>(
  write: LedgerWrite<R>,
  idempotency: IdempotencyKey | undefined,
  how: KeptAs<R> = {},
): Promise<R> {
  return writeLedger(idempotency ? keyed(write, idempotency, how) : write);
}

/** The write, guarded by its key: `keep` gives what to keep of a result, `replay` the result a kept answer gives. */
function keyed<R>(write: LedgerWrite<R>, idempotency: IdempotencyKey, how: KeptAs<R>): LedgerWrite<R> {
  const key = keptAnswerKey(write.register.sellerId, write.register.cash, idempotency.key);
  return {
    ...write,
    reads: [...write.reads, key],
    decide: async (state, read, now) => {
      const kept = keptFor(read(key), idempotency, now);
      if (kept && how.replay) return { result: how.replay(kept), entities: [], ledger: state.ledger, events: [] };
      const decision = await write.decide(state, read, now);
      if (kept || (decision.entities.length === 0 && decision.events.length === 0)) return decision;
      const keep = keepStep(key, idempotency, how.keep?.(decision.result), now);
      return { ...decision, alongside: [...(decision.alongside ?? []), keep] };
    },
  };
}

/**
 * A register's days dated `date` or later, newest first, read in pages only as far back as needed: days
 * are dated in their order (docs/conventions.md §17), so the first older day ends the read. `firstPage`
 * is how many days the first page reads (then 32 a page): a caller that expects few reads few.
 */
export async function* daysSince(register: Register, date: number, firstPage = 32): AsyncGenerator<Stored<DayRecord>> {
  let startKey: Record<string, unknown> | undefined;
  let limit = firstPage;
  do {
    const page = await queryItems({
      TableName: table(),
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :day)',
      ExpressionAttributeValues: { ':pk': registerPk(register.sellerId, register.cash), ':day': `${DAY}#` },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: startKey,
    });
    for (const day of (page.Items ?? []) as Stored<DayRecord>[]) {
      if (day.date < date) return;
      yield day;
    }
    startKey = page.LastEvaluatedKey;
    limit = 32;
  } while (startKey);
}

/**
 * The stream version from which a register's records of the days dated `date` or later are found:
 * the version the earliest such day opened at. Undefined when no day is that recent.
 */
export async function versionSince(register: Register, date: number): Promise<number | undefined> {
  let since: number | undefined;
  for await (const day of daysSince(register, date)) since = day.openVersion;
  return since;
}

/**
 * A day's breakdown (per product and per group, `totals.ts`). A day stored with one in its item keeps it complete (any
 * later change of its totals drops it, `withTotals`); else it is folded from the day's sales, a page at a time, by a
 * strongly consistent Query of the version index: every sale write rewrites its day, and a closed day's sales never
 * change (a copy printed later leaves them as they are), so the day's sales are the ones whose versions run from its
 * `openVersion` to its own version. A day's first sale may open it (one version), so the
 * range starts there.
 */
export async function readDayBreakdown(register: Register, day: Stored<DayRecord>): Promise<Breakdown> {
  if (day.totals.products) return { products: day.totals.products, groups: day.totals.groups ?? {} };
  if (day.productPieces !== undefined && day.totals.groups) {
    const pieces = Array.from({ length: day.productPieces }, (_, piece) =>
      registerKeys.dayProducts(register.sellerId, register.cash, day.dayNumber, piece),
    );
    const read = await readItems(pieces);
    return {
      products: Object.assign({}, ...read.map((piece) => piece.products)) as Breakdown['products'],
      groups: day.totals.groups,
    };
  }
  return breakdownOf(
    eachVersion<Sale>(
      registerPk(register.sellerId, register.cash),
      SALE,
      { from: day.openVersion - 1, to: day.version },
      {
        FilterExpression: '#day = :day',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':day': day.dayNumber },
      },
    ),
  );
}
