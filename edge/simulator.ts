/**
 * A control unit over TCP that speaks the kd protocol of shared/kd/codec.ts, for developers and tests: it checks
 * the CRC (-2) and each field (the codec's return codes 1-13), registers each receipt once, answers 0
 * with a control code, and can be told to fail.
 *
 * Control code: HMAC-SHA256 of the request line (without CR LF) under the unit's key (default
 * `cu-simulator:<serial>`), its first 20 bytes as 40 uppercase hex digits: the same line always gets the
 * same code from the same unit. A receipt (registerId, receiptNo, type) is registered once: the identical
 * line again gets the stored code (counted as a repeat), a different line for it gets CONFLICT_CODE.
 * Injected failures other than a delay answer without registering anything.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { decodeKd, encodeKdReply, type KdRequest } from '#shared/kd/codec.ts';

/** The simulator's own refusal: a receipt already registered with other contents. */
export const CONFLICT_CODE = 14;

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

  /** The control code this unit gives a request line (CR LF excluded). */
  controlCodeOf(line: string): string {
    return createHmac('sha256', this.key).update(line, 'latin1').digest('hex').slice(0, 40).toUpperCase();
  }

  /** The unit's answer to one line, failures aside: what it registers and replies. */
  answer(line: string): string {
    const decoded = decodeKd(line);
    if (!decoded.ok) {
      this.count.refused++;
      return encodeKdReply({ code: decoded.returnCode });
    }
    const key = receiptKey(decoded.request);
    const known = this.receipts.get(key);
    if (known && known.line !== line) {
      this.count.refused++;
      return encodeKdReply({ code: CONFLICT_CODE });
    }
    if (known) this.count.repeats++;
    else this.count.registered++;
    const receipt = known ?? { line, controlCode: this.controlCodeOf(line) };
    this.receipts.set(key, receipt);
    return encodeKdReply({ code: 0, controlCode: receipt.controlCode });
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
        return encodeKdReply({ code: failure.code });
      case 'garbage':
        return `\u0007?#~ ${line.length} garbage${EOL}`;
      case 'bad-crc': {
        const reply = encodeKdReply({ code: 0, controlCode: this.controlCodeOf(line) });
        return reply.replace(/0x[0-9A-F]{4}\r\n$/, (crc) => (crc.startsWith('0x0000') ? '0xFFFF' : '0x0000') + EOL);
      }
      case 'silence':
        return undefined;
    }
  }
}

function receiptKey(request: KdRequest): string {
  return `${request.registerId}/${request.receiptNo}/${request.type}`;
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
