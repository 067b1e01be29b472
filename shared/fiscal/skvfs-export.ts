/**
 * The journal memory as Skatteverket gets it: SKVFS 2021:16's XML (schemas version 2021-12-08), made from a register's
 * journal entries alone, in order, a window at a time (docs/conventions.md §19; the mapping is docs/sweden.md).
 *
 * The entries come in sequence order. Register events carry the register's own time, which may precede entries
 * journaled before them, but never the close of a day that is already closed (the upload refuses that). So each
 * day's window (the entries up to and including its closing entry) is sorted by time on its own and written out:
 * memory holds one day, never the journal. Used by the HTTP export and by `npm run journal-export`.
 */
import { inconsistentData } from '#shared/errors.ts';
import { formatHundredths } from '#shared/hundredths.ts';
import { wallClock } from './dates.ts';
import type { ExportContext } from './export-context.ts';
import type { JournalEntryRecord } from './journal.ts';
import type { JournalDayClosed, JournalReceipt, JournalReceiptLine } from './journal-records.ts';
import {
  isRegisterEventType,
  type RegisterEventData,
  type RegisterEventRecord,
  type RegisterEventType,
} from './register-events.ts';
import { paymentLabel, UNITS } from './render.ts';
import type { Report } from './report.ts';

const INSTANS = 'http://xmls.skatteverket.se/se/skatteverket/td/instans/utredningsstod/1.0';
const KOMPONENT = 'http://xmls.skatteverket.se/se/skatteverket/td/komponent/utredningsstod/1.0';
const ROOT = 'ExportAvDataFranJournalminneEnligtSKVFS2021-16';

/** The schema's text length, unless an element says otherwise. */
const TEXT = 72;

/** 409 InconsistentData JOURNAL_EXPORT_INCOMPLETE: the export needs `fact`, and `remedy` says how to supply it. */
export const exportIncomplete = (fact: string, remedy: string) =>
  inconsistentData('JOURNAL_EXPORT_INCOMPLETE', `The export needs ${fact}: ${remedy}`, { missing: fact });

// ---------------------------------------------------------------------------------------------------------------
// XML pieces: every element is written by `el` (children) or `text`/`num`/`time` (a value); absent values write nothing.

type Xml = string;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escape = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const el = (name: string, ...children: (Xml | null)[]): Xml =>
  `<${name}>${children.filter((c) => c !== null).join('')}</${name}>`;
/** A text cut to `max` characters (the schema's length); null or empty: no element, as the schema wants. */
function text(name: string, value: string | null | undefined, max = TEXT): Xml | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  return el(name, escape([...value.trim()].slice(0, max).join('')));
}
/** Hundredths as a decimal with two decimals and a point: `-12.50`. */
export const money = (hundredths: number): string => formatHundredths(hundredths, '.');
const num = (name: string, hundredths: number | null | undefined): Xml | null =>
  hundredths === null || hundredths === undefined ? null : el(name, money(hundredths));
/** A count or a quantity with at most two decimals. */
const decimal2 = (value: number): string => money(Math.round(value * 100));
const flag = (name: string): Xml => el(name, 'JA');

