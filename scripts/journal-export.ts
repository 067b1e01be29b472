#!/usr/bin/env node
/**
 * The auditor's SKVFS 2021:16 document of a register, two ways:
 *
 * - `npm run journal-export -- <journal.json> [--key <public-key.pem>] > export.xml`: made offline from a fetched v33
 *   generated e-journal (`GET /{sellerId}/generated-e-journals/{cash}`) by the code the service's export runs
 *   (shared/fiscal/skvfs-export.ts). The journal is verified first (every hash, the chain, the signed head; the key as
 *   `npm run verify-journal` finds it). Who the register is comes from the journal's last closed day, which keeps it.
 * - `npm run journal-export -- --seller <id> --cash <name> [--from <date>] [--to <date>] [--out <file.xml>]`: the
 *   service's export job for any period (docs/conventions.md §28), through the typed client's `exportJournal`:
 *   started, polled, downloaded and checked, written gunzipped (`--gzip`: as downloaded).
 *
 * Exit 0: the document is written (stdout unless `--out`); 1: the journal is invalid, it lacks a fact the format needs
 * (the message names it) or any event the format records, or the export failed or was refused; 2: usage.
 */
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { type Credentials, createCashRegisterClient, ExportError, exportJournal } from '../client/src/index.ts';
import { journalContext, skvfsExport } from '../shared/fiscal/skvfs-export.ts';
import { type SignedJournal, verifyJournal } from '../shared/fiscal/verify-journal.ts';
import { documentAndKey, fail } from './offline-verification.ts';

/** The stack `npm start` serves in this shell: its PORT, default 3000. */
const localBase = `http://localhost:${process.env.PORT || 3000}`;

const usage = `usage: npm run journal-export -- <journal.json> [--key <public-key.pem>]
       npm run journal-export -- --seller <id> --cash <name> [--from <date>] [--to <date>] [--id <exportId>]
                                 [--out <file.xml>] [--gzip] [--base <url>] [--help]

The register's journal as Skatteverket's SKVFS 2021:16 document. With a journal file: made offline from a
fetched generated e-journal, to stdout. With --seller and --cash: the service's export job for the period
(started, polled, downloaded, its size and SHA-256 checked), the document to --out or stdout.

  --seller <id>     the seller, e.g. SE5560360793
  --cash <name>     the register
  --from, --to      the period's first and last instant: milliseconds since 1970, or an ISO date-time
                    (2025-01-01T00:00+01:00; a date alone is midnight UTC); default the journal's start, now
  --id <exportId>   download this export of the register instead of starting one
  --out <file>      write the document there (default stdout)
  --gzip            write the file gzipped, as downloaded
  --base <url>      the API (default CASH_REGISTER_URL, else ${localBase}, from PORT as npm start reads it)

Credentials from the environment: CASH_REGISTER_API_KEY (the register's API key), else
CASH_REGISTER_USER and CASH_REGISTER_PASSWORD (a user with access to the seller), else ADMIN_USERNAME and
ADMIN_PASSWORD as npm start reads them (default admin / admin).
Exit 0: written; 1: the export failed or was refused (its error body on stderr); 2: usage.`;

const online = process.argv.slice(2).some((arg) => /^--(seller|cash|id|help)(=|$)/.test(arg) || arg === '-h');
if (online) await fetchExport();
else await offline();

async function offline(): Promise<void> {
  const { document, publicKeyPem } = documentAndKey('journal-export', 'journal');
  const verification = verifyJournal(document, publicKeyPem);
  if (!verification.valid) fail(`invalid journal: ${verification.reason}`, 1);
  const journal = document as SignedJournal;
  try {
    const context = journalContext(journal.entries);
    let written = 0;
    for await (const chunk of skvfsExport(context, journal.entries, { from: null, to: null }, Date.now())) {
      written += 1;
      if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    }
    if (written === 0) fail('the journal holds no event the export records', 1);
  } catch (error) {
    fail((error as Error).message, 1);
  }
}

/** A Date of the command line: milliseconds since the epoch, or what Date.parse reads (ISO 8601). */
function instant(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = /^-?\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isSafeInteger(time)) throw new Error(`--${name} is milliseconds since 1970 or an ISO date-time, not ${value}`);
  return time;
}

function credentials(): Credentials {
  const { env } = process;
  if (env.CASH_REGISTER_API_KEY) return { apiKey: env.CASH_REGISTER_API_KEY };
  if (env.CASH_REGISTER_USER) return { username: env.CASH_REGISTER_USER, password: env.CASH_REGISTER_PASSWORD ?? '' };
  return { username: env.ADMIN_USERNAME || 'admin', password: env.ADMIN_PASSWORD || 'admin' };
}

function onlineOptions() {
  try {
    const { values, positionals } = parseArgs({
      options: {
        seller: { type: 'string' },
        cash: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        id: { type: 'string' },
        out: { type: 'string' },
        gzip: { type: 'boolean', default: false },
        base: { type: 'string', default: process.env.CASH_REGISTER_URL || localBase },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    if (positionals.length > 0) throw new Error(`unexpected ${positionals.join(' ')}`);
    if (!values.seller || !values.cash) throw new Error('--seller and --cash name the register');
    if (values.id !== undefined && (values.from !== undefined || values.to !== undefined)) {
      throw new Error('--id downloads an export already made: its period is its own, not --from or --to');
    }
    return {
      baseUrl: new URL(values.base).href.replace(/\/+$/, ''),
      order: {
        sellerId: values.seller,
        cash: values.cash,
        from: instant('from', values.from),
        to: instant('to', values.to),
        exportId: values.id,
      },
      // Relative to where the command was typed: npm run starts scripts in the package's root and names that INIT_CWD.
      out: values.out === undefined ? undefined : resolve(process.env.INIT_CWD || process.cwd(), values.out),
      gzip: values.gzip,
    };
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`, 2);
  }
}

async function fetchExport(): Promise<void> {
  const { baseUrl, order, out, gzip } = onlineOptions();
  const client = createCashRegisterClient(33, { baseUrl, auth: credentials() });
  let status = '';
  try {
    const file = await exportJournal(client, order, {
      // The gzipped file is checked in memory; the document, many times its size for a year, is gunzipped as a stream.
      gzipped: true,
      onState: (state) => {
        if (state.status !== status) console.error(`export ${state.id} ${(status = state.status)}`);
      },
    });
    const target: Writable = out === undefined ? process.stdout : createWriteStream(out);
    const source = Readable.from([file.bytes]);
    await (gzip ? pipeline(source, target) : pipeline(source, createGunzip(), target));
    console.error(
      `${file.state.bytes} bytes gzipped, SHA-256 ${file.state.sha256}: ${out ?? 'stdout'}` +
        (file.fileName ? ` (the service names it ${gzip ? file.fileName : file.fileName.replace(/\.gz$/, '')})` : ''),
    );
  } catch (error) {
    if (!(error instanceof ExportError)) throw error;
    fail(error.body ? `${error.message}\n${JSON.stringify(error.body)}` : error.message, 1);
  }
}
