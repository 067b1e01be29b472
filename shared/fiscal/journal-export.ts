/**
 * The SKVFS 2021:16 document of a register's period (docs/conventions.md §19), made as the journal is read a page at a
 * time: one home for the synchronous route's answer and the export job's file (docs/conventions.md §28), which are the
 * same document but for their time stamps.
 */
import { notFound } from '#shared/errors.ts';
import { readExportContext } from './export-context.ts';
import { journalPeriod, type Register } from './ledger.ts';
import { MAX_EVENT_CLOCK_SKEW_MS } from './register-events.ts';
import { exportFileName, type ExportPeriod, type ExportSummary, skvfsExport } from './skvfs-export.ts';

/** A document being made: its text, and once it is read through, the name of its file (undefined: it was empty). */
export interface PeriodExport {
  chunks: AsyncGenerator<string>;
  fileName(): string | undefined;
}

/**
 * The document of `period` made at `exported`. Its context (the seller, registration, activation, unit) is read first,
 * so a missing fact is refused before anything is written; the journal is read as the chunks are taken.
 */
export async function periodExport(register: Register, period: ExportPeriod, exported: number): Promise<PeriodExport> {
  const context = await readExportContext(register);
  const summary: ExportSummary = { period: null };
  // A register event in the period was journaled at most MAX_EVENT_CLOCK_SKEW_MS before its own time, and the export
  // reads on past `to` to the next close itself (skvfs-export.ts): no earlier entry can land in the document.
  const entries = journalPeriod(register, { from: period.from === null ? undefined : period.from - MAX_EVENT_CLOCK_SKEW_MS });
  return {
    chunks: skvfsExport(context, entries, period, exported, summary),
    fileName: () => (summary.period ? exportFileName(summary.period, context.timeZone) : undefined),
  };
}

/** 404: the period holds no event the format records. */
export const emptyExport = (register: Register) =>
  notFound(`Register ${register.cash} journaled nothing the export records in the period`);
