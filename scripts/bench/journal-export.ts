/**
 * The bench's journal-export row (docs/conventions.md §19): `GET /v33/{sellerId}/registrations/{cash}/journal-export`
 * of one register with EXPORT_SALES printed sales over EXPORT_DAYS closed days, asked for gzip. The register is real
 * (its seller's profile, an application that needs a control unit, an activation on a unit with its installation, all
 * made through the handlers); its journal, the only thing the export reads besides them, is seeded straight into the
 * table as a register on that unit would have journaled it (`seedJournal`, which the journal-export-job row shares:
 * the day's opening, each sale POST's SALE_RECORDED and PRINT with its receipt and the unit's control code, each
 * close's DAY_CLOSED with its Z report and export context, chained by chainEvents, with the hour markers) with its
 * counter at the journal's head; the sale and day items, which the export never reads, are not written. The export
 * runs in a child process (scripts/bench/journal-export-child.ts) so that its memory is measured alone; the document
 * is checked (its Handelse count) and validated by xmllint as WebAssembly (scripts/export-schemas.ts) against
 * Skatteverket's schemas (../shared/skvfs2021-16), and the bench fails if it is invalid, if the export is not gzipped,
 * or if its peak heap above the process's baseline is not below the document's size (it must stream).
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { activateUnitRegister } from './unit-register.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ChainHead, JournalEntry, JournalEvent } from '#shared/fiscal/journal.ts';
import type { ExportContext } from '#shared/fiscal/export-context.ts';
import type { Print, Sale } from '#shared/fiscal/model.ts';
import type { Totals } from '#shared/fiscal/totals.ts';
import type { Caller, Handler, Model, Operation, Sample } from '../bench.ts';
import type { ChildFigures, ChildRequests } from './journal-export-child.ts';
import { median } from './stats.ts';
import { type DayRecord, JOURNAL_PREFIX, registerKeys } from '#shared/fiscal/ledger.ts';
import { sellerKeys } from '#shared/domain/seller.ts';
import { installationKey } from '#shared/domain/installations.ts';
import { activationKeys, applicationKeys, registrationKeys } from '#shared/domain/records.ts';
import { apiKeyKey } from '#shared/auth/api-keys.ts';
import { schemaProblems } from '../export-schemas.ts';

const run = promisify(execFile);

/** The export's register: its seller (a Swedish organisation number), name, control unit and history. */
const SELLER = 'SE5560360827';
const CASH = 'Export-1';
const SERIAL = 'BENCHEXPORT000001';
export const EXPORT_SALES = 10_000;
export const EXPORT_DAYS = 30;
/** Measured runs in the child process, after its warm-up. */
const RUNS = 3;
/** A streaming export holds less than 1/STREAMING of its document live (sampled after full GCs), else the bench fails. */
const STREAMING = 3;
const KB = 1024;
const MB = 1024 * KB;
/** Skatteverket's schemas, beside the repository (tests/support/skvfs.ts validates with the same wrapper). */
const SCHEMA = fileURLToPath(new URL('../../../shared/skvfs2021-16/validate_wrapper.xsd', import.meta.url));
const CHILD = fileURLToPath(new URL('./journal-export-child.ts', import.meta.url));

/** What the bench lends the row: its in-process invoke and events, bulk writes, stored items, and its pricing rules. */
export interface ExportKit {
  invoke: (handler: Handler, method: string, path: string, status: number, body?: unknown, caller?: Caller) => Promise<Sample>;
  event: (method: string, target: string, body: unknown, caller: Caller) => APIGatewayProxyEventV2;
  batchPut: (items: readonly Record<string, unknown>[]) => Promise<void>;
  readBack: (key: { pk: string; sk: string }) => Promise<Record<string, unknown>>;
  pricing: { readUnits: (bytes: number) => number; itemSize: (item: Record<string, unknown>) => number };
}

