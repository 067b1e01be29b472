import type { BodyTypes } from '#schemas/types.ts';
import { readItem } from '#shared/db/reads.ts';
import type { Stored } from '#shared/db/streams.ts';
import { notFound, typeMismatch } from '#shared/errors.ts';
import { businessDate, periodStart, timeZoneOf } from '#shared/fiscal/dates.ts';
import {
  type DayRecord,
  dayKey,
  type LedgerDecision,
  type LedgerState,
  productPieces,
  readDayBreakdown,
  readDays,
  readDaysDiff,
  type Register,
  writerOf,
} from '#shared/fiscal/ledger.ts';
import { writeLedgerOnce } from '#shared/http/idempotency.ts';
import { type FiscalContext, fiscalContextBeside, readFiscalContext } from '#shared/fiscal/context.ts';
import { buildReport, type Report } from '#shared/fiscal/report.ts';
import { paymentTypeIn } from '#shared/fiscal/payment-types.ts';
import type { ApiVersion } from '#shared/versions.ts';
import { type ExportContext, readExportContext } from '#shared/fiscal/export-context.ts';
import { journalData, type JournalDayClosed } from '#shared/fiscal/journal-records.ts';
import { reportHtml, reportText } from '#shared/fiscal/report-render.ts';
import { type Breakdown, unprintedSales } from '#shared/fiscal/totals.ts';
import { checkPreconditions, preconditions, unchangedSince } from '#shared/http/conditions.ts';
import { diffRange, intParam, notNegative, pageParams } from '#shared/http/query.ts';
import { negotiated } from '#shared/http/negotiate.ts';
import { created, noContent, notModified, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { dayWrite, latestDay, newDay } from './day-rules.ts';
import { dayRefusal } from './refusals.ts';
import {
  readRegister,
  registerCounter,
  type RegisterAheadRequest,
  registerReadsAhead,
  type RegisterRequest,
} from './registers.ts';
import { dayFromBody, dayMinified, dayView } from './views.ts';

type DayBody = BodyTypes['day'];

/** The register's days (newest last), of the last `period` days when one is given, paged. */
async function daysOf(request: RegisterRequest, register: Register): Promise<Stored<DayRecord>[]> {
  await registerCounter(register);
  const page = pageParams(request.query);
  const period = intParam('period', request.query.get('period'));
  if (period !== undefined) notNegative('period', period);
  const days = await readDays(register);
  const since = period === undefined ? 0 : periodStart(Math.max(period, 1), timeZoneOf(register.sellerId), Date.now());
  return days.filter((day) => day.date >= since).slice(page.firstResult, page.firstResult + page.maxResults);
}

/** `GET /{sellerId}/days` (v15): `{id, date}` of a register's days. */
export async function listDaysV15(request: RegisterRequest): Promise<Reply> {
  return ok((await daysOf(request, readRegister(request))).map(dayMinified));
}

/** `GET .../registrations/{cash}/days`. */
export async function listDays(request: RegisterRequest): Promise<Reply> {
  return ok((await daysOf(request, readRegister(request))).map((day) => dayView(day, request.version)));
}

/** `GET .../registrations/{cash}/days-minified`. */
export async function listDaysMinified(request: RegisterRequest): Promise<Reply> {
  return ok((await daysOf(request, readRegister(request))).map(dayMinified));
}

/** `GET .../registrations/{cash}/days-diff/{versionFrom}/{versionTo}` (docs/conventions.md §14). */
export async function daysDiff(request: ApiRequest<unknown, 'sellerId' | 'cash' | 'versionFrom' | 'versionTo'>): Promise<Reply> {
  const register = { sellerId: request.params.sellerId, cash: request.params.cash };
  const counter = await registerCounter(register);
  const changed = await readDaysDiff(register, diffRange(request.params), counter);
  return ok(changed.map((day) => dayView(day, request.version)));
}

/** `POST /{sellerId}/days` (v26, v33): opens the register's next day (docs/conventions.md §17). */
export function openDay(request: RegisterRequest<DayBody>): Promise<Reply> {
  const register = writerOf(request.principal);
  const refuse = (condition: 'DAY_IS_NOT_CLOSED' | 'REPORT_IS_NOT_PRINTED') => dayRefusal('dayOpen', condition, request.version);
  return writeLedgerOnce(
    {
      register,
      apiVersion: request.version,
      reads: [],
      decide: (state, _read, now) => {
        if (state.ledger.day?.opened) throw refuse('DAY_IS_NOT_CLOSED');
        if (state.ledger.day && !state.ledger.day.reportPrinted) throw refuse('REPORT_IS_NOT_PRINTED');
        const date = businessDate(now, timeZoneOf(register.sellerId));
        const day = { ...newDay(state, date, now), ...dayFromBody(request.body) };
        return {
          result: created(String(day.dayNumber)),
          entities: [dayWrite(register, { day, seen: undefined })],
          ledger: { ...state.ledger, day: latestDay(day) },
          events: [{ type: 'DAY_OPENED', dayNumber: day.dayNumber, data: { date } }],
        };
      },
    },
    request.idempotency,
  );
}

/** `PUT /{sellerId}/days/{identifier}` (v26, v33): names the closing treasurer; `opened: false` closes the day. */
export async function updateDay(request: RegisterRequest<DayBody> & { params: Record<'identifier', string> }): Promise<Reply> {
  const register = writerOf(request.principal);
  const dayNumber = Number(request.params.identifier);
  if (!Number.isSafeInteger(dayNumber) || dayNumber < 1)
    throw typeMismatch('identifier', 'a day number', request.params.identifier);
  const conditions = preconditions(request.headers);
  const change = dayFromBody(request.body);
  // A closing freezes the register's export context into its journal entry; read before the write, as it is no part of it.
  const context = change.opened === false ? await readExportContext(register) : undefined;
  return writeOnDay(request, register, dayNumber, async (day, state, now) => {
    checkPreconditions(conditions, day.version);
    if (!day.opened) throw dayRefusal('dayOpen', 'DAY_IS_CLOSED', request.version);
    const named = { ...day, closedDayTreasurer: change.closedDayTreasurer ?? day.closedDayTreasurer ?? null };
    // The context is read exactly when the body closes the day.
    if (context) return closing({ ...state, day: named }, register, request.version, now, noContent(), context);
    return {
      result: noContent(),
      entities: [dayWrite(register, { day: named, seen: day })],
      ledger: state.ledger,
      events: [],
    };
  });
}

/** A fiscal write decided on one stored day of the register (404 NotFound when it has no such day). */
function writeOnDay(
  request: RegisterRequest,
  register: Register,
  dayNumber: number,
  decide: (day: Stored<DayRecord>, state: LedgerState, now: number) => LedgerDecision<Reply> | Promise<LedgerDecision<Reply>>,
): Promise<Reply> {
  return writeLedgerOnce(
    {
      register,
      apiVersion: request.version,
      reads: [dayKey(register, dayNumber)],
      decide: (state, read, now) => {
        const day = read(dayKey(register, dayNumber));
        if (!day) throw notFound(`No day ${dayNumber}`);
        return decide(day, state, now);
      },
    },
    request.idempotency,
  );
}

/** `POST .../days/current`: closes the open day (docs/conventions.md §17). */
export async function closeDay(request: RegisterRequest): Promise<Reply> {
  const register = writerOf(request.principal);
  const context = await readExportContext(register);
  return writeLedgerOnce(
    {
      register,
      apiVersion: request.version,
      reads: [],
      decide: (state, _read, now) => closing(state, register, request.version, now, { status: 201 }, context),
    },
    request.idempotency,
  );
}

/**
 * Closing the open day: refused with none open (`DAY_IS_CLOSED`) or while a sold sale of the day has no
 * Normal receipt (`RECEIPT_IS_NOT_PRINTED`). The day is frozen with its cash and the register's grand totals; its
 * journal entry keeps its Z report and the register's export context (docs/conventions.md §19). The report's
 * categories come from the day's sales, read on this attempt's read of the ledger: a sale written meanwhile moves
 * the counter, so the close is decided again.
 */
async function closing(
  state: LedgerState,
  register: Register,
  version: ApiRequest['version'],
  now: number,
  result: Reply,
  context: ExportContext,
): Promise<LedgerDecision<Reply>> {
  const open = state.day;
  if (!open?.opened || !state.ledger.day?.opened) throw dayRefusal('close', 'DAY_IS_CLOSED', version);
  if (unprintedSales(open.totals) > 0) throw dayRefusal('close', 'RECEIPT_IS_NOT_PRINTED', version);
  const { groups, products } = await readDayBreakdown(register, open);
  // A closed day never changes again: its item keeps its sales per category (as bounded as its journalled Z report),
  // so a Z report reads no sales, and its products go in pieces of their own, so statistics read no sales either.
  const pieces = productPieces(register, open.dayNumber, products);
  const day: DayRecord = {
    ...open,
    totals: { ...open.totals, groups },
    ...(pieces.pieces === undefined ? {} : { productPieces: pieces.pieces }),
    opened: false,
    close: now,
    cashAtClose: open.cash,
    grandTotal: state.ledger.grand.sales,
    grandTotalRefund: state.ledger.grand.refunds,
  };
  return {
    result:
      result.status === 201
        ? { status: 201, body: dayView({ ...day, version: state.version + 1, modified: now }, version) }
        : result,
    entities: [dayWrite(register, { day, seen: open })],
    alongside: pieces.steps,
    ledger: { ...state.ledger, day: latestDay(day), lastClose: now },
    events: [
      {
        type: 'DAY_CLOSED',
        dayNumber: day.dayNumber,
        amount: day.cashAtClose,
        data: journalData(closingRecord(day, groups, now, context)),
      },
    ],
  };
}

/** What a closing's journal entry keeps: the grand totals, the Z report as produced at the close, the export context. */
function closingRecord(day: DayRecord, groups: Breakdown['groups'], now: number, context: ExportContext): JournalDayClosed {
  const grandTotals = { sales: day.grandTotal ?? 0, refunds: day.grandTotalRefund ?? 0 };
  const { company, system } = context;
  const report = buildReport({
    seller: { name: company.name, corporateId: company.corporateId, address: company.address, country: company.country },
    register: {
      cashRegisterName: system.cashRegisterName,
      productionNumber: system.productionNumber,
      controlUnitSerial: system.controlUnitSerial,
    },
    day,
    totals: { ...day.totals, groups },
    grandTotals,
    produced: now,
  });
  return { grandTotal: grandTotals.sales, grandTotalRefund: grandTotals.refunds, report, context };
}

/** A report's path: it names the day by `{dayIdentifier}` (v26, v33) or `{dayId}` (v15). */
type ReportParams = { params: Partial<Record<'dayId' | 'dayIdentifier', string>> };
type ReportRequest = RegisterRequest & ReportParams;

const rawDayNumber = ({ params }: ReportParams): string => params.dayIdentifier ?? params.dayId ?? '';

/** The day number a report's path names; undefined when it names none. */
const dayNumberIn = (request: ReportParams): number | undefined => {
  const raw = rawDayNumber(request);
  return /^\d{1,15}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : undefined;
};

const reportDayNumber = (request: ReportRequest): number => {
  const dayNumber = dayNumberIn(request);
  if (dayNumber === undefined) throw typeMismatch('dayIdentifier', 'a day number', rawDayNumber(request));
  return dayNumber;
};

/** What a report read reads first: the register's registration and counter, the day, the report's context. */
export const reportReadAhead = registerReadsAhead((register, context, request: RegisterAheadRequest & ReportParams) => {
  const dayNumber = dayNumberIn(request);
  return [...(dayNumber === undefined ? [] : [dayKey(register, dayNumber)]), ...context];
});

/**
 * `GET .../days/{id}/report`: the X report of the open day, the Z report of a closed one (docs/conventions.md §17), as
 * JSON, text for a receipt printer or an HTML page per `Accept`.
 */
export async function getReport(request: ReportRequest): Promise<Reply> {
  const register = readRegister(request);
  const counter = await registerCounter(register);
  const day = await readItem(dayKey(register, reportDayNumber(request)));
  if (!day) throw notFound(`No day ${reportDayNumber(request)}`);
  if (unchangedSince(request.headers, day.version)) return notModified(day.version);
  const grand = counter.ledger?.grand ?? { sales: 0, refunds: 0 };
  const [context, groups] = await Promise.all([readFiscalContext(register), groupsOf(register, day)]);
  const built = reportOf(context, day, groups, grand, Date.now());
  const rendering = { currency: context.seller.currency, timeZone: context.timeZone };
  return negotiated(
    request.headers,
    reportIn(built, request.version),
    { text: () => reportText(built, rendering), html: () => reportHtml(built, rendering) },
    { etag: day.version },
  );
}

/** `POST .../days/{id}/report`: prints the closed day's Z report, once. */
export function printReport(request: ReportRequest): Promise<Reply> {
  const register = writerOf(request.principal);
  const dayNumber = reportDayNumber(request);
  const context = fiscalContextBeside(register);
  return writeOnDay(request, register, dayNumber, async (day, state, now) => {
    if (day.opened) throw dayRefusal('report', 'DAY_IS_NOT_CLOSED', request.version);
    if (day.reportPrinted) throw dayRefusal('report', 'REPORT_IS_PRINTED_ALREADY', request.version);
    const next = { ...day, reportPrinted: true };
    const latest = state.ledger.day?.dayNumber === dayNumber ? latestDay(next) : state.ledger.day;
    const built = reportOf(await context, next, await groupsOf(register, next), state.ledger.grand, now);
    return {
      result: { status: 201, body: reportIn(built, request.version) },
      entities: [dayWrite(register, { day: next, seen: day })],
      ledger: { ...state.ledger, ...(latest ? { day: latest } : {}) },
      events: [{ type: 'REPORT_PRINTED', dayNumber, amount: day.totals.sold.brutto }],
    };
  });
}

/** The report as `version` names payment types (v15 and v26: `Card`, `ProviderD`), as its sales read back. */
const reportIn = (report: Report, version: ApiVersion) => ({
  ...report,
  paymentTypes: report.paymentTypes.map((sums) => ({ ...sums, paymentType: paymentTypeIn(sums.paymentType, version) })),
});

/**
 * The report of a day: its seller, register and control unit as they are now (`readFiscalContext`), its totals as stored,
 * and its sales per category (`groupsOf`).
 */
function reportOf(
  context: FiscalContext,
  day: DayRecord,
  groups: Breakdown['groups'],
  grand: { sales: number; refunds: number },
  produced: number,
): Report {
  return buildReport({
    seller: {
      name: context.seller.name,
      corporateId: context.seller.corporateId,
      address: context.seller.address,
      country: context.seller.country,
    },
    register: context.register,
    day,
    totals: { ...day.totals, groups },
    grandTotals: day.opened ? grand : { sales: day.grandTotal ?? 0, refunds: day.grandTotalRefund ?? 0 },
    produced,
  });
}

/** An open day's sales per category from its sales (`readDayBreakdown`), a closed day's as its close kept them. */
const groupsOf = async (register: Register, day: Stored<DayRecord>): Promise<Breakdown['groups']> =>
  day.totals.groups ?? (await readDayBreakdown(register, day)).groups;
