/**
 * A control unit over TCP that speaks the PosPlus `kd` protocol, for developers and tests. It is an oracle for the
 * service's codec (shared/kd/codec.ts), so it never imports it: its reading of the protocol below is its own, written
 * from the public implementations (Odoo's Skattedosan driver, addons/iot_drivers/iot_handlers/drivers/
 * serial_blackbox_se_driver.py; a C++ POSPlus FiscalDataUtility) and docs/conventions.md §25.
 *
 * What it checks, in this order, and what it answers (the unit's published return codes):
 * - a line longer than any kd line: -1;
 * - the last token must be `0x` + 4 upper-case hex digits, the CRC-16/XMODEM of every byte before it, the space
 *   before it included: otherwise -2 (22 when a CRC stands in its place with fields after it);
 * - the command word `kd`: otherwise -3; exactly 11 arguments: otherwise 1;
 * - each field in line order: date 2, org 3, register id 4, receipt number 5, type 6, return amount 8, sales
 *   amount 9, VAT A-D 10-13 (a VAT field is `<rate>;<amount>`, the rate at most 5 characters: `25,00`).
 * It registers each receipt once and answers 0 with a control code, and can be told to fail.
 *
 * Control code: 59 characters of [A-Z0-9], as a Swedish unit's, derived from HMAC-SHA512 of the request line
 * (without CR LF) under the unit's key (default `cu-simulator:<serial>`): the same line always gets the same code
 * from the same unit. A receipt (register id, receipt number, type) is registered once: the identical line again gets
 * the stored code (counted as a repeat), a different line for it gets CONFLICT_CODE. Injected failures other than a
 * delay answer without registering anything.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * The simulator's refusal of a receipt already registered with other contents: 23, "error in an internal counter"
 * in the unit's table (the receipt number is spent). No field uses it.
 */
export const CONFLICT_CODE = 23;

/** The length of a control code, as Swedish units give it. */
export const CONTROL_CODE_LENGTH = 59;
const CONTROL_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export type CuFailure =
  | { kind: 'code'; code: number }
  | { kind: 'garbage' }
  | { kind: 'bad-crc' }
  | { kind: 'silence' }
  | { kind: 'delay'; ms: number };

export interface CuCounters {
  /** Lines received. */
  requests: number;
  /** Receipts registered (each once). */
  registered: number;
  /** Identical lines for a registered receipt, answered with its stored code. */
  repeats: number;
  /** Refusals: bad CRC, a field, a conflict. */
  refused: number;
  /** Lines answered by an injected failure. */
  injected: number;
}

export interface CuSimulatorOptions {
  serial: string;
  key?: string;
}

const EOL = '\r\n';

export class CuSimulator {
  readonly serial: string;
  private readonly key: string;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly receipts = new Map<string, { line: string; controlCode: string }>();
  private readonly pending: CuFailure[] = [];
  private always: CuFailure | undefined;
  private readonly count: CuCounters = { requests: 0, registered: 0, repeats: 0, refused: 0, injected: 0 };

  constructor(options: CuSimulatorOptions) {
    this.serial = options.serial;
    this.key = options.key ?? `cu-simulator:${options.serial}`;
    this.server = createServer((socket) => this.serve(socket));
  }

  /** Listens on the port (0: a free one) and resolves with the port. */
  async listen(port = 0, host = '127.0.0.1'): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, resolve);
    });
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the simulator has no TCP address');
    return address.port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next `times` lines are answered by this failure (before any failAlways). */
  failNext(failure: CuFailure, times = 1): void {
    for (let i = 0; i < times; i++) this.pending.push(failure);
  }

  /** Every line is answered by this failure until cleared with undefined. */
  failAlways(failure: CuFailure | undefined): void {
    this.always = failure;
  }

  counters(): CuCounters {
    return { ...this.count };
  }

  /** The control code this unit gives a request line (CR LF excluded): 59 of [A-Z0-9]. */
  controlCodeOf(line: string): string {
    const digest = createHmac('sha512', this.key).update(line, 'latin1').digest();
    let code = '';
    for (let i = 0; i < CONTROL_CODE_LENGTH; i++) code += CONTROL_CODE_ALPHABET[(digest[i] as number) % 36];
    return code;
  }

  /** The unit's answer to one line (CR LF excluded), failures aside: what it registers and replies. */
  answer(line: string): string {
    const read = readLine(line);
    if (typeof read === 'number') {
      this.count.refused++;
      return replyLine(String(read));
    }
    const known = this.receipts.get(read.receipt);
    if (known && known.line !== line) {
      this.count.refused++;
      return replyLine(String(CONFLICT_CODE));
    }
    if (known) this.count.repeats++;
    else this.count.registered++;
    const receipt = known ?? { line, controlCode: this.controlCodeOf(line) };
    this.receipts.set(read.receipt, receipt);
    return replyLine('0', receipt.controlCode);
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = '';
    let turn = Promise.resolve();
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (let end = buffer.indexOf(EOL); end >= 0; end = buffer.indexOf(EOL)) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + EOL.length);
        // One line at a time per connection, as a unit on a serial line would.
        turn = turn.then(() => this.reply(socket, line));
      }
    });
  }

  private async reply(socket: Socket, line: string): Promise<void> {
    this.count.requests++;
    const failure = this.pending.shift() ?? this.always;
    if (failure && failure.kind !== 'delay') this.count.injected++;
    const out = await this.replyFor(line, failure);
    if (out !== undefined && !socket.destroyed) socket.write(out, 'latin1');
  }

  private async replyFor(line: string, failure: CuFailure | undefined): Promise<string | undefined> {
    switch (failure?.kind) {
      case undefined:
        return this.answer(line);
      case 'delay':
        await new Promise((resolve) => setTimeout(resolve, failure.ms));
        return this.answer(line);
      case 'code':
        return replyLine(String(failure.code));
      case 'garbage':
        return `\u0007?#~ ${line.length} garbage${EOL}`;
      case 'bad-crc': {
        const reply = replyLine('0', this.controlCodeOf(line));
        return reply.replace(/0x[0-9A-F]{4}\r\n$/, (crc) => (crc.startsWith('0x0000') ? '0xFFFF' : '0x0000') + EOL);
      }
      case 'silence':
        return undefined;
    }
  }
}

