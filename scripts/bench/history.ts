/**
 * The bench's history row (`BENCH_ONLY=history`: a read of a period costs that period, docs/decisions.md "Journal periods"): a register on a
 * control unit trades day after day, 3 signed sales a day (a kd through the local broker, edge bridge and simulator,
 * then the sale with its control code), each day closed and its Z report printed, all through the handlers
 * in-process. After day 2 and after day N the row reads the latest day as a register and a user read it: its
 * generated e-journal and journal export (`from`/`to` the day), its Z report, and the newest page of the e-journal and
 * of the Kd log, and counts each read's round trips and consumed RCU (DynamoDB's ReturnConsumedCapacity, recorded by
 * calls.ts). The row fails when a read costs more round trips or RCU after day N than after day 2.
 *
 * The clock: the bench process's `Date.now` is moved a day ahead before each day's trading (the real clock plus whole
 * days, so time still passes within a day), as the service reads no other clock for its records. The pages read are
 * smaller than day 2's records (10 journal entries, 5 Kd log records), so that both reads fill a whole page.
 */
import { randomUUID } from 'node:crypto';
import type { Caller, Handler, Operation, Sample } from '../bench.ts';
import type { Call } from './calls.ts';
import { activateUnitRegister } from './unit-register.ts';
import { maintenanceSwitchKey } from '#shared/http/maintenance-mode.ts';

/** The row's own seller, unit and register: a seller whose profile names what the export needs. */
const SELLER = 'SE5560360827';
const SERIAL = 'BENCHCU0000000002';
const CASH = 'History-1';
const DAY_MS = 86_400_000;
const SALES_A_DAY = 3;
/** Days traded before the second reading: `BENCH_HISTORY_DAYS`, at least 60. */
const DAYS = Math.max(60, Number(process.env.BENCH_HISTORY_DAYS ?? 60));
/** The newest pages read: fewer than day 2's entries and Kd log records, so both readings read a full page. */
const JOURNAL_PAGE = 10;
const KD_PAGE = 5;

/** What the bench lends the row: its in-process invoke (an administrator calls unless told). */
export interface HistoryKit {
  invoke: (
    handler: Handler,
    method: string,
    path: string,
    status: number,
    body?: unknown,
    caller?: Caller,
    accept?: string,
  ) => Promise<Sample>;
}

/** A read's cost: its DynamoDB calls (the maintenance switch's, one a cache period, aside) and their RCU. */
interface Cost {
  roundTrips: number;
  rcu: number;
}

function costOf(calls: readonly Call[]): Cost {
  const switchKey = maintenanceSwitchKey();
  const measured = calls.filter((call) => {
    const key = (call.input as { Key?: { pk?: unknown; sk?: unknown } }).Key;
    return !(key?.pk === switchKey.pk && key.sk === switchKey.sk);
  });
  const rcu = measured
    .flatMap((call) => call.consumed)
    .reduce((sum, report) => sum + (report.ReadCapacityUnits ?? report.CapacityUnits ?? 0), 0);
  return { roundTrips: measured.length, rcu };
}

/** A paid cash sale of one coffee, 125.00 kr at 25 %, printed with the unit's control code. */
const coffee = (controlNumber: string) => ({
  identifier: randomUUID(),
  sellerIdentifier: 'Anna',
  saleState: 'Paid',
  refund: false,
  refundFor: null,
  brutto: 12_500,
  vat: 2500,
  saleProducts: [
    { productIdentifier: 'p1', name: 'Kaffe', deltaUnit: true, delta: 1, vat: 2500, netto: 10_000, brutto: 12_500, vatRate: 25 },
  ],
  payments: [{ paymentType: 'Cash', amount: 12_500 }],
  vatRateSums: [{ vatRate: 2500, vat: 2500, netto: 10_000, brutto: 12_500 }],
  prints: [{ printType: 'Normal', receiptNumber: null, controlNumber }],
});