/** `yyyy-MM-ddTHH:mm:ss` of an instant on the seller's wall clock, as the schema's DatumOchKlockslag wants. */
export function localTime(instant: number, timeZone: string): string {
  const { year, month, day, hour, minute, second } = wallClock(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The document

/** The chosen period: Dates (ms), null when not chosen. */
export interface ExportPeriod {
  from: number | null;
  to: number | null;
}

/** What an export wrote, filled in as it goes: the period its header names (the journal's first time, the export's). */
export interface ExportSummary {
  period: { from: number; to: number } | null;
}

/** The file name of an export (`ExportAvDataFranJournalminneEnligtSKVFS2021-16_<from>-<to>.xml`, times as `yyyyMMddHHmmss`). */
export function exportFileName(period: { from: number; to: number }, timeZone: string): string {
  const compact = (instant: number) => localTime(instant, timeZone).replace(/[-T:]/g, '');
  return `${ROOT}_${compact(period.from)}-${compact(period.to)}.xml`;
}

/** The facts every part of the document needs, checked once. */
interface Facts {
  context: ExportContext;
  corporateId: string;
  name: string;
  address: string;
  serial: string;
  time: (instant: number) => string;
}

const ORGANISATION_NUMBER = /^\d{2}[2-9]\d{7}$/;
const PERSONAL_NUMBER = /^(19|20)\d{10}$/;
const PRODUCTION_NUMBER = /^[0-9a-zA-Z-]( ?[0-9a-zA-Z-])*$/;
const UNIT_SERIAL = /^[a-zA-Z0-9 -]{17}$/;

/** The context's facts as the schema takes them, or the error naming the first one missing. */
function checkedFacts(context: ExportContext): Facts {
  const { company, system } = context;
  const corporateId = company.corporateId.replaceAll('-', '');
  if (!ORGANISATION_NUMBER.test(corporateId) && !PERSONAL_NUMBER.test(corporateId)) {
    throw exportIncomplete(
      `a Swedish organisation number (10 digits) or personal identity number (12 digits), not "${company.corporateId}"`,
      "the seller's corporate id is not one; only a Swedish seller's journal exports",
    );
  }
  if (!company.name) throw exportIncomplete("the company's name", "set `name` in the seller's profile (PUT /sellers/{sellerId})");
  if (!company.address) {
    throw exportIncomplete(
      'the address where sales take place',
      "set `address`, `zip` and `city` in the seller's profile (PUT /sellers/{sellerId})",
    );
  }
  if (!system.productionNumber || !PRODUCTION_NUMBER.test(system.productionNumber)) {
    throw exportIncomplete(
      "the register's production number",
      'connect the register with its installation (an activation with installationCreationInfo or a connection code)',
    );
  }
  if (!system.model || !system.program) {
    throw exportIncomplete(
      "the register application's name and package",
      "the installation's application is no longer described",
    );
  }
  if (!system.version) {
    throw exportIncomplete(
      "the register application's version",
      'the register sends `programVersion` when it installs (installationCreationInfo.programVersion)',
    );
  }
  if (!system.controlUnitSerial || !UNIT_SERIAL.test(system.controlUnitSerial)) {
    throw exportIncomplete(
      "the control unit's 17-character serial",
      'activate the register on its control unit (controlUnitSerial)',
    );
  }
  return {
    context,
    corporateId,
    name: company.name,
    address: company.address,
    serial: system.controlUnitSerial,
    time: (instant) => localTime(instant, context.timeZone),
  };
}

function header(facts: Facts, period: { from: number; to: number }, exported: number): Xml {
  const { context } = facts;
  const cash = context.system.cashRegisterName;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<i:${ROOT} xmlns:i="${INSTANS}" xmlns="${KOMPONENT}">\n`,
    text('BeteckningPaDetKassaregisterSomExportAvDataFranJournalminnetSkerIfran', cash),
    el('TidpunktForNarExportAvDataFranJournalminnetSker', facts.time(exported)),
    el(
      'ValdPeriodForExportAvDataFranJournalminne',
      el('ValdStarttidpunktForExportAvDataFranJournalminnet', facts.time(period.from)),
      el('ValdSluttidpunktForExportAvDataFranJournalminnet', facts.time(period.to)),
    ),
    el(
      'BeteckningPaValdaKassaregisterForExportAvDataFranJournalminnenLISTA',
      text('BeteckningPaValtKassaregisterForExportAvDataFranJournalminnet', cash),
    ),
    el(
      'InformationOmForetaget',
      el('OrganisationsnummerEllerPersonnummer', facts.corporateId),
      text('ForetagetsNamn', facts.name),
      text('DenAdressDarForsaljningSker', facts.address),
    ),
    el(
      'KassaregistersystemLISTA',
      el(
        'Kassaregistersystemet',
        text('TillverkningsnummerForKassaregistret', context.system.productionNumber, 48),
        text('ModellbeteckningForKassaregistret', context.system.model),
        text('ModellEllerProgramForKassaregistret', context.system.program),
        text('VersionsnummerForKassaregistret', context.system.version),
        text('Kassabeteckning', cash),
        el('TillverkningsnummerForKontrollenheten', facts.serial),
      ),
    ),
    '\n<RegistreringLISTA>\n',
  ].join('');
}

const FOOTER = `</RegistreringLISTA>\n</i:${ROOT}>\n`;

/**
 * The export of `entries` (one register's journal, in sequence order) for `period`, as chunks of XML text. Yields
 * nothing when the period holds no event the format records (the caller answers 404); throws `exportIncomplete` when a
 * fact the document needs is missing. `exported` is the export's own time.
 */
export async function* skvfsExport(
  context: ExportContext,
  entries: AsyncIterable<JournalEntryRecord> | Iterable<JournalEntryRecord>,
  period: ExportPeriod,
  exported: number,
  summary: ExportSummary = { period: null },
): AsyncGenerator<string> {
  const facts = checkedFacts(context);
  const from = period.from ?? Number.MIN_SAFE_INTEGER;
  const to = period.to ?? Number.MAX_SAFE_INTEGER;
  let first: number | null = null;
  let window: { time: number; entry: JournalEntryRecord }[] = [];

  function* flush(): Generator<string> {
    window.sort((a, b) => a.time - b.time || a.entry.sequence - b.entry.sequence);
    for (const { time, entry } of window) {
      if (time < from || time > to) continue;
      const event = handelse(facts, entry, time);
      if (event === null) continue;
      if (!summary.period) {
        summary.period = { from: period.from ?? first ?? time, to: period.to ?? exported };
        yield header(facts, summary.period, exported);
      }
      yield event;
    }
    window = [];
  }

  for await (const entry of entries) {
    const time = registrationTime(entry);
    first ??= time;
    window.push({ time, entry });
    if (entry.type === 'DAY_CLOSED') {
      yield* flush();
      // Nothing after a close that ends past the period can fall in it.
      if (entry.created > to) break;
    }
  }
  yield* flush();
  if (summary.period) yield FOOTER;
}

/**
 * Who a fetched journal belongs to, offline: the context its last closed day froze (`npm run journal-export`), or the
 * error naming what is missing.
 */
export function journalContext(entries: readonly JournalEntryRecord[]): ExportContext {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    const context = entry?.type === 'DAY_CLOSED' ? (entry.data as Partial<JournalDayClosed> | null)?.context : undefined;
    if (context) return context;
  }
  throw exportIncomplete(
    'the company and the register, which a closed day keeps in the journal',
    'fetch a journal that holds a day closed since the export was introduced, or export over HTTP',
  );
}

/** When the event happened: the register's time for its own events, else when the service journaled it. */
function registrationTime(entry: JournalEntryRecord): number {
  if (isRegisterEvent(entry)) return (entry.data as unknown as RegisterEventRecord<RegisterEventType>).created;
  return entry.created;
}

const isRegisterEvent = (entry: JournalEntryRecord): entry is JournalEntryRecord & { type: RegisterEventType } =>
  isRegisterEventType(entry.type);

/** One `Handelse`, or null for an entry the format has no element for (a sale recorded, a day opened, a kd, ...). */
function handelse(facts: Facts, entry: JournalEntryRecord, time: number): Xml | null {
  let user: string | null = null;
  let body: Xml | null;
  if (isRegisterEvent(entry)) {
    const record = entry.data as unknown as RegisterEventRecord<RegisterEventType>;
    user = record.treasurer;
    body = registerEvent(facts, entry.type, record.data);
  } else {
    body = serviceEvent(facts, entry);
    if (body !== null && entry.type === 'PRINT') user = receiptOf(entry).treasurer;
  }
  if (body === null) return null;
  return (
    el(
      'Handelse',
      text('InloggadAnvandare', user),
      text('Kassabeteckning', facts.context.system.cashRegisterName),
      el('Registreringstidpunkt', facts.time(time)),
      body,
    ) + '\n'
  );
}

// ---------------------------------------------------------------------------------------------------------------
// What the service journals itself: receipts of every kind, Z reports, float changes

function serviceEvent(facts: Facts, entry: JournalEntryRecord): Xml | null {
  switch (entry.type) {
    case 'PRINT':
      return receipt(facts, entry);
    case 'DAY_CLOSED':
      return zReport(facts, entry);
    case 'BALANCE': {
      const data = entry.data as { action?: string } | null;
      const amount = entry.amount ?? 0;
      return el(
        'ForandraVaxelkassa',
        num('ForandringAvVaxelkassaISvenskaKronor', data?.action === 'WITHDRAWAL' ? -amount : amount),
      );
    }
    default:
      return null;
  }
}

function receiptOf(entry: JournalEntryRecord): JournalReceipt {
  const receipt = (entry.data as { receipt?: JournalReceipt } | null)?.receipt;
  if (!receipt) {
    throw exportIncomplete(
      `the receipt of journal entry ${entry.sequence}`,
      'it was journaled before receipts were kept in the journal; export a period after it',
    );
  }
  return receipt;
}

function controlCodeOf(entry: JournalEntryRecord, code: string | null | undefined): string {
  if (!code || [...code].length !== 59) {
    throw exportIncomplete(
      `the 59-character control code of receipt ${entry.receiptNumber ?? '?'} (journal entry ${entry.sequence})`,
      'the receipt was printed without its control unit',
    );
  }
  return code;
}

/** Money of a receipt, with the minus sign of a return (a return's amounts are negative in the export). */
const signed = (receipt: JournalReceipt, hundredths: number): number => (receipt.refund ? -hundredths : hundredths);

function soldArticle(facts: Facts, receipt: JournalReceipt, line: JournalReceiptLine): Xml {
  const counted = line.salesUnit === null || line.salesUnit === 'Piece';
  const whole = Math.round(line.quantity * 100) === line.quantity * 100;
  const byCount = counted && whole;
  return el(
    'SaldArtikel',
    el('TypAvArtikel', line.articleType === 'SERVICE' ? 'TJANST' : 'VARA'),
    text('NamnPaHuvudgrupp', line.group),
    text('Artikelnummer', line.articleNumber),
    text('Artikelnamn', line.name),
    el('AntalAvSaldArtikel', decimal2(signed(receipt, byCount ? line.quantity : 1))),
    byCount || line.salesUnit === 'Price' ? null : text('MangdAvSaldArtikel', String(line.quantity)),
    byCount || line.salesUnit === null || line.salesUnit === 'Price'
      ? null
      : text('EnhetForViktLangdTidEllerVolym', UNITS[line.salesUnit]),
    num('PrisPerEnhet', line.unitPrice),
    num('PrisPaSaldArtikel', signed(receipt, line.amount)),
    line.discount > 0
      ? el('RabatterPaSaldArtikelLISTA', el('RabattPaSaldArtikel', num('RabattensBelopp', signed(receipt, line.discount))))
      : null,
    num('MervardesskattesatsForSaldArtikel', line.vatRate ?? 0),
    num('MervardesskattPaSaldArtikel', signed(receipt, line.vat)),
    el('ArtikelnsRegistreringstidpunkt', facts.time(line.registered ?? receipt.printed)),
  );
}

/** The receipt's body shared by every kind: articles, discounts, totals, payments, VAT per rate. */
function receiptBody(facts: Facts, receipt: JournalReceipt, entry: JournalEntryRecord, withPayments: boolean): Xml[] {
  const lineDiscounts = receipt.lines.reduce((sum, line) => sum + line.discount, 0);
  const receiptLevel = receipt.discount - lineDiscounts;
  const rates = receipt.vatPerRate.length > 0 ? receipt.vatPerRate : [{ vatRate: 0, vat: 0 }];
  if (withPayments && receipt.payments.length === 0) {
    throw exportIncomplete(
      `the payments of receipt ${entry.receiptNumber ?? '?'} (journal entry ${entry.sequence})`,
      'a sold receipt names how it was paid',
    );
  }
  const parts: (Xml | null)[] = [
    el('SaldaArtiklarLISTA', ...receipt.lines.map((line) => soldArticle(facts, receipt, line))),
    receiptLevel > 0
      ? el(
          'RabatterPaKvittonivaLISTA',
          el('RabattPaKvittoniva', num('RabattensBeloppPaKvittoniva', signed(receipt, receiptLevel))),
        )
      : null,
    receipt.discount > 0 ? num('TotaltRabattbeloppPaKvitto', signed(receipt, receipt.discount)) : null,
    num('TotaltForsaljningsbeloppISvenskaKronor', signed(receipt, receipt.total)),
    num('MervardesskattPaForsaljningsbeloppet', signed(receipt, receipt.vat)),
    withPayments
      ? el(
          'TotalaForsaljningssummorPerBetalningsmedelLISTA',
          ...receipt.payments.map((payment) =>
            el(
              'TotalForsaljningssummaPerBetalningsmedel',
              text('Betalningsmedel', paymentLabel(payment.paymentType)),
              num('ForsaljningssummaPerBetalningsmedel', signed(receipt, payment.amount)),
            ),
          ),
        )
      : null,
    el(
      'MervardesskattPaOlikaSkattesatserLISTA',
      ...rates.map((rate) =>
        el(
          'MervardesskattPerSkattesats',
          num('Mervardesskattesats', rate.vatRate),
          num('TotaltMervardesskattebeloppPerSkattesats', signed(receipt, rate.vat)),
        ),
      ),
    ),
  ];
  return parts.filter((part): part is Xml => part !== null);
}

function receipt(facts: Facts, entry: JournalEntryRecord): Xml {
  const receipt = receiptOf(entry);
  const serial = el('TillverkningsnummerForKontrollenheten', receipt.controlUnitSerial ?? facts.serial);
  const company = [
    el('ForetagetsNamn', escape([...facts.name].slice(0, TEXT).join(''))),
    el('OrganisationsnummerEllerPersonnummer', facts.corporateId),
    text('DenAdressDarForsaljningSker', facts.address),
  ];
  const cash = text('Kassabeteckning', facts.context.system.cashRegisterName);
  const printed = facts.time(receipt.printed);
  const number = String(entry.receiptNumber ?? '');
  const zNumber = el('LopnummerForZDagrapportPaKvitto', String(entry.dayNumber ?? ''));
  if (entry.printType === 'Proforma') {
    return el(
      'ProFormaKvitto',
      ...company,
      el('DatumOchKlockslagNarProFormaKvittoFramstalls', printed),
      cash,
      ...receiptBody(facts, receipt, entry, false),
      serial,
    );
  }
  if (receipt.training) {
    return el(
      'Ovningskvitto',
      ...company,
      el('DatumOchKlockslagNarKvittoFramstalls', printed),
      entry.receiptNumber === null ? null : el('LopnummerForOvningskvitto', number),
      cash,
      ...receiptBody(facts, receipt, entry, true),
      zNumber,
      serial,
    );
  }
  if (entry.printType === 'Copy') {
    const original = receipt.original;
    return el(
      'KopiaAvKassakvitto',
      ...company,
      el('DatumOchKlockslagNarKvittoFramstalls', printed),
      el('DatumOchKlockslagNarOriginalkvittoFramstalldes', facts.time(original?.printed ?? receipt.printed)),
      el('LopnummerForKvittokopia', number),
      el('LopnummerPaOriginalkvitto', number),
      cash,
      ...receiptBody(facts, receipt, entry, true),
      entry.controlCode && [...entry.controlCode].length === 59 ? el('KontrollkodPaKopiaAvKassakvitto', entry.controlCode) : null,
      zNumber,
      serial,
      el('KontrollkodForKvittotSomKopianAvser', controlCodeOf(entry, original?.controlCode)),
    );
  }
  const code = el('Kontrollkod', controlCodeOf(entry, entry.controlCode));
  if (receipt.refund) {
    return el(
      'Returkvitto',
      ...company,
      el('DatumOchKlockslagNarReturkvittoFramstalls', printed),
      el('LopnummerForKassakvitto', number),
      receipt.refundFor === null ? null : el('LopnummerForUrsprungligtKassakvitto', String(receipt.refundFor)),
      cash,
      ...receiptBody(facts, receipt, entry, true),
      zNumber,
      serial,
      code,
    );
  }
  return el(
    'Kassakvitto',
    ...company,
    el('DatumOchKlockslagNarKvittoFramstalls', printed),
    el('LopnummerForKassakvitto', number),
    cash,
    ...receiptBody(facts, receipt, entry, true),
    zNumber,
    serial,
    code,
  );
}

function zReport(facts: Facts, entry: JournalEntryRecord): Xml {
  const closed = entry.data as Partial<JournalDayClosed> | null;
  if (!closed?.report || !closed.context) {
    throw exportIncomplete(
      `the Z report of day ${entry.dayNumber ?? '?'} (journal entry ${entry.sequence})`,
      'the day was closed before Z reports were kept in the journal; export a period after it',
    );
  }
  const report: Report = closed.report;
  const system = closed.context.system;
  const rates = report.vatPerRate.length > 0 ? report.vatPerRate : [{ vatRate: 0, vat: 0 }];
  const payments = report.paymentTypes.length > 0 ? report.paymentTypes : [{ paymentType: 'Cash', amount: 0 }];
  return el(
    'ZDagrapport',
    text('ForetagetsNamn', facts.name),
    el('OrganisationsnummerEllerPersonnummer', facts.corporateId),
    el('DatumOchKlockslagNarRapportFramstalls', facts.time(report.produced)),
    el('LopnummerForZDagrapport', String(report.reportNumber ?? report.dayNumber)),
    text('Kassabeteckning', system.cashRegisterName),
    text('TillverkningsnummerForKassaregistret', system.productionNumber ?? facts.context.system.productionNumber, 48),
    text('ModellbeteckningForKassaregistret', system.model ?? facts.context.system.model),
    text('ModellEllerProgramForKassaregistret', system.program ?? facts.context.system.program),
    text('VersionsnummerForKassaregistret', system.version ?? facts.context.system.version),
    num('TotalForsaljningssumma', report.netSales.brutto),
    report.salesPerCategory.length > 0
      ? el(
          'TotalaForsaljningssummorForOlikaHuvudgrupperLISTA',
          ...report.salesPerCategory.map((category) =>
            el(
              'TotalForsaljningssummaForOlikaHuvudgrupper',
              text('NamnPaHuvudgrupp', category.category),
              num('TotalForsaljningssummaForHuvudgrupp', category.brutto),
            ),
          ),
        )
      : null,
    el(
      'MervardesskattPaOlikaSkattesatserLISTA',
      ...rates.map((rate) =>
        el(
          'MervardesskattPerSkattesats',
          num('Mervardesskattesats', rate.vatRate),
          num('TotaltMervardesskattebeloppPerSkattesats', rate.vat),
        ),
      ),
    ),
    num('VaxelkassansBeloppISvenskaKronor', report.cash.deposits),
    el('AntalSaldaVaror', decimal2(report.goods.pieces + report.goods.otherUnits)),
    el('AntalSaldaTjanster', decimal2(report.services.pieces + report.services.otherUnits)),
    el('AntalKassakvitton', String(report.receipts)),
    el('AntalKassaladoppningar', String(report.drawerOpenings)),
    el('AntalKvittokopior', String(report.copies.count)),
    num('TotaltBeloppPaKvittokopior', report.copies.brutto),
    el('AntalKvittonSomTagitsFramIOvningslage', String(report.training.count)),
    num('TotaltBeloppIOvningslage', report.training.brutto),
    el(
      'TotalaForsaljningssummorPerBetalningsmedelLISTA',
      ...payments.map((payment) =>
        el(
          'TotalForsaljningssummaPerBetalningsmedel',
          text('Betalningsmedel', paymentLabel(payment.paymentType)),
          num('ForsaljningssummaPerBetalningsmedel', payment.amount),
        ),
      ),
    ),
    el('AntalReturer', String(report.refunds.count)),
    num('ReturernasBelopp', report.refunds.brutto),
    num('RabatternasBelopp', report.discounts),
    el('AntalOvrigaRegistreringarSomMinskatDagensForsaljningsbelopp', String(report.otherReductions.count)),
    num('TotaltBeloppAvOvrigaRegistreringarSomMinskatDagensForsaljningsbelopp', report.otherReductions.brutto),
    el('AntalOavslutadeForsaljningar', String(report.unfinished.count)),
    num('TotaltBeloppAvOavslutadeForsaljningar', report.unfinished.brutto),
    num('GrandTotalForsaljning', report.grandTotals.sales),
    num('GrandTotalRetur', report.grandTotals.refunds),
    num('GrandTotalNetto', report.grandTotals.net),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// What the register journals (docs/conventions.md §19: one type per event element)

type ArticleData = RegisterEventData['ARTICLE_REGISTERED'];
type PreviousData = RegisterEventData['ARTICLE_CHANGED']['previous'];

function article(data: ArticleData): Xml[] {
  const discounts = data.discounts ?? [];
  return [
    text('IdentitetsbeteckningForRegistreringAvArtiklar', data.lineId),
    el('TypAvArtikel', data.articleType === 'SERVICE' ? 'TJANST' : 'VARA'),
    text('NamnPaHuvudgrupp', data.group),
    text('Artikelnummer', data.articleNumber),
    text('Artikelnamn', data.name),
    el('AntalAvRegistreradArtikel', decimal2(data.quantity)),
    text('MangdAvRegistreradArtikel', data.amount),
    text('EnhetForViktLangdTidEllerVolym', data.unit),
    num('PrisPerEnhet', data.unitPrice),
    num('PrisPaRegistreradArtikel', data.price),
    discounts.length > 0
      ? el(
          'RabatterPaRegistreradArtikelLISTA',
          ...discounts.map((d) =>
            el('RabattPaRegistreradArtikel', text('BenamningPaRabatt', d.name), num('RabattensBelopp', d.amount)),
          ),
        )
      : null,
    num('MervardesskattesatsForRegistreradArtikel', data.vatRate),
    num('MervardesskattPaRegistreradArtikel', data.vat),
  ].filter((part): part is Xml => part !== null);
}

function previous(data: PreviousData): Xml[] {
  const discounts = data.discounts ?? [];
  return [
    el('TidigareAntalAvRegistreradArtikel', decimal2(data.quantity)),
    text('TidigareMangdAvRegistreradArtikel', data.amount),
    text('TidigareEnhetForViktLangdTidEllerVolym', data.unit),
    num('TidigarePrisPerEnhet', data.unitPrice),
    num('TidigarePrisPaRegistreradArtikel', data.price),
    discounts.length > 0
      ? el(
          'TidigareRabatterPaRegistreradArtikelLISTA',
          ...discounts.map((d) =>
            el(
              'TidigareRabattPaRegistreradArtikel',
              text('TidigareBenamningPaRabatt', d.name),
              num('TidigareBeloppPaRabatten', d.amount),
            ),
          ),
        )
      : null,
    num('TidigareMervardesskattesatsForRegistreradArtikel', data.vatRate),
    num('TidigareMervardesskattPaRegistreradArtikel', data.vat),
  ].filter((part): part is Xml => part !== null);
}

/** The events the format records by their kind alone: their element says `JA`. */
const FLAG_ELEMENTS = {
  LOGIN: 'InloggningIKassaregister',
  LOGOUT: 'UtloggningUrKassaregister',
  DRAWER_OPENED: 'OppnaKassaladaVidNollforsaljning',
  CLEAR: 'AnvandaClear',
  TRAINING_MODE_ON: 'StallaOmTillOvningslage',
  TRAINING_MODE_OFF: 'StallaOmTillNormallage',
  REGISTER_STARTED: 'StartAvKassaregister',
  REGISTER_STOPPED: 'StoppAvKassaregister',
  REGISTER_RESTARTED: 'OmstartAvKassaregister',
} as const satisfies Partial<Record<RegisterEventType, string>>;
const isFlagEvent = (type: RegisterEventType): type is keyof typeof FLAG_ELEMENTS => type in FLAG_ELEMENTS;

function registerEvent(facts: Facts, type: RegisterEventType, raw: RegisterEventData[RegisterEventType]): Xml {
  if (isFlagEvent(type)) return flag(FLAG_ELEMENTS[type]);
  const time = (instant: number) => facts.time(instant);
  switch (type) {
    case 'PRICE_ENQUIRY': {
      const d = raw as RegisterEventData['PRICE_ENQUIRY'];
      return el(
        'StallaPrisforfragan',
        text('NamnPaHuvudgrupp', d.group),
        text('Artikelnummer', d.articleNumber),
        text('Artikelnamn', d.name),
        num('PrisPaEfterfragadArtikel', d.price),
      );
    }
    case 'ARTICLE_REGISTERED':
      return el('RegistreraArtikel', ...article(raw as ArticleData));
    case 'ARTICLE_CHANGED': {
      const d = raw as RegisterEventData['ARTICLE_CHANGED'];
      return el(
        'AndraRegistreradArtikel',
        ...article(d),
        ...previous(d.previous),
        el('UrsprungligRegistreringstidpunkt', time(d.originallyRegistered)),
        text('OrsakTillAndring', d.reason),
      );
    }
    case 'ARTICLE_DELETED': {
      const d = raw as RegisterEventData['ARTICLE_DELETED'];
      return el(
        'RaderaRegistreradArtikel',
        ...article(d),
        el('UrsprungligRegistreringstidpunkt', time(d.originallyRegistered)),
        text('TypAvRadering', d.deletionType),
      );
    }
    case 'ARTICLE_PARKED': {
      const d = raw as RegisterEventData['ARTICLE_PARKED'];
      return el('ParkeraRegistreradArtikel', ...article(d), text('IdentitetsbeteckningPaParkering', d.parkingId));
    }
    case 'PARKED_ARTICLE_CHANGED': {
      const d = raw as RegisterEventData['PARKED_ARTICLE_CHANGED'];
      return el(
        'AndraParkeradArtikel',
        ...article(d),
        ...previous(d.previous),
        text('IdentitetsbeteckningPaParkering', d.parkingId),
        el('UrsprungligRegistreringstidpunkt', time(d.originallyRegistered)),
        text('OrsakTillAndring', d.reason),
      );
    }
    case 'PARKED_ARTICLE_DELETED': {
      const d = raw as RegisterEventData['PARKED_ARTICLE_DELETED'];
      return el(
        'RaderaParkeradArtikel',
        ...article(d),
        text('IdentitetsbeteckningPaParkering', d.parkingId),
        el('UrsprungligRegistreringstidpunkt', time(d.originallyRegistered)),
        text('TypAvRadering', d.deletionType),
      );
    }
    case 'PARKED_ARTICLE_MOVED': {
      const d = raw as RegisterEventData['PARKED_ARTICLE_MOVED'];
      return el(
        'FlyttaParkeradArtikel',
        ...article(d),
        text('IdentitetsbeteckningPaParkering', d.parkingId),
        text('IdentitetsbeteckningForTidigareParkering', d.previousParkingId),
      );
    }
    case 'PARKING_OPENED':
      return el(
        'OppnaParkering',
        text('IdentitetsbeteckningPaParkering', (raw as RegisterEventData['PARKING_OPENED']).parkingId),
      );
    case 'PARKING_CLOSED':
      return el(
        'StangaParkering',
        text('IdentitetsbeteckningPaParkering', (raw as RegisterEventData['PARKING_CLOSED']).parkingId),
      );
    case 'CLOCK_CHANGED':
      return el('StallaOmKlockan', el('NyTidVidOmstallningAvKlockan', time((raw as RegisterEventData['CLOCK_CHANGED']).newTime)));
    case 'OTHER_REPORT': {
      const d = raw as RegisterEventData['OTHER_REPORT'];
      return el('OvrigRapport', text('NamnPaOvrigRapport', d.name), text('Sokparameter', d.searchParameters, 256));
    }
    case 'CONTROL_PROGRAM_STATUS':
      return text('StatuskodFranKontrollprogrammet', (raw as RegisterEventData['CONTROL_PROGRAM_STATUS']).statusCode) ?? '';
    default:
      return assertNever(type);
  }
}

function assertNever(type: never): never {
  throw new Error(`no export element for register event ${String(type)}`);
}
