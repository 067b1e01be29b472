/**
 * The sales CSV (docs/conventions.md §20): the sales of a statistics read's period, one row per sale, as RFC 4180
 * CSV for a bookkeeper. Per register, its sales are the version range of its period's days in its stream's version
 * index (a day's sales are written only while it is open, so they lie between its opening version and the next
 * day's). Written a piece at a time, holding one page of sales, so a route's reply and an export job's file of any
 * length are the same text: the header names a column per VAT rate and per payment type the period has, so the
 * sales are read twice, first for the header, then for the rows.
 */
import { checkRange, countDiff, eachVersion, liveCounter, readCounter } from '#shared/db/streams.ts';
import { countsAsPaid } from '#shared/fiscal/arithmetic.ts';
import { type Register, registerStream, SALE } from '#shared/fiscal/ledger.ts';
import { PAYMENT_TYPES, type PaymentType, type Sale } from '#shared/fiscal/model.ts';
import type { Coverage, RegisterDays } from './coverage.ts';
import { formatDate, formatInstant } from './times.ts';

/** About how many characters a piece of the CSV holds (rows are not split). */
const CHUNK_CHARS = 65_536;

/** A register's sales of the period: the version range (from, to] they lie in, and the dates of its days. */
export interface RegisterSales {
  register: Register;
  from: number;
  to: number;
  /** Business date by day number. */
  dates: ReadonlyMap<number, number>;
}

/** The sales a read covers, register by register in name order; each range is fixed once, so every pass reads the same. */
export interface PeriodSales {
  timeZone: string;
  registers: RegisterSales[];
}

/** A register's sales of the period, if it has days in it; its range checked against its stream as `readDiff` does. */
async function salesOfRegister({ register, days, next }: RegisterDays): Promise<RegisterSales | undefined> {
  const first = days[0];
  if (!first) return undefined;
  const stream = registerStream(register);
  const counter = liveCounter(stream, await readCounter(stream));
  const range = { from: first.openVersion - 1, to: next ? next.openVersion - 1 : counter.ver };
  checkRange(range.from, range.to, counter);
  return { register, ...range, dates: new Map(days.map((day) => [day.dayNumber, day.date])) };
}

/** The sales of what a read covers (registers read in parallel; no sale is read). */
export async function periodSales(covered: Coverage): Promise<PeriodSales> {
  const registers = await Promise.all(covered.registers.map(salesOfRegister));
  return { timeZone: covered.timeZone, registers: registers.filter((sales) => sales !== undefined) };
}

/**
 * How many sales there are, counted by DynamoDB without returning them; once a register passes `atMost`, its count
 * stops there (a lower bound above it), so a route that only asks whether a bound is passed never reads a year.
 */
export async function countSales({ registers }: PeriodSales, atMost?: number): Promise<number> {
  const counts = await Promise.all(
    registers.map(({ register, from, to }) => countDiff(registerStream(register), SALE, from, to, atMost)),
  );
  return counts.reduce((sum, count) => sum + count.changed, 0);
}

/** A sale with where it was recorded. */
interface Row {
  cash: string;
  date: number;
  sale: Sale;
}

/**
 * The sales, register by register, each register's in the order it recorded them, a page at a time. A second read
 * finds no sale the first did not: a sale rewritten meanwhile leaves its range (its new version is past `to`).
 */
async function* rowsOf({ registers }: PeriodSales): AsyncGenerator<Row> {
  for (const { register, from, to, dates } of registers) {
    for await (const sale of eachVersion<Sale>(registerStream(register).partition.pk, SALE, { from, to })) {
      yield { cash: register.cash, date: dates.get(sale.day) ?? 0, sale };
    }
  }
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

/** The payments a sale's figures count. */
const counting = (sale: Sale) => sale.payments.filter(countsAsPaid);

/** The columns the period's sales have: their VAT rates, ascending, and their counted payment types, in spec order. */
interface Columns {
  rates: number[];
  types: PaymentType[];
}

async function columnsOf(sales: PeriodSales): Promise<Columns> {
  const rates = new Set<number>();
  const types = new Set<PaymentType>();
  for await (const { sale } of rowsOf(sales)) {
    for (const sum of sale.vatRateSums) rates.add(sum.vatRate);
    for (const payment of counting(sale)) types.add(payment.paymentType);
  }
  return { rates: [...rates].sort((a, b) => a - b), types: PAYMENT_TYPES.filter((type) => types.has(type)) };
}

const headerLine = ({ rates, types }: Columns) =>
  csvLine([
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
  ]);

const sumOf = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function saleLine({ cash, date, sale }: Row, { rates, types }: Columns, timeZone: string): string {
  const time = sale.close ?? sale.recorded;
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
}

/**
 * The CSV in pieces of about `CHUNK_CHARS` characters, whole rows each: the header row (read first: the sales'
 * columns), then one row per sale. CRLF line ends; a period without sales is the header row alone.
 */
export async function* salesCsvChunks(sales: PeriodSales): AsyncGenerator<string> {
  const columns = await columnsOf(sales);
  let chunk = headerLine(columns);
  for await (const row of rowsOf(sales)) {
    chunk += saleLine(row, columns, sales.timeZone);
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}
