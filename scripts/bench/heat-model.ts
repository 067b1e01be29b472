/**
 * The heat row's model (scripts/bench/heat.ts; docs/decisions.md, "The heat row"): from full Scans of the table taken around
 * each request of a fleet's trading, which partition keys grow and take writes, per key shape, and what one key of
 * each shape would hold and take at the fleet's size. Pure: it knows the table only through the scanned items and
 * its description (DescribeTable), never the service's key builders, so it cannot share the layout's assumptions.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** The fleet one table must carry (docs/decisions.md, "The heat row"). */
export const FLEET = {
  registers: 100_000,
  /** Receipts a register a day, on a usual day and at a busy register. */
  receiptsPerDay: 150,
  busyReceiptsPerDay: 1_000,
  /** Receipts a register an hour at the peak. */
  peakReceiptsPerHour: 40,
  /** Registers of one seller (a chain). */
  chainRegisters: 500,
  /** How long the records are kept (bokföringslagen 7 kap. 2 §). */
  years: 7,
} as const;

export type Fleet = typeof FLEET;

/** The real engine's limits the row holds the layout to. */
export const LIMITS = {
  /** An item collection's most while the table has an LSI. */
  collectionBytes: 10 * 1024 ** 3,
  /** A third of one partition's 1,000 WCU a second. */
  peakWcu: 300,
} as const;

/** DynamoDB's overhead of one LSI entry, beside its keys and projected attributes. */
export const INDEX_ENTRY_OVERHEAD = 100;
const KB = 1024;
/** A transactional write is charged twice (prepare and commit); the row assumes every write is one. */
export const TRANSACTIONAL = 2;

export type StoredItem = Record<string, AttributeValue>;
/** A full Scan: every item by its table key. */
export type Snapshot = ReadonlyMap<string, StoredItem>;

/** An LSI as DescribeTable gives it: its sort key's attribute and what it projects. */
export interface Index {
  name: string;
  sortKey: string;
  projection: { type: 'ALL' } | { type: 'KEYS_ONLY' } | { type: 'INCLUDE'; attributes: readonly string[] };
}

/** The table as DescribeTable gives it: its key attributes and its LSIs. */
export interface TableShape {
  partitionKey: string;
  sortKey: string;
  indexes: readonly Index[];
}

/** A register that trades: its seller's id and its name. */
export interface Register {
  seller: string;
  cash: string;
}

/** Who made a request: the register, and whether the request closes or reports its day (once a day, not a sale). */
export interface Requester {
  register: Register;
  daily: boolean;
}

/** One item written by a register's request, as two Scans show it. */
export interface Write extends Requester {
  pk: string;
  /** The item is new (it was not in the Scan before). */
  created: boolean;
  /** The growth of the item collection: the item and its LSI entries after, less before (negative for a delete). */
  bytes: number;
  /** Its write units: ceil(KB) of the larger image, transactional. */
  units: number;
}

