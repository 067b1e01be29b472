/**
 * `GET /{sellerId}/sales/stats/csv` (v33; docs/conventions.md §20): the sales of the period, one row per sale,
 * as RFC 4180 CSV for a bookkeeper. The one statistics read that reads sales: per register, the version range
 * of its period's days in its stream's version index (a day's sales are written only while it is open, so
 * they lie between its opening version and the next day's), counted first so that an over-long export is
 * refused before any sale is read.
 */
import { readItem } from '#shared/db/reads.ts';
import { countDiff, readDiff } from '#shared/db/streams.ts';
import { inconsistentData } from '#shared/errors.ts';
import { countsAsPaid } from '#shared/fiscal/arithmetic.ts';
import { registerStream, SALE, registerKeys } from '#shared/fiscal/ledger.ts';
import { PAYMENT_TYPES, type Sale } from '#shared/fiscal/model.ts';
import { checkIdentifier } from '#shared/http/params.ts';
import { okText } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { coverage, type RegisterDays } from './period.ts';
import { formatDate, formatInstant } from './times.ts';

/** The most rows an export holds: about 5 MB of CSV, inside what one HTTP reply can carry. */
export const MAX_CSV_ROWS = 20_000;
const DEFAULT_FILE_NAME = 'sales';

/** A sale with where it was recorded. */
interface Row {
  cash: string;
  date: number;
  sale: Sale;
}

/** The version range (from, to] of a register's sales of the period, if it has days in it. */
async function saleRange({ register, days, next }: RegisterDays): Promise<{ from: number; to: number } | undefined> {
  const first = days[0];
  if (!first) return undefined;
  const to = next ? next.openVersion - 1 : ((await readItem(registerKeys.counter(register.sellerId, register.cash)))?.ver ?? 0);
  return { from: first.openVersion - 1, to };
}

/** The period's sales, register by register (name order), each register's in the order it recorded them. */
async function rowsOf(registers: readonly RegisterDays[]): Promise<Row[]> {
  const ranges = await Promise.all(registers.map(saleRange));
  const counts = await Promise.all(
    registers.map((covered, index) => {
      const range = ranges[index];
      return range ? countDiff(registerStream(covered.register), SALE, range.from, range.to) : { changed: 0, deleted: 0 };
    }),
  );
  const total = counts.reduce((sum, count) => sum + count.changed, 0);
  if (total > MAX_CSV_ROWS) {
    throw inconsistentData(
      'SERVER_IS_OVERLOADED',
      `The period has ${total} sales; an export holds at most ${MAX_CSV_ROWS}: ask for a shorter period or one register`,
      { rows: total, maxRows: MAX_CSV_ROWS },
    );
  }
  const read = await Promise.all(
    registers.map(async (covered, index) => {
      const range = ranges[index];
      if (!range) return [];
      const dates = new Map(covered.days.map((day) => [day.dayNumber, day.date]));
      const sales = await readDiff<Sale>(registerStream(covered.register), SALE, range);
      return sales.map((sale) => ({ cash: covered.register.cash, date: dates.get(sale.day) ?? 0, sale }));
    }),
  );
  return read.flat();
}

/** A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) is shown as text, `'` first. */
const neutralised = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** An RFC 4180 field: quoted, with its quotes doubled, when it holds a comma, a quote or a line break. */
export function csvCell(value: string | number | null | undefined): string {
  const text = neutralised(value === null || value === undefined ? '' : String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: readonly (string | number | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A VAT rate in hundredths of a percent as a column name: 2500 -> `vat 25%`, 1250 -> `vat 12.5%`. */
const rateColumn = (rate: number) => `vat ${rate / 100}%`;

/** The CSV: a header row, then one row per sale; a column per VAT rate and per payment type the period has. */
export function salesCsv(rows: readonly Row[], timeZone: string): string {
  const rates = [...new Set(rows.flatMap(({ sale }) => sale.vatRateSums.map((sum) => sum.vatRate)))].sort((a, b) => a - b);
  const counting = (sale: Sale) => sale.payments.filter(countsAsPaid);
  const types = PAYMENT_TYPES.filter((type) => rows.some(({ sale }) => counting(sale).some((p) => p.paymentType === type)));
  const header = [
    'date',
    'time',
    'cashRegisterName',
    'dayNumber',
    'receiptNumber',
    'identifier',
    'type',
    'state',
    'brutto',
    'vat',
    ...rates.map(rateColumn),
    ...types,
    'sellerIdentifier',
    'treasurer',
  ];
  const lines = rows.map(({ cash, date, sale }) => {
    const time = sale.close ?? sale.recorded;
    const sumOf = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
    return csvLine([
      formatDate(date),
      time == null ? '' : formatInstant(time, timeZone),
      cash,
      sale.day,
      sale.prints.find((print) => print.printType === 'Normal')?.receiptNumber ?? '',
      sale.identifier,
      sale.refund ? 'refund' : 'sale',
      sale.saleState,
      sale.brutto,
      sale.vat,
      ...rates.map((rate) => sumOf(sale.vatRateSums.filter((sum) => sum.vatRate === rate).map((sum) => sum.vat))),
      ...types.map((type) => sumOf(counting(sale).flatMap((p) => (p.paymentType === type ? [p.amount] : [])))),
      sale.sellerIdentifier,
      sale.treasurer,
    ]);
  });
  return csvLine(header) + lines.join('');
}

/**
 * `Content-Disposition` for a file name (an identifier, so no quote, backslash or control character): the
 * name itself, and for a name beyond ASCII an ASCII stand-in plus the UTF-8 name (RFC 6266).
 */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_');
  const plain = `attachment; filename="${ascii}.csv"`;
  return ascii === fileName ? plain : `${plain}; filename*=UTF-8''${encodeURIComponent(`${fileName}.csv`)}`;
}

/** `GET /{sellerId}/sales/stats/csv`: `fileName` names the download (an identifier; default `sales`). */
export async function salesCsvFile(request: ApiRequest<unknown, 'sellerId'>): Promise<Reply> {
  const fileName = request.query.get('fileName') || DEFAULT_FILE_NAME;
  checkIdentifier('fileName', fileName);
  const covered = await coverage(request);
  const csv = salesCsv(await rowsOf(covered.registers), covered.timeZone);
  return { ...okText(csv, 'text/csv; charset=UTF-8'), headers: { 'Content-Disposition': disposition(fileName) } };
}
