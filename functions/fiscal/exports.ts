/**
 * A register's journal exports as jobs (docs/conventions.md §28): `POST`, `GET` one, `GET` the list under
 * `/{sellerId}/registrations/{cash}/journal-exports`. The same callers as the synchronous export; the worker
 * (functions/exports) writes the document the synchronous route answers.
 */
import type { JournalExportOrderBody } from '#schemas/types.ts';
import { registerPk } from '#shared/domain/records.ts';
import { askExport, type ExportOwner, exportList, exportState } from '#shared/exports/answers.ts';
import { pageParams } from '#shared/http/query.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { readRegister, registerCounter, type RegisterRequest } from './registers.ts';

/** The register's journal exports; the read of its counter refuses a register the seller lacks, as the export does. */
async function ownerOf(request: RegisterRequest<unknown>): Promise<ExportOwner> {
  const register = readRegister(request);
  await registerCounter(register);
  const base = `/v${request.version}/${encodeURIComponent(register.sellerId)}/registrations/${encodeURIComponent(register.cash)}`;
  return {
    pk: registerPk(register.sellerId, register.cash),
    kind: 'journal',
    location: (id) => `${base}/journal-exports/${id}`,
  };
}

/** `POST .../journal-exports` `{from, to}`. */
export async function startJournalExport(request: RegisterRequest<JournalExportOrderBody>): Promise<Reply> {
  const owner = await ownerOf(request);
  const { sellerId, cash } = readRegister(request);
  const from = request.body.from ?? null;
  const to = request.body.to ?? null;
  return askExport(owner, { from, to, key: `${from ?? ''}_${to ?? ''}` }, { sellerId, cash });
}

/** `GET .../journal-exports/{exportId}`. */
export async function readJournalExport(request: ApiRequest<unknown, 'sellerId' | 'cash' | 'exportId'>): Promise<Reply> {
  return exportState(await ownerOf(request), request.params.exportId);
}

/** `GET .../journal-exports`: newest first, paged. */
export async function listJournalExports(request: RegisterRequest): Promise<Reply> {
  return exportList(await ownerOf(request), pageParams(request.query));
}