export async function measureHistory(kit: HistoryKit): Promise<{ operations: Operation[]; summary: string[] }> {
  const started = performance.now();
  const { invoke } = kit;
  const [{ startBroker }, { startKdRules }, { startLocalUnit }, fiscal, kd] = await Promise.all([
    import('#infra/local/broker.ts'),
    import('#infra/local/kd-rules.ts'),
    import('#infra/local/stack.ts'),
    import('#functions/fiscal/handler.ts'),
    import('#functions/kd/handler.ts'),
  ]);
  const realNow = Date.now.bind(Date);
  let daysAhead = 0;
  Date.now = () => realNow() + daysAhead * DAY_MS;
  const broker = await startBroker(Number(new URL(process.env.MQTT_URL ?? '').port));
  const quiet = () => undefined;
  const rules = await startKdRules(broker.url, quiet);
  const unit = await startLocalUnit(SERIAL, broker.url, { log: quiet });
  try {
    const { apiKey } = await activateUnitRegister(invoke, {
      sellerId: SELLER,
      cash: CASH,
      serial: SERIAL,
      name: 'Historiebutiken',
      applicationPackage: 'se.example.bench.history',
      productionNumberPrefix: 'BH',
      validFrom: Date.now() - DAY_MS,
      validTo: Date.now() + (DAYS + 30) * DAY_MS,
      programVersion: '1.0',
    });
    const register: Caller = { 'x-api-key': apiKey };
    const base = `/v33/${SELLER}/registrations/${CASH}`;

    let receiptNumber = 0;
    /** One day of trading on the day's clock: its sales signed and printed, the day closed, its Z report printed. */
    const trade = async (dayNumber: number): Promise<{ from: number; to: number }> => {
      daysAhead = dayNumber;
      const from = Date.now();
      for (let sale = 0; sale < SALES_A_DAY; sale++) {
        receiptNumber += 1;
        const kdBody = { vatRateToSum: { '25': 12_500 }, refund: false, printType: 'Normal', receiptNumber, date: Date.now() };
        const signed = await invoke(kd.handler, 'POST', `/v33/${SELLER}/registration/${CASH}/kd`, 201, kdBody, register);
        const { response } = signed.body as { response: string };
        await invoke(fiscal.handler, 'POST', `${base}/sales`, 201, coffee(response), register);
      }
      await invoke(fiscal.handler, 'POST', `${base}/days/current`, 201, undefined, register);
      await invoke(fiscal.handler, 'POST', `${base}/days/${dayNumber}/report`, 201, undefined, register);
      return { from, to: Date.now() };
    };

    /** The latest day's reads, each one's cost. */
    const readLatest = async (dayNumber: number, period: { from: number; to: number }) => {
      const within = `from=${period.from}&to=${period.to}`;
      const reads: [string, () => Promise<Sample>][] = [
        [
          'generated e-journal of the day (from/to)',
          () => invoke(fiscal.handler, 'GET', `/v33/${SELLER}/generated-e-journals/${CASH}?${within}`, 200, undefined, register),
        ],
        [
          'journal export of the day (from/to)',
          () => invoke(fiscal.handler, 'GET', `${base}/journal-export?${within}`, 200, undefined, register, 'application/xml'),
        ],
        ["the day's Z report", () => invoke(fiscal.handler, 'GET', `${base}/days/${dayNumber}/report`, 200, undefined, register)],
        [
          `newest e-journal page (orderDesc, ${JOURNAL_PAGE} entries)`,
          () =>
            invoke(
              fiscal.handler,
              'GET',
              `/v33/${SELLER}/e-journals/${CASH}?orderDesc=true&maxResults=${JOURNAL_PAGE}`,
              200,
              undefined,
              register,
            ),
        ],
        [
          `newest Kd log page (kd-facets, orderDesc, ${KD_PAGE} records; a user)`,
          () =>
            invoke(
              kd.handler,
              'GET',
              `/v33/kd-facets?seller=${SELLER}&cashRegisterName=${CASH}&orderDesc=true&maxResults=${KD_PAGE}`,
              200,
            ),
        ],
      ];
      const costs = new Map<string, Cost>();
      for (const [label, read] of reads) costs.set(label, costOf((await read()).calls));
      return costs;
    };

    await trade(1);
    const early = await readLatest(2, await trade(2));
    const tradingStarted = performance.now();
    for (let day = 3; day < DAYS; day++) await trade(day);
    const late = await readLatest(DAYS, await trade(DAYS));
    const tradingSeconds = (performance.now() - tradingStarted) / 1000;

    const rows = [...early].map(([label, before]) => {
      const after = late.get(label) ?? { roundTrips: NaN, rcu: NaN };
      return { label, before, after, same: before.roundTrips === after.roundTrips && before.rcu === after.rcu };
    });
    const width = Math.max(...rows.map((row) => row.label.length));
    const table = [
      `${'read of the latest day'.padEnd(width)} | day 2: trips, RCU | day ${DAYS}: trips, RCU`,
      ...rows.map(
        ({ label, before, after, same }) =>
          `${label.padEnd(width)} | ${String(before.roundTrips).padStart(5)}, ${String(before.rcu).padStart(5)}   | ` +
          `${String(after.roundTrips).padStart(5)}, ${String(after.rcu).padStart(5)}${same ? '' : '   DIFFERS'}`,
      ),
    ];
    const summary = [
      `History row: one register on a control unit (${SERIAL}), ${SALES_A_DAY} signed sales a day, each day closed and its Z ` +
        `report printed, ${DAYS} days traded through the handlers (days 3..${DAYS} in ${tradingSeconds.toFixed(0)} s; the ` +
        `process's Date.now a day ahead per day); row took ${((performance.now() - started) / 1000).toFixed(0)} s.`,
      ...table,
    ];
    const differing = rows.filter((row) => !row.same);
    if (differing.length > 0) {
      throw new Error(
        `${summary.join('\n')}\nA read of the latest day costs more after ${DAYS} days than after 2: ` +
          differing.map((row) => row.label).join('; '),
      );
    }
    return { operations: [], summary };
  } finally {
    Date.now = realNow;
    await unit.stop();
    await rules.stop();
    await broker.stop();
  }
}