/** CRC-16/XMODEM, table-driven as a unit's firmware would do it (poly 0x1021, init 0, no reflection, no xor out). */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let value = n << 8;
  for (let bit = 0; bit < 8; bit++) value = (value & 0x8000 ? (value << 1) ^ 0x1021 : value << 1) & 0xffff;
  return value;
});

function xmodem(text: string): string {
  let crc = 0;
  for (let i = 0; i < text.length; i++)
    crc = ((crc << 8) & 0xffff) ^ (CRC_TABLE[((crc >> 8) ^ text.charCodeAt(i)) & 0xff] as number);
  return '0x' + ('000' + crc.toString(16).toUpperCase()).slice(-4);
}

/** A reply as a unit frames it: its tokens and one space, the CRC of those bytes, CR LF. */
function replyLine(...tokens: string[]): string {
  const covered = tokens.join(' ') + ' ';
  return covered + xmodem(covered) + EOL;
}

function calendarDate(text: string): boolean {
  if (!/^[0-9]{12}$/.test(text)) return false;
  const [y, mo, d, h, mi] = [0, 4, 6, 8, 10].map((at, i) => Number(text.slice(at, i === 0 ? 4 : at + 2)));
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() + 1 === mo &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi
  );
}

const MONEY = '[0-9]{1,10},[0-9]{2}';
const VAT = new RegExp(`^[0-9]{1,2},[0-9]{2};${MONEY}$`);

/** The eleven arguments of kd in line order: each field's check, its longest form and the code a unit refuses it with. */
const ARGUMENTS: readonly { ok: (token: string) => boolean; longest: number; code: number }[] = [
  { ok: calendarDate, longest: 12, code: 2 },
  { ok: (t) => /^[0-9]{10}$/.test(t), longest: 10, code: 3 },
  { ok: (t) => /^[A-Za-z0-9]{1,16}$/.test(t), longest: 16, code: 4 },
  { ok: (t) => /^[0-9]{1,12}$/.test(t) && /[1-9]/.test(t), longest: 12, code: 5 },
  { ok: (t) => ['normal', 'kopia', 'ovning', 'profo'].includes(t), longest: 6, code: 6 },
  { ok: (t) => new RegExp(`^${MONEY}$`).test(t), longest: 13, code: 8 },
  { ok: (t) => new RegExp(`^${MONEY}$`).test(t), longest: 13, code: 9 },
  ...[10, 11, 12, 13].map((code) => ({ ok: (t: string) => VAT.test(t), longest: 19, code })),
];

/** `kd`, its arguments and the CRC, a space between each. */
const LONGEST_LINE = 'kd'.length + ARGUMENTS.reduce((sum, argument) => sum + 1 + argument.longest, 0) + ' 0x0000'.length;
const CRC = /^0x[0-9A-F]{4}$/;

/** One request line as this unit reads it: the receipt it names, or the return code it refuses the line with. */
function readLine(line: string): { receipt: string } | number {
  if (line.length > LONGEST_LINE) return -1;
  const tokens = line.split(' ');
  const crc = tokens[tokens.length - 1] as string;
  if (!CRC.test(crc)) return tokens.length > 13 && CRC.test(tokens[12] as string) ? 22 : -2;
  if (xmodem(line.slice(0, line.length - crc.length)) !== crc) return -2;
  if (tokens[0] !== 'kd') return -3;
  const args = tokens.slice(1, -1);
  if (args.length !== ARGUMENTS.length) return 1;
  for (const [i, argument] of ARGUMENTS.entries()) if (!argument.ok(args[i] as string)) return argument.code;
  const [, , registerId, receiptNo, type] = args as [string, string, string, string, string];
  return { receipt: `${registerId}/${receiptNo.replace(/^0+/, '')}/${type}` };
}

/** `code:N`, `garbage`, `bad-crc`, `silence` or `delay:MS`, as the CLI's --fail takes it. */
export function parseFailure(text: string): CuFailure {
  const [kind, value] = text.split(':');
  const number = Number(value);
  if (kind === 'code' && Number.isSafeInteger(number)) return { kind, code: number };
  if (kind === 'delay' && Number.isSafeInteger(number) && number >= 0) return { kind, ms: number };
  if ((kind === 'garbage' || kind === 'bad-crc' || kind === 'silence') && value === undefined) return { kind };
  throw new Error(`--fail "${text}" is not code:N, garbage, bad-crc, silence or delay:MS`);
}