/** A Paid sale of 3 lines at 25 % and 12 % (as the fiscal rows post), closed at `at`, printed as receipt `receiptNumber`. */
function saleAt(index: number, day: number, at: number, receiptNumber: number, serial: string): { sale: Sale; print: Print } {
  const line = (productIdentifier: string, name: string, delta: number, brutto: number, vat: number, vatRate: number) => ({
    productIdentifier,
    name,
    deltaUnit: true,
    delta,
    absoluteDiscount: 0,
    relativeDiscount: 0,
    vat,
    netto: brutto - vat,
    brutto,
    vanillaBrutto: brutto,
    discount: 0,
    productBrutto: brutto / delta,
    vatRate,
  });
  const print: Print = {
    printType: 'Normal',
    receiptNumber,
    // The unit's 59-character control code, one per receipt.
    controlNumber: createHash('sha256').update(`${serial}:${receiptNumber}`).digest('hex').slice(0, 59).toUpperCase(),
    created: at,
  };
  const card = index % 3 !== 0;
  return {
    print,
    sale: {
      identifier: randomUUID(),
      sellerIdentifier: 'Anna',
      saleState: 'Paid',
      refund: false,
      refundFor: null,
      absoluteDiscount: 0,
      relativeDiscount: 0,
      vanillaBrutto: 28_700,
      discount: 0,
      brutto: 28_700,
      vat: 4700,
      treasurer: 'Anna',
      close: at,
      saleProducts: [
        line('p1', 'Kaffe', 1, 12_500, 2500, 25),
        line('p2', 'Bulle', 2, 5000, 1000, 25),
        line('p3', 'Smörgås', 1, 11_200, 1200, 12),
      ],
      prints: [print],
      payments: [{ paymentType: card ? 'EmvStandalone' : 'Cash', amount: 28_700 }],
      vatRateSums: [
        {
          vatRate: 2500,
          vat: 3500,
          netto: 14_000,
          brutto: 17_500,
          vanillaVat: 3500,
          vanillaNetto: 14_000,
          vanillaBrutto: 17_500,
        },
        {
          vatRate: 1200,
          vat: 1200,
          netto: 10_000,
          brutto: 11_200,
          vanillaVat: 1200,
          vanillaNetto: 10_000,
          vanillaBrutto: 11_200,
        },
      ],
      day,
      recorded: at,
    },
  };
}

/** A register on a control unit whose journal `seedJournal` seeds: its seller, name and unit. */
export interface SeededRegister {
  sellerId: string;
  cash: string;
  serial: string;
}

/** What `seedJournal` seeds: `sales` printed sales over `days` closed days, the last closed yesterday. */
export interface JournalSeed {
  register: SeededRegister;
  sales: number;
  days: number;
  /**
   * Also journal what a register on a control unit journals besides its sale POSTs and closes, as it does today: each
   * sale's kd (the claim's KD_REQUEST, the signed reply's KD_OUTCOME, functions/kd/flow.ts) and each close's Z report
   * print (REPORT_PRINTED, which the next day's first sale needs). The journal-export row leaves them out, as it
   * always has (its figures stay comparable); the export reads them all and writes none of them.
   */
  kdAndReportPrints: boolean;
  /** Writes a day's items (its entries and hour markers; the register's counter last); up to PUTS_IN_FLIGHT at once. */
  put: (items: readonly Record<string, unknown>[]) => Promise<void>;
}

export interface SeededJournal {
  context: ExportContext;
  entries: number;
  markers: number;
  /** Each day's opening (its first entry) and close (its DAY_CLOSED entry's time), epoch ms, oldest first. */
  periods: { open: number; close: number }[];
  seconds: number;
}

/** Days written at once: while DynamoDB Local takes one, the next is chained (each put sends 4 BatchWriteItem lanes). */
const PUTS_IN_FLIGHT = 2;
/** The longest a day's sales span: its first sale at 08:00 UTC, its close 10 h later. */
const SELLING_MS = 9 * 3_600_000;

/**
 * Seeds a register's journal straight into the table as the routes journal it: each write's events chained by
 * chainEvents at the write's time (a sale POST with its Normal print: SALE_RECORDED and PRINT with the receipt and
 * the unit's control code, the day's first also DAY_OPENED; a close: DAY_CLOSED with its Z report and export
 * context), each hour's first entry marked (`hourMarkers`, what the ledger writes beside the entries: a period's read
 * starts there), and the register's counter at the journal's head. Events are made by the routes' own functions where
 * they are exported (printEvent, digestOf, kdCommand, latestDay). The sale, day, receipt and kd claim items the same
 * writes put are not written: the export never reads them.
 */
