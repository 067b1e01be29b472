import type { JournalUploadBody } from '#schemas/types.ts';
import { type ApiError, inconsistentData, patternMismatch, unprocessable, valueNotValid } from '#shared/errors.ts';
import { emptyExport, periodExport } from '#shared/fiscal/journal-export.ts';
import { MAX_EVENT_CLOCK_SKEW_MS } from '#shared/fiscal/register-events.ts';
import { canonicalJson, entriesWithin, type JournalType, type JsonValue, signedJournal } from '#shared/fiscal/journal.ts';
import { journalPeriod, type LedgerState, readJournalPage, writerOf } from '#shared/fiscal/ledger.ts';
import { writeLedgerOnce } from '#shared/http/idempotency.ts';
import { boolParam, intParam, pageParams } from '#shared/http/query.ts';
import { attachment, ok, okChunks } from '#shared/http/response.ts';
import type { Reply } from '#shared/http/types.ts';
import { activationSigner } from '#shared/signing/signer.ts';
import { config } from '#shared/config.ts';
import { drawerOpenedContribution } from '#shared/fiscal/totals.ts';
import { dayWrite, latestDay, withTotals } from './day-rules.ts';
import { readRegister, registerCounter, type RegisterRequest } from './registers.ts';

/** A device event's `data`, as canonical JSON, is at most this many bytes (docs/conventions.md §19). */
export const MAX_DEVICE_DATA_BYTES = 8192;

/** `GET /{sellerId}/e-journals/{cash}`: the register's journal, oldest first (`orderDesc`: newest first), paged. */
export async function listJournal(request: RegisterRequest): Promise<Reply> {
  const register = readRegister(request);
  await registerCounter(register);
  const { firstResult, maxResults } = pageParams(request.query);
  const descending = boolParam('orderDesc', request.query.get('orderDesc'), false);
  return ok(await readJournalPage(register, { skip: firstResult, take: maxResults, descending }));
}

/** A quantity of a register event: at most two decimals (SKVFS 2021:16 AntalAvRegistreradArtikel). */
const QUANTITY_PATTERN = '^-?\\d+(\\.\\d{1,2})?$';
const quantityPattern = new RegExp(QUANTITY_PATTERN);

/** Refuses a quantity (of the event's line or of the line before a change) with more than two decimals. */
function checkQuantities(data: object): void {
  const quantities: [string, unknown][] = [['data.quantity', (data as { quantity?: unknown }).quantity]];
  const previous = (data as { previous?: { quantity?: unknown } }).previous;
  if (previous) quantities.push(['data.previous.quantity', previous.quantity]);
  for (const [field, quantity] of quantities) {
    if (typeof quantity === 'number' && !quantityPattern.test(String(quantity))) {
      throw patternMismatch(field, quantity, QUANTITY_PATTERN);
    }
  }
}

/** Refuses a `created` later than the server's clock allows. */
function checkNotFuture(created: number, now: number): void {
  const valueMax = now + MAX_EVENT_CLOCK_SKEW_MS;
  if (created > valueMax) {
    throw valueNotValid('VALUE_SHOULD_BE_LESS_THEN', `created must be at most ${valueMax}`, {
      field: 'created',
      actualValue: created,
      valueMax,
    });
  }
}

/** When the register's latest closed day was closed (kept while later days are open); undefined before its first close. */
function latestClose(state: LedgerState): number | undefined {
  if (state.ledger.lastClose !== undefined) return state.ledger.lastClose;
  // A ledger written before it kept the last close: the latest day as stored says it, when it is closed.
  return state.day && !state.day.opened && typeof state.day.close === 'number' ? state.day.close : undefined;
}

/**
 * What the entry of an upload holds: a device event's `data` as sent (with `created` and `treasurer` beside it
 * only when sent); a register event's `{created, treasurer, data}` (`RegisterEventRecord`).
 */
function entryOf(body: JournalUploadBody): { type: JournalType; data: JsonValue } {
  const data = body.data as JsonValue;
  if (body.type === undefined || body.type === 'DEVICE') {
    if (body.created === undefined && body.treasurer === undefined) return { type: 'DEVICE', data };
    return {
      type: 'DEVICE',
      data: {
        ...(body.created === undefined ? {} : { created: body.created }),
        ...(body.treasurer === undefined ? {} : { treasurer: body.treasurer }),
        data,
      },
    };
  }
  return { type: body.type, data: { created: body.created, treasurer: body.treasurer ?? null, data } };
}

/**
 * `POST /{sellerId}/e-journals/{cash}`: the register's own event, appended to its journal (docs/conventions.md
 * §19): a device event (`DEVICE`, any JSON object) or a register event (`LOGIN`, `ARTICLE_REGISTERED`...).
 * A `created` may be at most five minutes ahead of the server's clock, and not before the latest day's close:
 * a closed day never changes.
 */
