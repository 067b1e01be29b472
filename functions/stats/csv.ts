/**
 * `GET /{sellerId}/sales/stats/csv` (v33; docs/conventions.md §20): the sales CSV of the period
 * (`shared/stats/sales-csv.ts`) as one reply, its sales counted first so that an over-long export is refused
 * before any sale is read.
 */
import { inconsistentData } from '#shared/errors.ts';
import { checkIdentifier } from '#shared/http/params.ts';
import { attachment, okText } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { countSales, periodSales, salesCsvChunks } from '#shared/stats/sales-csv.ts';
import { coverage } from './period.ts';

/** The most rows an export holds: about 5 MB of CSV, inside what one HTTP reply can carry. */
export const MAX_CSV_ROWS = 20_000;
/** The download's name without `.csv` when the request names none. */
export const DEFAULT_FILE_NAME = 'sales';

/** `GET /{sellerId}/sales/stats/csv`: `fileName` names the download (an identifier; default `sales`). */
export async function salesCsvFile(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const fileName = request.query.get('fileName') || DEFAULT_FILE_NAME;
  checkIdentifier('fileName', fileName);
  const sales = await periodSales(await coverage(request));
  const total = await countSales(sales, MAX_CSV_ROWS);
  if (total > MAX_CSV_ROWS) {
    throw inconsistentData(
      'SERVER_IS_OVERLOADED',
      `The period has more than ${MAX_CSV_ROWS} sales (${total} counted), more than one answer holds: ask for a shorter ` +
        'period or one register, or for an export (POST .../sales/stats/csv-exports)',
      { rows: total, maxRows: MAX_CSV_ROWS },
    );
  }
  let csv = '';
  for await (const chunk of salesCsvChunks(sales)) csv += chunk;
  return { ...okText(csv, 'text/csv; charset=UTF-8'), headers: { 'Content-Disposition': attachment(`${fileName}.csv`) } };
}
