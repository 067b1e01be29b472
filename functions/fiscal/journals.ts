import type { JournalUploadBody } from '#schemas/types.ts';
import { registerPk } from '#shared/db/keys.ts';
import { queryEach, readPage } from '#shared/db/reads.ts';
import { notFound, valueNotValid } from '#shared/errors.ts';
import { readExportContext } from '#shared/fiscal/export-context.ts';
import { exportFileName, type ExportSummary, skvfsExport } from '#shared/fiscal/skvfs-export.ts';
import { canonicalJson, type JournalEntry, signedJournal } from '#shared/fiscal/journal.ts';
import { writeLedger } from '#shared/fiscal/ledger.ts';
import { boolParam, intParam, pageParams } from '#shared/http/query.ts';
import { created, ok, okChunks } from '#shared/http/response.ts';
import type { Reply } from '#shared/http/types.ts';
import { activationSigner } from '#shared/signing/signer.ts';
import type { Register } from '#shared/fiscal/ledger.ts';
import { readRegister, registerCounter, type RegisterRequest, writingRegister } from './registers.ts';

/** A device event's `data`, as canonical JSON, is at most this many bytes (docs/conventions.md §19). */
export const MAX_DEVICE_DATA_BYTES = 8192;

const JOURNAL = 'JOURNAL#';

/** The register's journal entries as stored, without their keys, in sequence order, read a page at a time. */
async function* entriesOf(register: Register): AsyncGenerator<JournalEntry> {
  const items = queryEach<JournalEntry>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': registerPk(register.sellerId, register.cash), ':prefix': JOURNAL },
  });
  for await (const { pk, sk, ...entry } of items) yield entry;
}

/** `GET /{sellerId}/e-journals/{cash}`: the register's journal, oldest first (`orderDesc`: newest first), paged. */
export async function listJournal(request: RegisterRequest): Promise<Reply> {
  const register = readRegister(request);
  await registerCounter(register);
  const { firstResult, maxResults } = pageParams(request.query);
  const descending = boolParam('orderDesc', request.query.get('orderDesc'), false);
  const page = await readPage<JournalEntry>(registerPk(register.sellerId, register.cash), JOURNAL, {
    skip: firstResult,
    take: maxResults,
    descending,
  });
  return ok(page.map(({ pk, sk, ...entry }) => entry));
}

/** `POST /{sellerId}/e-journals/{cash}`: the register's own device event, appended as a `DEVICE` entry. */
export function appendDeviceEvent(request: RegisterRequest<JournalUploadBody>): Promise<Reply> {
  const register = writingRegister(request);
  const size = Buffer.byteLength(canonicalJson(request.body.data), 'utf8');
  if (size > MAX_DEVICE_DATA_BYTES) {
    throw valueNotValid('SIZE_SHOULD_BE_LESS_THEN', `data may hold at most ${MAX_DEVICE_DATA_BYTES} bytes of JSON`, {
      field: 'data',
      actualValue: size,
      sizeMax: MAX_DEVICE_DATA_BYTES,
    });
  }
  return writeLedger({
    register,
    apiVersion: request.version,
    reads: [],
    decide: (state) => ({
      result: { ...created(), body: { sequence: state.ledger.journal.sequence + 1 } },
      entities: [],
      ledger: state.ledger,
      events: [
        { type: 'DEVICE', dayNumber: state.ledger.day?.dayNumber ?? null, data: request.body.data as JournalEntry['data'] },
      ],
    }),
  });
}

/**
 * `GET /{sellerId}/generated-e-journals/{cash}` (v33): the chain, or the entries created from `from` to
 * `to`, with its head signed by the service's key, for offline verification (`npm run verify-journal`).
 */
export async function generatedJournal(request: RegisterRequest): Promise<Reply> {
  const register = readRegister(request);
  await registerCounter(register);
  const from = intParam('from', request.query.get('from')) ?? Number.MIN_SAFE_INTEGER;
  const to = intParam('to', request.query.get('to')) ?? Number.MAX_SAFE_INTEGER;
  const entries: JournalEntry[] = [];
  for await (const entry of entriesOf(register)) if (entry.created >= from && entry.created <= to) entries.push(entry);
  return ok(
    await signedJournal(entries, activationSigner(), {
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
  await registerCounter(register);
  const period = {
    from: intParam('from', request.query.get('from')) ?? null,
    to: intParam('to', request.query.get('to')) ?? null,
  };
  const context = await readExportContext(register);
  const summary: ExportSummary = { period: null, events: 0 };
  const chunks = skvfsExport(context, entriesOf(register), period, Date.now(), summary);
  const reply = await okChunks(chunks, 'application/xml; charset=UTF-8', request.headers['accept-encoding']);
  if (!reply || !summary.period) throw notFound(`Register ${register.cash} journaled nothing the export records in the period`);
  const fileName = exportFileName(summary.period, context.timeZone);
  return { ...reply, headers: { ...reply.headers, 'Content-Disposition': `attachment; filename="${fileName}"` } };
}
