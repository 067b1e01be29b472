/**
 * The heat row (`BENCH_ONLY=heat npm run bench`; docs/decisions.md, "The heat row"): a fleet in small trades on DynamoDB
 * Local, then the table itself says which partition keys would outgrow the real engine. One software vendor's
 * application that needs a control unit; SELLERS sellers with REGISTERS registers each, every register activated on
 * a control unit of its own (the local broker, edge bridge and simulator, as the kd rows run them); each register
 * trades DAYS days of SALES sales: the day opened; each sale posted, signed (kd), its receipt printed with the control
 * code; the day closed and its Z report printed. A full Scan after setup and after every request shows what each request wrote; the
 * model (scripts/bench/heat-model.ts) groups the keys into shapes from the Scans alone and projects one key of each
 * shape to the fleet. The row fails when a shape breaks either limit.
 */
import { randomUUID } from 'node:crypto';
import { type AttributeValue, DescribeTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { Caller, Operation } from '../bench.ts';
import {
  FLEET,
  fleetFigures,
  type Index,
  INDEX_ENTRY_OVERHEAD,
  LIMITS,
  perSaleAt,
  type Register,
  type ShapeFigures,
  shapeFigures,
  shapesOf,
  type Snapshot,
  type StoredItem,
  type TableShape,
  type Trading,
  TRANSACTIONAL,
  type Write,
  writesBetween,
} from './heat-model.ts';
import type { KdKit } from './kd.ts';
import { table } from './stats.ts';

/** The sellers of the vendor's application (valid Swedish corporate ids), their registers, and each one's trading. */
const SELLERS = ['5560360835', '5560360843', '5560360850'];
const REGISTERS = 2;
const DAYS = 3;
const SALES = 3;
const APPLICATION = 'se.example.bench.heat';

/** A Paid cash sale of 2 lines at 25 % and 12 % VAT, unprinted, and its kd body's VAT per rate (whole percent). */
const sale = () => ({
  identifier: randomUUID(),
  sellerIdentifier: 'Anna',
  saleState: 'Paid',
  refund: false,
  refundFor: null,
  brutto: 23_700,
  vat: 3700,
  saleProducts: [
    {
      productIdentifier: 'kaffe',
      name: 'Kaffe',
      deltaUnit: true,
      delta: 1,
      vat: 2500,
      netto: 10_000,
      brutto: 12_500,
      vatRate: 25,
    },
    {
      productIdentifier: 'macka',
      name: 'Smörgås',
      deltaUnit: true,
      delta: 1,
      vat: 1200,
      netto: 10_000,
      brutto: 11_200,
      vatRate: 12,
    },
  ],
  payments: [{ paymentType: 'Cash', amount: 23_700 }],
  vatRateSums: [
    { vatRate: 2500, vat: 2500, netto: 10_000, brutto: 12_500 },
    { vatRate: 1200, vat: 1200, netto: 10_000, brutto: 11_200 },
  ],
  prints: [] as { printType: string; receiptNumber: number; controlNumber: string }[],
});
const KD_VAT = { '25': 12_500, '12': 11_200 };

/** A register of the row: who it is, how it calls, its path. */
interface Till {
  register: Register;
  serial: string;
  caller: Caller;
  base: string;
}

/** The table's key attributes and LSIs, as DescribeTable gives them. */
async function describeTable(): Promise<TableShape> {
  const { db, table: tableName } = await import('#shared/db/client.ts');
  const { Table } = await db().send(new DescribeTableCommand({ TableName: tableName() }));
  const keyOf = (type: 'HASH' | 'RANGE', schema = Table?.KeySchema) =>
    schema?.find((key) => key.KeyType === type)?.AttributeName ?? '';
  const indexes = (Table?.LocalSecondaryIndexes ?? []).map(({ IndexName = '', KeySchema, Projection }): Index => ({
    name: IndexName,
    sortKey: keyOf('RANGE', KeySchema),
    projection:
      Projection?.ProjectionType === 'INCLUDE'
        ? { type: 'INCLUDE', attributes: Projection.NonKeyAttributes ?? [] }
        : { type: Projection?.ProjectionType === 'KEYS_ONLY' ? 'KEYS_ONLY' : 'ALL' },
  }));
  return { partitionKey: keyOf('HASH'), sortKey: keyOf('RANGE'), indexes };
}

/** Every item of the table, by its key: a consistent Scan, page after page. */
async function scanTable(shape: TableShape): Promise<Snapshot> {
  const { db, table: tableName } = await import('#shared/db/client.ts');
  const items = new Map<string, StoredItem>();
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      items.set(`${item[shape.partitionKey]?.S ?? ''}\u0000${item[shape.sortKey]?.S ?? ''}`, item);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

type Invoke = KdKit['invoke'];

/**
 * Setup through the service's routes: the vendor, its application (a control unit required), the sellers, and each
 * register activated on a unit of its own, which `startUnit` starts first.
 */
async function openShops(
  invoke: Invoke,
  startUnit: (serial: string) => Promise<void>,
): Promise<{ vendor: number; tills: Till[] }> {
  const [vendors, sellers, activations] = await Promise.all([
    import('#functions/vendors/handler.ts'),
    import('#functions/sellers/handler.ts'),
    import('#functions/activations/handler.ts'),
  ]);
  const { body } = await invoke(vendors.handler, 'POST', '/v33/software-vendors', 201, { name: 'Heat AB' });
  const vendor = (body as { id: number }).id;
  await invoke(vendors.handler, 'POST', '/v33/application-descriptions', 201, {
    applicationPackage: APPLICATION,
    productionNumberPrefix: 'HT',
    controlUnitRequired: true,
    name: 'Heat',
    softwareVendor: vendor,
    autoActivationCondition: 'NO_FEATURES',
    corporateIdValidationMethod: 'NONE',
  });
  const tills: Till[] = [];
  for (const [s, corporateId] of SELLERS.entries()) {
    const seller = `SE${corporateId}`;
    const profile = { corporateId, country: 'SE', publicAccess: true, workHoursWeek: {} };
    await invoke(sellers.handler, 'PUT', `/v33/sellers/${seller}`, 201, profile);
    for (let r = 1; r <= REGISTERS; r++) {
      const cash = `Heat-till-${r}`;
      const serial = `HEATCU${String(s * REGISTERS + r).padStart(10, '0')}`;
      await startUnit(serial);
      const activated = await invoke(activations.handler, 'POST', '/v33/activations-advanced', 201, {
        country: 'SE',
        corporateId,
        companyName: `Heat ${s + 1}`,
        cashRegisterName: cash,
        features: [],
        validFrom: Date.now() - 86_400_000,
        validTo: Date.now() + 365 * 86_400_000,
        applicationPackage: APPLICATION,
        controlUnitSerial: serial,
        controlUnitLocation: 'DEVICE',
        controlUnitGeolocation: { city: 'Malmö', postalCode: '211 20' },
        installationCreationInfo: { deviceId: randomUUID().slice(0, 16), buildInfo: { os: 'heat' }, programVersion: '1.0' },
      });
      const { apiKey } = activated.body as { apiKey: string };
      tills.push({
        register: { seller, cash },
        serial,
        caller: { 'x-api-key': apiKey },
        base: `/v33/${seller}/registrations/${cash}`,
      });
    }
  }
  return { vendor, tills };
}

/**
 * Each register's trading, one register after another, a full Scan after setup and after every request: what changed
 * between two Scans is what that register's request wrote. Answers the writes, each register's sales and days, every
 * partition key the Scans saw, and the requests made.
 */
async function trade(invoke: Invoke, tills: readonly Till[], shape: TableShape) {
  const [fiscal, kd] = await Promise.all([import('#functions/fiscal/handler.ts'), import('#functions/kd/handler.ts')]);
  let snapshot = await scanTable(shape);
  const pks = new Set<string>();
  const writes: Write[] = [];
  let requests = 0;
  const step = async <T>(till: Till, request: () => Promise<T>, daily = false): Promise<T> => {
    const answer = await request();
    const after = await scanTable(shape);
    writes.push(...writesBetween(snapshot, after, shape, { register: till.register, daily }));
    for (const item of [...snapshot.values(), ...after.values()]) pks.add(item[shape.partitionKey]?.S ?? '');
    snapshot = after;
    requests++;
    return answer;
  };
  const trading: Trading[] = [];
  for (const till of tills) {
    const { register, base, caller } = till;
    let receipt = 0;
    for (let day = 1; day <= DAYS; day++) {
      await step(till, () => invoke(fiscal.handler, 'POST', `/v33/${register.seller}/days`, 201, {}, caller), true);
      for (let n = 1; n <= SALES; n++) {
        const paid = sale();
        await step(till, () => invoke(fiscal.handler, 'POST', `${base}/sales`, 201, paid, caller));
        receipt++;
        const kdBody = { vatRateToSum: KD_VAT, refund: false, printType: 'Normal', receiptNumber: receipt, date: Date.now() };
        const kdPath = `/v33/${register.seller}/registration/${register.cash}/kd`;
        const signed = await step(till, () => invoke(kd.handler, 'POST', kdPath, 201, kdBody, caller));
        const controlNumber = (signed.body as { response: string }).response;
        const printed = { ...paid, prints: [{ printType: 'Normal', receiptNumber: receipt, controlNumber }] };
        await step(till, () => invoke(fiscal.handler, 'PUT', `${base}/sales`, 204, printed, caller));
      }
      await step(till, () => invoke(fiscal.handler, 'POST', `${base}/days/current`, 201, undefined, caller), true);
      await step(till, () => invoke(fiscal.handler, 'POST', `${base}/days/${day}/report`, 201, undefined, caller), true);
    }
    trading.push({ register, sales: receipt, days: DAYS });
  }
  return { writes, trading, pks, requests };
}

/** The row: it prints its table and fails (throws) when a shape breaks a limit. */
export async function measureHeat(invoke: Invoke): Promise<{ operations: Operation[]; summary: string[] }> {
  const started = performance.now();
  const [{ startBroker }, { startKdRules }, { startLocalUnit }] = await Promise.all([
    import('#infra/local/broker.ts'),
    import('#infra/local/kd-rules.ts'),
    import('#infra/local/stack.ts'),
  ]);
  const broker = await startBroker(Number(new URL(process.env.MQTT_URL ?? '').port));
  const quiet = () => undefined;
  const rules = await startKdRules(broker.url, quiet);
  const units: Awaited<ReturnType<typeof startLocalUnit>>[] = [];
  try {
    const { vendor, tills } = await openShops(invoke, async (serial) => {
      units.push(await startLocalUnit(serial, broker.url, { log: quiet }));
    });
    const shape = await describeTable();
    const { writes, trading, pks, requests } = await trade(invoke, tills, shape);
    const known = {
      sellers: SELLERS.map((corporateId) => `SE${corporateId}`),
      cashes: [...new Set(tills.map(({ register }) => register.cash))],
      serials: tills.map(({ serial }) => serial),
      vendors: [String(vendor)],
    };
    const figures = shapeFigures(writes, trading, shapesOf([...pks], known));
    const lines = heatReport(figures, shape, { requests, seconds: (performance.now() - started) / 1000 });
    const failing = figures.filter((figure) => fleetFigures(figure, shape.indexes.length > 0).failures.length > 0);
    if (failing.length > 0) {
      console.log(lines.join('\n'));
      throw new Error(`heat: ${failing.map((figure) => figure.shape).join(', ')} break the fleet's limits (the table above)`);
    }
    return { operations: [], summary: lines };
  } finally {
    for (const unit of units) await unit.stop();
    await rules.stop();
    await broker.stop();
  }
}

const fixed = (value: number, digits: number) =>
  value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
/** Days, with years beside them; past a thousand years only that. */
const days = (value: number) =>
  value / 365 > 1000 ? '> 1,000 y' : Number.isFinite(value) ? `${fixed(value, 0)} (${fixed(value / 365, 1)} y)` : 'never';

/** The row's table, one line per shape (the most WCU at the peak first, then the fastest growing), and its legend. */
function heatReport(figures: readonly ShapeFigures[], shape: TableShape, run: { requests: number; seconds: number }): string[] {
  const hasIndex = shape.indexes.length > 0;
  const rows = figures
    .map((figure) => ({ figure, fleet: fleetFigures(figure, hasIndex) }))
    .map((row) => ({ ...row, usual: perSaleAt(row.figure, FLEET.receiptsPerDay) }))
    .sort((a, b) => b.fleet.peakWcu - a.fleet.peakWcu || b.usual.bytes - a.usual.bytes);
  const header = [
    'partition key shape',
    'one key serves',
    'keys',
    'bytes / sale',
    'new items / sale',
    'writes / sale',
    'bytes / day',
    `days to 10 GB at ${FLEET.receiptsPerDay}/day`,
    `at ${FLEET.busyReceiptsPerDay.toLocaleString('en')}/day`,
    'WCU/s at peak',
    'new items/s at peak',
    'verdict',
  ];
  const lines = rows.map(({ figure, fleet, usual }) => [
    figure.shape,
    `${figure.scope} (${fleet.registers.toLocaleString('en')})`,
    String(figure.keys),
    fixed(usual.bytes, 0),
    fixed(usual.newItems, 2),
    fixed(usual.writes, 2),
    fixed(figure.perDay.bytes, 0),
    fleet.daysToLimit ? days(fleet.daysToLimit.usual) : 'n/a (no LSI)',
    fleet.daysToLimit ? days(fleet.daysToLimit.busy) : 'n/a (no LSI)',
    fixed(fleet.peakWcu, 1),
    fixed(fleet.peakItems, 1),
    fleet.failures.length === 0 ? 'PASS' : `FAIL: ${fleet.failures.join('; ')}`,
  ]);
  const indexes = shape.indexes.map(({ name, sortKey, projection }) => `${name} (sort key ${sortKey}, ${projection.type})`);
  return [
    `Heat: ${SELLERS.length} sellers x ${REGISTERS} registers of one vendor, each on a control unit of its own, ${DAYS} days x ${SALES} sales ` +
      `each (${run.requests} requests, a full Scan after each; the row took ${run.seconds.toFixed(0)} s). LSIs: ${indexes.join(', ') || 'none'}.`,
    table([header, ...lines]),
    '',
    'Legend (heat)',
    `- Fleet: ${FLEET.registers.toLocaleString('en')} registers, ${FLEET.receiptsPerDay} receipts a register a day (${FLEET.busyReceiptsPerDay.toLocaleString('en')} at a busy register), ` +
      `${FLEET.peakReceiptsPerHour} an hour at the peak, chains of ${FLEET.chainRegisters} registers, ${FLEET.years} years of records.`,
    '- Trading, per sale: POST .../sales (Paid, unprinted), POST .../registration/{cash}/kd (through the broker, bridge and simulator),',
    "  PUT .../sales with its Normal print and the unit's control code; per day: POST /{sellerId}/days (opens it), POST",
    '  .../days/current (closes it), POST .../days/{n}/report (prints its Z report).',
    "  Nothing else is read. A day's opening, close and Z report are counted apart (bytes / day) and spread over its receipts:",
    `  bytes, new items and writes / sale are a sale's and its day's / ${FLEET.receiptsPerDay} (at ${FLEET.busyReceiptsPerDay.toLocaleString('en')}/day, the day's / ${FLEET.busyReceiptsPerDay.toLocaleString('en')}).`,
    '- Keys and shapes from the Scans alone (no key builder of the service): the sellers, register names, unit serials and',
    '  vendor the row made are named <seller>, <cash>, <serial>, <vendor>; a generated token (16+ characters) and a run of',
    '  digits/lowercase hex that differs between keys alike otherwise are <n>.',
    '- A write: an item new, changed or gone between the Scans before and after one request. An item a request rewrote',
    '  (the kd rewrites its counter twice) counts once: writes are a lower bound.',
    '- One key serves: registers of one seller only wrote to it: a chain; registers of several sellers: the whole fleet;',
    "  one register: that register. A shape takes its keys' widest scope.",
    "- Per sale (per day): one key's figures over the sales (days) of the registers it serves (its register, its seller's, all), averaged",
    '  over the keys of the shape written (a key sharded 16 ways gets 1/16 of the records). bytes = the growth of its item',
    `  collection: items (DynamoDB's size rules) + for every LSI whose sort key the item has, its entry (projected attributes and keys + ${INDEX_ENTRY_OVERHEAD} B).`,
    '  A key written once (a kd reply, a receipt link) is taken as growing at that rate: an upper bound.',
    `- Days to 10 GB (only while the table has an LSI): 10 GiB / ((bytes a sale x receipts a register a day + bytes a day) x registers served).`,
    `- WCU/s (new items/s) at the peak = write units (new items) a sale x registers served x ${FLEET.peakReceiptsPerHour}/3,600, a day's spread over its`,
    `  ${FLEET.receiptsPerDay} receipts as if closes came at the peak too; a write costs ceil(KB of its larger image)`,
    `  x ${TRANSACTIONAL}: every write taken as transactional (the service's fiscal writes all are); LSI entries' writes not counted.`,
    `- FAIL: 10 GB within ${FLEET.years} years at ${FLEET.busyReceiptsPerDay.toLocaleString('en')} receipts a register a day while an LSI exists, or more than ${LIMITS.peakWcu} WCU/s at the peak`,
    "  (a third of a partition's 1,000).",
  ];
}
