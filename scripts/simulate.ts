/**
 * `npm run simulate -- [--base <url>] [--registers N] [--days D] [--sales S] [--user <name>] [--password <pw>]
 * [--control-unit <serial>] [--json]`: registers living through activation, sales, receipts, day close, Z reports and
 * e-journals against a running stack (scripts/simulate/simulator.ts), with a progress bar on stderr and a summary on
 * stdout (`--json`: the summary as JSON). The base defaults to `http://localhost:$PORT` (PORT as `npm start` reads it,
 * default 3000); the user to ADMIN_USERNAME / ADMIN_PASSWORD, else the local admin / admin. `--help` prints the usage.
 * Exit 0: no errors; 1: errors (a smoke test of a deployed stage fails); 2: usage.
 */
import { parseArgs } from 'node:util';
import { simulate, type Summary } from './simulate/simulator.ts';

/** The stack `npm start` serves in this shell: its PORT, default 3000. */
const defaultBase = `http://localhost:${process.env.PORT || 3000}`;

const usage = `usage: npm run simulate -- [--base <url>] [--registers N] [--days D] [--sales S]
       [--user <name>] [--password <password>] [--control-unit <serial>] [--json] [--help]

Registers at work against a running stack: activation, catalog sync, sales and receipts, day closes,
Z reports and e-journals. A progress bar on stderr, a summary on stdout; exit 0 no errors, 1 errors, 2 usage.

  --base <url>            the API (default ${defaultBase}, from PORT as npm start reads it)
  --registers N           registers of one new seller, 1-100 (default 3)
  --days D                trading days each, 1-31 (default 2)
  --sales S               sales a day, 1-1000 (default 5)
  --user, --password      an admin (default ADMIN_USERNAME / ADMIN_PASSWORD, else admin / admin)
  --control-unit <serial> sign every Normal receipt at this control unit (kd)
  --json                  the summary as JSON
  --help                  this text`;

function options() {
  try {
    const { values } = parseArgs({
      options: {
        base: { type: 'string', default: defaultBase },
        registers: { type: 'string', default: '3' },
        days: { type: 'string', default: '2' },
        sales: { type: 'string', default: '5' },
        user: { type: 'string', default: process.env.ADMIN_USERNAME || 'admin' },
        password: { type: 'string', default: process.env.ADMIN_PASSWORD || 'admin' },
        'control-unit': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    const count = (name: 'registers' | 'days' | 'sales', max: number) => {
      const value = Number(values[name]);
      if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`--${name} is a whole number from 1 to ${max}`);
      return value;
    };
    return {
      baseUrl: new URL(values.base).origin + new URL(values.base).pathname.replace(/\/+$/, ''),
      registers: count('registers', 100),
      days: count('days', 31),
      salesPerDay: count('sales', 1000),
      admin: { username: values.user, password: values.password },
      controlUnit: values['control-unit'],
      json: values.json,
    };
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
}

/** A bar redrawn in place on a terminal; on a pipe, a line per tenth. */
function progress(done: number, total: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} steps`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line}${done === total ? '\n' : ''}`);
  else if (Math.floor((done * 10) / total) !== Math.floor(((done - 1) * 10) / total)) process.stderr.write(`${line}\n`);
}

/** Rows of cells as an aligned text table. */
function table(rows: (string | number)[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => String(row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          typeof cell === 'number' ? String(cell).padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
}

function report(summary: Summary, { registers, days, salesPerDay, controlUnit }: ReturnType<typeof options>): string {
  const errors = Object.entries(summary.errors).sort(([a], [b]) => a.localeCompare(b));
  const errorCount = errors.reduce((sum, [, count]) => sum + count, 0);
  return [
    `Registers ${registers} x days ${days} x sales ${salesPerDay}${controlUnit ? `, control unit ${controlUnit}` : ', no control unit'}`,
    '',
    table([
      ['what', 'count'],
      ['registers activated', summary.activated],
      ['activation codes verified offline', summary.codesVerified],
      ['sales', summary.sales],
      ['sales replayed (retries)', summary.replayedSales],
      ['receipts', summary.receipts],
      ['control codes (kd)', summary.controlCodes],
      ['days closed', summary.daysClosed],
      ['Z reports printed', summary.zReports],
      ['e-journals verified', summary.journalsVerified],
      ['requests', summary.requests],
      ['latency p50 ms', summary.latencyMs.p50],
      ['latency p95 ms', summary.latencyMs.p95],
      ['errors', errorCount],
    ]),
    '',
    table([
      ['operation', 'calls', 'p50 ms', 'p95 ms'],
      ...Object.entries(summary.operations).map(([key, op]) => [key, op.calls, op.p50, op.p95]),
    ]),
    ...(errors.length > 0
      ? ['', table([['error', 'count'], ...errors]), '', ...summary.failures.map((line) => `  ${line}`)]
      : []),
  ].join('\n');
}

const config = options();
const summary = await simulate({ ...config, onStep: progress });
console.log(config.json ? JSON.stringify(summary, null, 2) : report(summary, config));
process.exitCode = Object.keys(summary.errors).length > 0 ? 1 : 0;