export async function seedJournal(seed: JournalSeed): Promise<SeededJournal> {
  const { register, sales: total, days, kdAndReportPrints } = seed;
  const { sellerId, cash: cashRegisterName, serial } = register;
  const [journal, records, report, totals, dates, { readExportContext }, ledger, saleWrite, dayRules, kd] = await Promise.all([
    import('#shared/fiscal/journal.ts'),
    import('#shared/fiscal/journal-records.ts'),
    import('#shared/fiscal/report.ts'),
    import('#shared/fiscal/totals.ts'),
    import('#shared/fiscal/dates.ts'),
    import('#shared/fiscal/export-context.ts'),
    import('#shared/fiscal/ledger.ts'),
    import('#functions/fiscal/sale-write.ts'),
    import('#functions/fiscal/day-rules.ts'),
    import('#functions/kd/mapping.ts'),
  ]);
  const context = await readExportContext(register);
  const { productionNumber } = context.system;
  if (productionNumber === null) throw new Error(`Register ${cashRegisterName} has no production number`);

  const seeding = performance.now();
  const timeZone = dates.timeZoneOf(sellerId);
  const kdContext = { org: kd.orgOf(sellerId), registerId: kd.registerIdFor(cashRegisterName), timeZone };
  const now = Date.now();
  const perDay = Math.ceil(total / days);
  const spacing = Math.min(90_000, Math.floor(SELLING_MS / perDay));
  let head: ChainHead = journal.GENESIS_HEAD;
  let entries = 0;
  let markers = 0;
  let writes = 0;
  const grand = { sales: 0, refunds: 0 };
  let receiptNumber = 0;
  let lastDay: DayRecord | undefined;
  let openVersion = 0;
  const periods: SeededJournal['periods'] = [];
  const inFlight = new Set<Promise<void>>();
  const put = async (items: Record<string, unknown>[]) => {
    while (inFlight.size >= PUTS_IN_FLIGHT) await Promise.race(inFlight);
    const putting = seed.put(items).finally(() => inFlight.delete(putting));
    inFlight.add(putting);
  };
  for (let day = 1; day <= days; day++) {
    const dayEntries: JournalEntry[] = [];
    const append = (events: readonly JournalEvent[], at: number) => {
      const chained = journal.chainEvents(head, events, at);
      dayEntries.push(...chained.entries);
      head = chained.head;
      writes += 1;
    };
    // Day n opens at 08:00 UTC days + 1 - n days ago; its sales `spacing` apart; the close 10 h after the opening.
    const open = Math.floor(now / 86_400_000) * 86_400_000 - (days + 1 - day) * 86_400_000 + 8 * 3_600_000;
    const date = dates.businessDate(open, timeZone);
    let dayTotals: Totals = totals.emptyTotals();
    const first = (day - 1) * perDay;
    for (let index = first; index < Math.min(day * perDay, total); index++) {
      const at = open + (index - first) * spacing;
      const { sale, print } = saleAt(index, day, at, ++receiptNumber, serial);
      dayTotals = totals.addTotals(dayTotals, totals.saleContribution(sale));
      grand.sales += sale.brutto;
      if (kdAndReportPrints) {
        // The kd before the sale (functions/kd/flow.ts decideKd, then settle): a day opens with its first sale, so
        // until then its kd belongs to no day.
        const order = {
          printType: print.printType,
          training: false,
          refund: false,
          date: at,
          receiptNumber,
          brutto: sale.brutto,
          vat: [
            { key: '25', rate: 2500, amount: 3500, gross: null },
            { key: '12', rate: 1200, amount: 1200, gross: null },
          ],
        };
        const command = kd.kdCommand(order, receiptNumber, kdContext);
        const kdDay = index === first ? null : day;
        const correlationId = randomUUID();
        const kdEntry = { dayNumber: kdDay, receiptNumber, printType: print.printType, amount: sale.brutto };
        append(
          [
            {
              type: 'KD_REQUEST',
              ...kdEntry,
              data: {
                correlationId,
                controlUnitSerial: serial,
                retryOf: null,
                command: { ...command, vat: command.vat.map(({ rate, amount }) => ({ rate, amount })) },
              },
            },
          ],
          at - 2000,
        );
        append(
          [
            {
              type: 'KD_OUTCOME',
              ...kdEntry,
              controlCode: print.controlNumber ?? null,
              data: { correlationId, controlUnitSerial: serial, outcome: 'SIGNED', returnCode: 0, message: null, late: false },
            },
          ],
          at - 1800,
        );
      }
      // What a sale POST with its Normal print journals (functions/fiscal/sale-write.ts), the day's first also opening it.
      append(
        [
          ...(index === first ? [{ type: 'DAY_OPENED' as const, dayNumber: day, data: { date } }] : []),
          {
            type: 'SALE_RECORDED',
            dayNumber: day,
            saleIdentifier: sale.identifier,
            receiptNumber: print.receiptNumber,
            amount: sale.brutto,
            data: { saleState: sale.saleState, previousState: null, refund: false, digest: saleWrite.digestOf(sale) },
          },
          saleWrite.printEvent(sale, print, context.system.controlUnitSerial),
        ],
        at,
      );
      if (index === first) openVersion = writes;
    }
    // The close (functions/fiscal/days.ts closingRecord): the Z report as produced then, and the export context.
    const close = open + 10 * 3_600_000;
    const cash = totals.cashBalance(dayTotals);
    const closed: DayRecord = {
      dayNumber: day,
      date,
      opened: false,
      reportPrinted: false,
      open,
      close,
      cash,
      cashAtClose: cash,
      grandTotal: grand.sales,
      grandTotalRefund: grand.refunds,
      closedDayTreasurer: null,
      totals: dayTotals,
      openVersion,
    };
    const zReport = report.buildReport({
      seller: {
        name: context.company.name,
        corporateId: context.company.corporateId,
        address: context.company.address,
        country: context.company.country,
      },
      register: { cashRegisterName, productionNumber, controlUnitSerial: context.system.controlUnitSerial },
      day: closed,
      totals: dayTotals,
      grandTotals: { ...grand },
      produced: close,
    });
    append(
      [
        {
          type: 'DAY_CLOSED',
          dayNumber: day,
          amount: cash,
          data: records.journalData({ grandTotal: grand.sales, grandTotalRefund: grand.refunds, report: zReport, context }),
        },
      ],
      close,
    );
    lastDay = closed;
    if (kdAndReportPrints) {
      // The Z report printed a minute after the close (functions/fiscal/days.ts printReport).
      append([{ type: 'REPORT_PRINTED', dayNumber: day, amount: dayTotals.sold.brutto }], close + 60_000);
      lastDay = { ...closed, reportPrinted: true };
    }
    periods.push({ open: dayEntries[0]?.created ?? open, close });
    const dayMarkers = ledger.hourMarkers(dayEntries);
    entries += dayEntries.length;
    markers += dayMarkers.length;
    await put([
      ...dayEntries.map((entry) => ({
        ...ledger.registerKeys.journalEntry(sellerId, cashRegisterName, entry.sequence),
        ...entry,
      })),
      ...dayMarkers.map(({ hour, sequence }) => ({
        ...ledger.registerKeys.journalHour(sellerId, cashRegisterName, hour),
        sequence,
      })),
    ]);
  }
  await Promise.all(inFlight);
  // The counter as the last write left it (shared/db/streams.ts counterWrite, shared/fiscal/ledger.ts writeLedger).
  await seed.put([
    {
      ...ledger.registerKeys.counter(sellerId, cashRegisterName),
      ver: writes,
      live: true,
      apiVersion: 'v33',
      ledger: {
        journal: head,
        receipt: receiptNumber,
        ...(lastDay ? { day: dayRules.latestDay(lastDay), lastClose: lastDay.close } : {}),
        grand,
      },
    },
  ]);
  return { context, entries, markers, periods, seconds: (performance.now() - seeding) / 1000 };
}