export function appendJournalEvent(request: RegisterRequest<JournalUploadBody>): Promise<Reply> {
  const register = writerOf(request.principal);
  const { body } = request;
  if (body.type === undefined || body.type === 'DEVICE') {
    const size = Buffer.byteLength(canonicalJson(body.data), 'utf8');
    if (size > MAX_DEVICE_DATA_BYTES) {
      throw valueNotValid('SIZE_SHOULD_BE_LESS_THEN', `data may hold at most ${MAX_DEVICE_DATA_BYTES} bytes of JSON`, {
        field: 'data',
        actualValue: size,
        sizeMax: MAX_DEVICE_DATA_BYTES,
      });
    }
  } else {
    checkQuantities(body.data);
  }
  const { created: createdAt } = body;
  if (createdAt !== undefined) checkNotFuture(createdAt, Date.now());
  const entry = entryOf(body);
  return writeLedgerOnce(
    {
      register,
      apiVersion: request.version,
      reads: [],
      decide: (state) => {
        const close = latestClose(state);
        if (createdAt !== undefined && close !== undefined && createdAt < close) {
          throw unprocessable('DAY_IS_CLOSED', `The day closed at ${close}: an event of ${createdAt} would change it`);
        }
        // A drawer opened without a sale counts in the open day's report (item m); outside a day only the journal has it.
        const open = body.type === 'DRAWER_OPENED' && state.day?.opened ? state.day : undefined;
        const day = open ? withTotals(open, drawerOpenedContribution()) : undefined;
        return {
          result: { status: 201, body: { sequence: state.ledger.journal.sequence + 1 } },
          entities: day ? [dayWrite(register, { day, seen: open })] : [],
          ledger: day ? { ...state.ledger, day: latestDay(day) } : state.ledger,
          events: [{ ...entry, dayNumber: state.ledger.day?.dayNumber ?? null }],
        };
      },
    },
    request.idempotency,
  );
}

/**
 * What a generated e-journal's answer holds besides its entries, at most: the seller and register names, `generated`,
 * the head, the signature (an ECDSA P-256 DER signature in base64, at most 96 characters) and the key's file name.
 */
const JOURNAL_ENVELOPE_BYTES = 1024;

/**
 * 409 InconsistentData SERVER_IS_OVERLOADED: the period's entries do not fit in one answer; the longest period from
 * `from` that does ends at `to` (docs/conventions.md §19).
 */
function periodTooLong(from: number | undefined, to: number): ApiError {
  const start = from === undefined ? "the journal's start" : String(from);
  return inconsistentData(
    'SERVER_IS_OVERLOADED',
    `The period's entries do not fit in one answer; the longest period from ${start} that fits ends at ${to}: ask for ` +
      `${from === undefined ? '' : `from=${from}&`}to=${to}, then for the rest`,
    { from: from ?? null, to },
  );
}

/**
 * `GET /{sellerId}/generated-e-journals/{cash}` (v33): the chain, or the entries created from `from` to `to`, with its
 * head signed by the service's key, for offline verification (`npm run verify-journal`). Only the period is read, and
 * at most one answer's worth of it: a longer period is `periodTooLong`.
 */
export async function generatedJournal(request: RegisterRequest): Promise<Reply> {
  const register = readRegister(request);
  await registerCounter(register);
  const from = intParam('from', request.query.get('from'));
  const to = intParam('to', request.query.get('to'));
  const within = await entriesWithin(journalPeriod(register, { from, to }), config().maxResponseBytes - JOURNAL_ENVELOPE_BYTES);
  if ('longestTo' in within) throw periodTooLong(from, within.longestTo);
  return ok(
    await signedJournal(within.entries, activationSigner(), {
      sellerId: register.sellerId,
      cashRegisterName: register.cash,
      generated: Date.now(),
    }),
  );
}

/**
 * `GET /v33/{sellerId}/registrations/{cash}/journal-export` (docs/conventions.md §19): the journal of the period `from`
 * to `to` (Dates; either may be left out) as Skatteverket's SKVFS 2021:16 document, made as the journal is read, a page
 * at a time. 404 when the period holds no event the format records; 409 JOURNAL_EXPORT_INCOMPLETE naming a missing fact.
 */
export async function journalExport(request: RegisterRequest): Promise<Reply> {
  const register = readRegister(request);
  const period = {
    from: intParam('from', request.query.get('from')) ?? null,
    to: intParam('to', request.query.get('to')) ?? null,
  };
  // The counter's read refuses a register the seller lacks; the document's context is read beside it.
  const [, made] = await Promise.all([registerCounter(register), periodExport(register, period, Date.now())]);
  const reply = await okChunks(
    made.chunks,
    'application/xml; charset=UTF-8',
    request.headers['accept-encoding'],
    config().maxResponseBytes,
  );
  const fileName = made.fileName();
  if (!reply || fileName === undefined) throw emptyExport(register);
  return { ...reply, headers: { ...reply.headers, 'Content-Disposition': attachment(fileName) } };
}
