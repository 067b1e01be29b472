import type { ExportJob } from '#shared/exports/jobs.ts';
import { coverageOf } from '#shared/stats/coverage.ts';
import { periodSales, salesCsvChunks } from '#shared/stats/sales-csv.ts';
import type { ExportFile } from './journal.ts';

const textOf = (value: string | number | null | undefined) => (value === null || value === undefined ? null : String(value));

/**
 * A seller's sales of the job's parameters as the bookkeeper's CSV, `GET .../sales/stats/csv`'s (shared/stats), read as
 * of the time the export was asked for. A CSV is never empty: it has its header.
 */
export async function salesCsvFile(job: ExportJob): Promise<ExportFile> {
  const { params } = job;
  const covered = await coverageOf(
    String(params.sellerId),
    {
      period: textOf(params.period),
      from: textOf(params.from),
      to: textOf(params.to),
      cashRegisterName: textOf(params.cashRegisterName),
    },
    job.created,
  );
  const fileName = `${String(params.fileName)}.csv.gz`;
  return { chunks: salesCsvChunks(await periodSales(covered)), fileName: () => fileName };
}