// ---- Sizes (DynamoDB's rules) ----------------------------------------------------------------------

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** The values by their key, in the order first seen (Map.groupBy is ES2024, beyond the project's lib). */
function groupBy<T>(values: readonly T[], keyOf: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
const utf8 = (text: string) => Buffer.byteLength(text);

/** A number: 1 byte per 2 significant digits (leading and trailing zeros trimmed), + 1. */
function numberSize(text: string): number {
  const mantissa = (text.toLowerCase().split('e')[0] ?? '').replace(/[-+.]/g, '');
  const digits = mantissa.replace(/^0+/, '').replace(/0+$/, '').length;
  return Math.ceil(Math.max(1, digits) / 2) + 1;
}

/** An attribute value's size: string = UTF-8 bytes, binary = its bytes, map/list = 3 + contents + 1 per element. */
export function attributeSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return sum(value.SS.map(utf8));
  if (value.NS !== undefined) return sum(value.NS.map(numberSize));
  if (value.BS !== undefined) return sum(value.BS.map((bytes) => bytes.byteLength));
  if (value.M !== undefined) return 3 + sum(Object.entries(value.M).map(([name, v]) => utf8(name) + attributeSize(v) + 1));
  if (value.L !== undefined) return 3 + sum(value.L.map((element) => attributeSize(element) + 1));
  throw new Error(`No size rule for the attribute value ${JSON.stringify(value)}`);
}

const attributesSize = (item: StoredItem, names: readonly string[]) =>
  sum(names.map((name) => (item[name] === undefined ? 0 : utf8(name) + attributeSize(item[name]))));

/** An item's size: the sum over its attributes of name length + value size. */
export const itemSize = (item: StoredItem): number => attributesSize(item, Object.keys(item));

/**
 * The item's entry in `index` (0 when it lacks the index's sort key: the index is sparse): its projected attributes,
 * the table's and the index's keys among them, + 100 bytes.
 */
export function indexEntrySize(item: StoredItem, index: Index, table: TableShape): number {
  if (item[index.sortKey] === undefined) return 0;
  const { projection } = index;
  const keys = [table.partitionKey, table.sortKey, index.sortKey];
  const projected =
    projection.type === 'ALL' ? Object.keys(item) : [...keys, ...(projection.type === 'INCLUDE' ? projection.attributes : [])];
  return attributesSize(item, [...new Set(projected)]) + INDEX_ENTRY_OVERHEAD;
}

/** What the item takes of its item collection: itself and its LSI entries. */
export const collectionSize = (item: StoredItem | undefined, table: TableShape): number =>
  item === undefined ? 0 : itemSize(item) + sum(table.indexes.map((index) => indexEntrySize(item, index, table)));

const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));

// ---- Writes: two Scans compared ----------------------------------------------------------------------