export async function measureJournalExport(kit: ExportKit): Promise<{ operations: Operation[]; summary: string[] }> {
  const { invoke, pricing } = kit;
  const { hashApiKey } = await import('#shared/auth/api-keys.ts');
  const sizeOf = async (key: { pk: string; sk: string }) => pricing.itemSize(await kit.readBack(key));

  // The seller with the profile the export names, an application on a control unit, the register activated on the unit.
  const applicationPackage = 'se.example.bench.export';
  const { apiKey, activationId } = await activateUnitRegister(invoke, {
    sellerId: SELLER,
    cash: CASH,
    serial: SERIAL,
    name: 'Exportbutiken',
    applicationPackage,
    productionNumberPrefix: 'BX',
    validFrom: Date.now() - 60 * 86_400_000,
    validTo: Date.now() + 365 * 86_400_000,
    programVersion: '4.2.0',
  });

  // The journal: EXPORT_DAYS days, each opened by its first sale and closed EXPORT_SALES / EXPORT_DAYS sales later.
  const entrySizes: number[] = [];
  const seeded = await seedJournal({
    register: { sellerId: SELLER, cash: CASH, serial: SERIAL },
    sales: EXPORT_SALES,
    days: EXPORT_DAYS,
    kdAndReportPrints: false,
    put: (items) => {
      // The entries' sizes in sequence order, for the Query pages' price (the markers are outside the journal's Query).
      for (const item of items) if (String(item.sk).startsWith(JOURNAL_PREFIX)) entrySizes.push(pricing.itemSize(item));
      return kit.batchPut(items);
    },
  });
  const { context, seconds: seedSeconds } = seeded;
  const productionNumber = context.system.productionNumber ?? '';
  const storedBytes = entrySizes.reduce((sum, size) => sum + size, 0);

  // The export, in a child process: a warm-up over the first day's period, then RUNS over the whole journal.
  const caller: Caller = { 'x-api-key': apiKey };
  const request = (query: string): APIGatewayProxyEventV2 => {
    const made = kit.event('GET', `/v33/${SELLER}/registrations/${CASH}/journal-export${query}`, undefined, caller);
    return { ...made, headers: { ...made.headers, accept: 'application/xml', 'accept-encoding': 'gzip, deflate, br' } };
  };
  const firstClose = seeded.periods[0]?.close ?? Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  try {
    const requestsFile = join(dir, 'requests.json');
    const gzFile = join(dir, 'export.xml.gz');
    const requests: ChildRequests = { warmup: request(`?to=${firstClose}`), measured: request(''), runs: RUNS };
    writeFileSync(requestsFile, JSON.stringify(requests));
    const child = await run(process.execPath, [...process.execArgv, '--expose-gc', CHILD, requestsFile, gzFile], {
      env: process.env,
      maxBuffer: 64 * MB,
    });
    const figures = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as ChildFigures;
    if (!existsSync(gzFile)) throw new Error('The export child wrote no document');

    // The document: its size, its events, and xmllint's verdict against Skatteverket's schemas.
    const gzipped = readFileSync(gzFile);
    const xml = gunzipSync(gzipped);
    const text = xml.toString('utf8');
    const count = (element: string) => text.split(`<${element}>`).length - 1;
    const events = { all: count('Handelse'), receipts: count('Kassakvitto'), reports: count('ZDagrapport') };
    if (events.receipts !== EXPORT_SALES || events.reports !== EXPORT_DAYS || events.all !== EXPORT_SALES + EXPORT_DAYS) {
      throw new Error(
        `The export holds ${events.all} Handelse (${events.receipts} Kassakvitto, ${events.reports} ZDagrapport), ` +
          `expected ${EXPORT_SALES} receipts and ${EXPORT_DAYS} Z reports`,
      );
    }
    const validating = performance.now();
    const problems = await schemaProblems(xml, { wrapper: SCHEMA });
    const validateSeconds = (performance.now() - validating) / 1000;
    if (problems !== null) throw new Error(`xmllint finds the export invalid: ${problems.slice(0, 2000)}`);

    // The price: the key, the seller's liveness, the registration and counter (BatchGet), the export context (the
    // profile and registration, the latest activation, the installation, the application), then the journal's Query,
    // a page (at most 1 MB) at a time: 1 RCU per 4 KB of each page's items.
    const [firstRun] = figures.runs;
    if (!firstRun) throw new Error('The export child made no run');
    const pages = firstRun.calls.filter((call) => call.command === 'Query').map((call) => call.scanned);
    let start = 0;
    const pagesRcu = pages.reduce((sum, scanned) => {
      const bytes = entrySizes.slice(start, (start += scanned)).reduce((total, size) => total + size, 0);
      return sum + pricing.readUnits(bytes);
    }, 0);
    if (start !== seeded.entries)
      throw new Error(`The export's Query read ${start} journal entries, ${seeded.entries} are stored`);
    const registration = await sizeOf(registrationKeys.registration(SELLER, CASH));
    const reads = [
      await sizeOf(apiKeyKey(hashApiKey(apiKey))),
      await sizeOf(sellerKeys.counter(SELLER)),
      registration,
      await sizeOf(registerKeys.counter(SELLER, CASH)),
      await sizeOf(sellerKeys.profile(SELLER)),
      registration,
      await sizeOf(activationKeys.activation(activationId)),
      await sizeOf(installationKey(productionNumber)),
      await sizeOf(applicationKeys.application(applicationPackage)),
    ];
    const model: Model = {
      commands: [
        // The key and the seller's counter, read ahead (shared/http/api.ts).
        'BatchGetItem',
        'BatchGetItem',
        'GetItem',
        'GetItem',
        'GetItem',
        'GetItem',
        'GetItem',
        ...pages.map(() => 'Query'),
      ],
      capacity: {
        tableRcu: reads.reduce((sum, size) => sum + pricing.readUnits(size), 0) + pagesRcu,
        lsiRcu: 0,
        tableWcu: 0,
        lsiWcu: 0,
      },
    };
    const operation: Operation = {
      label: `journal export, ${EXPORT_SALES.toLocaleString('en')} sales, ${EXPORT_DAYS} days, gzip (n=${RUNS})`,
      samples: figures.runs.map((sample) => ({ cpuMs: sample.cpuMs, calls: sample.calls, body: undefined })),
      model,
    };

    // Streaming: the heap the export holds live (sampled after full GCs) stays far below the document it makes.
    const peakHeap = Math.max(...figures.runs.map((sample) => sample.peakHeapUsed));
    const peakRss = Math.max(...figures.runs.map((sample) => sample.peakRss));
    const added = peakHeap - figures.baseline.heapUsed;
    const live = figures.live.peakHeapUsed - figures.liveBaseline;
    if (figures.live.calls.filter((call) => call.command === 'Query').length !== pages.length) {
      throw new Error('The live-heap run read the journal in other pages');
    }
    if (live * STREAMING >= xml.length) {
      throw new Error(
        `The export held ${(live / MB).toFixed(1)} MB of heap live over its baseline, for a document of ${(xml.length / MB).toFixed(1)} MB: ` +
          `it does not stream (the bench wants less than 1/${STREAMING} of the document)`,
      );
    }
    const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
    const percent = (bytes: number) => `${((100 * bytes) / xml.length).toFixed(0)} %`;
    const walls = figures.runs.map((sample) => sample.wallMs);
    const cpus = figures.runs.map((sample) => sample.cpuMs);
    return {
      operations: [operation],
      summary: [
        `Journal export: GET /v33/{sellerId}/registrations/{cash}/journal-export, Accept-Encoding gzip, of one register's ` +
          `${EXPORT_SALES.toLocaleString('en')} printed sales over ${EXPORT_DAYS} closed days (${seeded.entries.toLocaleString('en')} ` +
          `journal entries, ${mb(storedBytes)} as stored, seeded with BatchWriteItem in ${seedSeconds.toFixed(1)} s), in a child ` +
          `process (n=${RUNS} after a one-day warm-up): ${median(walls).toFixed(0)} ms wall (${Math.min(...walls).toFixed(0)}-` +
          `${Math.max(...walls).toFixed(0)}), ${median(cpus).toFixed(0)} ms CPU, ${firstRun.calls.length} round trips ` +
          `(${pages.length} Query pages of ${pages.join(', ')} entries); answer ${mb(gzipped.length)} gzipped ` +
          `(${mb(firstRun.base64Bytes)} as base64, of the ${mb(5_500_000)} limit), the XML ${mb(xml.length)}: ` +
          `${events.all.toLocaleString('en')} Handelse (${events.receipts.toLocaleString('en')} Kassakvitto, ${events.reports} ZDagrapport), ` +
          `valid against Skatteverket's SKVFS 2021:16 schemas (xmllint as WebAssembly, ${validateSeconds.toFixed(1)} s).`,
        `Journal export memory (bytes as MB of 2^20): heapUsed ${mb(figures.baseline.heapUsed)} after the warm-up and a full GC; ` +
          `during the runs peak ${mb(peakHeap)} sampled (+${mb(added)}, garbage included: ${percent(added)} of the XML's ` +
          `${mb(xml.length)}); in a run sampled after full GCs, peak ${mb(figures.live.peakHeapUsed)} over ${mb(figures.liveBaseline)} ` +
          `before it (+${mb(live)} held live: ${percent(live)} of the XML); RSS ${mb(figures.baseline.rss)} before, peak ${mb(peakRss)} sampled; process maxRSS ${mb(figures.baseline.maxRss)} ` +
          `before the runs, ${mb(figures.maxRss)} after.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