/** A value in one spelling whatever the order of its attributes and set members. */
function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, member]) => member !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, member]) => `${JSON.stringify(name)}:${isSet(name) ? canonicalSet(member) : canonical(member)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
const isSet = (name: string) => name === 'SS' || name === 'NS' || name === 'BS';
const canonicalSet = (members: unknown) => canonical(Array.isArray(members) ? members.map(canonical).sort() : members);

/**
 * The writes a request made, as the Scans before and after it show them: every item that is new, changed or gone.
 * An item the request wrote twice (or wrote back unchanged) shows once (or not): a lower bound.
 */
export function writesBetween(before: Snapshot, after: Snapshot, table: TableShape, by: Requester): Write[] {
  const writes: Write[] = [];
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(id);
    const now = after.get(id);
    if (old !== undefined && now !== undefined && canonical(old) === canonical(now)) continue;
    const pk = (now ?? old)?.[table.partitionKey]?.S ?? '';
    writes.push({
      ...by,
      pk,
      created: old === undefined,
      bytes: collectionSize(now, table) - collectionSize(old, table),
      units: TRANSACTIONAL * writeUnits(Math.max(old ? itemSize(old) : 0, now ? itemSize(now) : 0)),
    });
  }
  return writes;
}

// ---- Shapes: concrete keys named by what varies in them ----------------------------------------------

/** The ids the row made, which name a key's shape. */
export interface Known {
  sellers: readonly string[];
  cashes: readonly string[];
  serials: readonly string[];
  vendors: readonly string[];
}

const PLACEHOLDER = /(<[a-z]+>)/;
/** A generated token (a hash, a UUID, a base64url link): 16 characters or more of an id's alphabet. */
const TOKEN = /[A-Za-z0-9_-]{16,}/g;
/** What may vary between keys of one shape: a run of digits and lowercase hex (upper case stays the key's text). */
const RUN = /([0-9a-f]+)/;
const VARIES = '<n>';

/** The key with the known ids and generated tokens named: parts of fixed text and runs that may vary. */
function partsOf(pk: string, known: Known): { text: string; run: boolean }[] {
  const named = [
    ...known.sellers.map((id) => [id, '<seller>'] as const),
    ...known.cashes.map((id) => [id, '<cash>'] as const),
    ...known.serials.map((id) => [id, '<serial>'] as const),
  ]
    // The longest first: one id may hold another.
    .sort(([a], [b]) => b.length - a.length)
    .reduce((key, [id, name]) => key.split(id).join(name), pk)
    .replace(TOKEN, VARIES);
  // split() with a group keeps the separators, at the odd indexes.
  const parts = named
    .split(PLACEHOLDER)
    .flatMap((piece, at) =>
      at % 2 === 1 ? [{ text: piece, run: false }] : piece.split(RUN).map((text, inner) => ({ text, run: inner % 2 === 1 })),
    );
  return parts.filter((part) => part.text !== '');
}

/**
 * Each partition key's shape: the known ids replaced by `<seller>`, `<cash>`, `<serial>`, generated tokens by `<n>`,
 * and among keys alike but for their runs of digits/hex, each run that differs between them by `<n>`; a run that
 * does not vary and is the known vendor's id becomes `<vendor>` (a vendor's id is a small number: only where no
 * other number varies).
 */
export function shapesOf(pks: readonly string[], known: Known): Map<string, string> {
  const parted = [...new Set(pks)].map((pk) => ({ pk, parts: partsOf(pk, known) }));
  const skeleton = (parts: readonly { text: string; run: boolean }[]) =>
    parts.map((part) => (part.run ? '\u0000' : part.text)).join('');
  const groups = groupBy(parted, ({ parts }) => skeleton(parts));
  const shapes = new Map<string, string>();
  for (const members of groups.values()) {
    const first = members[0]?.parts ?? [];
    const varies = first.map((_, at) => new Set(members.map(({ parts }) => parts[at]?.text)).size > 1);
    for (const { pk, parts } of members) {
      const named = parts.map((part, at) =>
        !part.run ? part.text : varies[at] ? VARIES : known.vendors.includes(part.text) ? '<vendor>' : part.text,
      );
      shapes.set(pk, named.join(''));
    }
  }
  return shapes;
}

// ---- Scope: what one key serves ----------------------------------------------------------------------

export type Scope = 'register' | 'chain' | 'fleet';

/** The registers one key of a scope serves at the fleet's size. */
export const scopeRegisters = (scope: Scope, fleet: Fleet = FLEET): number =>
  scope === 'register' ? 1 : scope === 'chain' ? fleet.chainRegisters : fleet.registers;

const registerId = ({ seller, cash }: Register) => `${seller}/${cash}`;

/** One register wrote to it: the register's; registers of one seller: a chain's; of several sellers: the fleet's. */
export function scopeOf(writers: readonly Register[]): Scope {
  if (new Set(writers.map(registerId)).size <= 1) return 'register';
  return new Set(writers.map(({ seller }) => seller)).size === 1 ? 'chain' : 'fleet';
}

const WIDTH: Record<Scope, number> = { register: 0, chain: 1, fleet: 2 };

// ---- Figures per shape -------------------------------------------------------------------------------

/** A register's sales and days in the trading the writes come from. */
export interface Trading {
  register: Register;
  sales: number;
  days: number;
}

/** What one key takes: bytes of its item collection, new items, writes, write units. */
export interface Growth {
  bytes: number;
  newItems: number;
  writes: number;
  units: number;
}

/**
 * One key of a shape, per sale and per day (its close and report) of the registers it serves, averaged over the keys
 * of the shape written.
 */
export interface ShapeFigures {
  shape: string;
  /** The widest scope of its keys. */
  scope: Scope;
  keys: number;
  perSale: Growth;
  perDay: Growth;
}

/** A growth made field by field. */
const growthFrom = (value: (field: keyof Growth) => number): Growth => ({
  bytes: value('bytes'),
  newItems: value('newItems'),
  writes: value('writes'),
  units: value('units'),
});

/** The writes' growth per one of `count` sales or days (none: nothing). */
function growthOf(writes: readonly Write[], count: number): Growth {
  const totals: Growth = {
    bytes: sum(writes.map((write) => write.bytes)),
    newItems: writes.filter((write) => write.created).length,
    writes: writes.length,
    units: sum(writes.map((write) => write.units)),
  };
  return growthFrom((field) => (count === 0 ? 0 : totals[field] / count));
}

const meanOf = (growths: readonly Growth[]): Growth =>
  growthFrom((field) => sum(growths.map((growth) => growth[field])) / growths.length);

/**
 * Per shape written: its scope and what one key takes per sale and per day. A key's writes by sales (and by days'
 * closes and reports) are divided by the sales (the days) of the registers it serves at the shape's scope (its
 * register, its seller's registers, all of them), then averaged over the shape's keys that were written.
 */
export function shapeFigures(
  writes: readonly Write[],
  trading: readonly Trading[],
  shapes: ReadonlyMap<string, string>,
): ShapeFigures[] {
  const byShape = groupBy(writes, ({ pk }) => shapes.get(pk) ?? pk);
  return [...byShape].map(([shape, shapeWrites]) => {
    const byKey = [...groupBy(shapeWrites, ({ pk }) => pk).values()];
    const scope = byKey
      .map((keyWrites) => scopeOf(keyWrites.map(({ register }) => register)))
      .reduce((widest, scope) => (WIDTH[scope] > WIDTH[widest] ? scope : widest), 'register');
    const perKey = byKey.map((keyWrites) => {
      const writers = new Set(keyWrites.map(({ register }) => registerId(register)));
      const sellers = new Set(keyWrites.map(({ register }) => register.seller));
      const serves = ({ register }: Trading) =>
        scope === 'fleet' || (scope === 'chain' ? sellers.has(register.seller) : writers.has(registerId(register)));
      const served = trading.filter(serves);
      return {
        perSale: growthOf(
          keyWrites.filter((write) => !write.daily),
          sum(served.map(({ sales }) => sales)),
        ),
        perDay: growthOf(
          keyWrites.filter((write) => write.daily),
          sum(served.map(({ days }) => days)),
        ),
      };
    });
    return {
      shape,
      scope,
      keys: byKey.length,
      perSale: meanOf(perKey.map((key) => key.perSale)),
      perDay: meanOf(perKey.map((key) => key.perDay)),
    };
  });
}

/** One key's figures per sale on a day of `receipts` receipts: the sale's, and its day's spread over them. */
export const perSaleAt = (figures: ShapeFigures, receipts: number): Growth =>
  growthFrom((field) => figures.perSale[field] + figures.perDay[field] / receipts);

/** One key of a shape at the fleet's size, and the limits it breaks. */
export interface FleetFigures {
  registers: number;
  /** Days until one key's item collection holds 10 GB, usual and busy; undefined when the table has no LSI. */
  daysToLimit: { usual: number; busy: number } | undefined;
  peakWcu: number;
  peakItems: number;
  failures: string[];
}

/**
 * A key serving N registers grows bytes a sale (its day's spread over the day's receipts) x N x receipts a register a
 * day, and takes write units a sale (on a usual day) x N x receipts a register an hour at the peak / 3,600 a second. It
 * fails when it reaches 10 GB within the years kept at a busy register's receipts (while the table has an LSI), or
 * takes more than 300 WCU a second at the peak.
 */
export function fleetFigures(figures: ShapeFigures, hasIndex: boolean, fleet: Fleet = FLEET): FleetFigures {
  const registers = scopeRegisters(figures.scope, fleet);
  const days = (receipts: number) => {
    const daily = perSaleAt(figures, receipts).bytes * registers * receipts;
    return daily > 0 ? LIMITS.collectionBytes / daily : Infinity;
  };
  const daysToLimit = hasIndex ? { usual: days(fleet.receiptsPerDay), busy: days(fleet.busyReceiptsPerDay) } : undefined;
  const usual = perSaleAt(figures, fleet.receiptsPerDay);
  const perSecond = (perSale: number) => (perSale * registers * fleet.peakReceiptsPerHour) / 3600;
  const peakWcu = perSecond(usual.units);
  const failures = [
    ...(daysToLimit && daysToLimit.busy < fleet.years * 365
      ? [
          `10 GB in ${Math.round(daysToLimit.busy).toLocaleString('en')} days at ${fleet.busyReceiptsPerDay.toLocaleString('en')} a day`,
        ]
      : []),
    ...(peakWcu > LIMITS.peakWcu ? [`${Math.round(peakWcu).toLocaleString('en')} WCU/s at the peak`] : []),
  ];
  return { registers, daysToLimit, peakWcu, peakItems: perSecond(usual.newItems), failures };
}
