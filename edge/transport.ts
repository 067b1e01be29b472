/**
 * How the bridge reaches its unit: one request line out, one reply line back, framed by CR LF, over TCP
 * or a serial port (edge/serial-transport.ts opens the port; the framing here is the same for both).
 */
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { openSerialPort, serialLine } from './serial-transport.ts';

export interface KdTransport {
  /** Sends a frame (ending in CR LF) and resolves with the reply line, without its CR LF. */
  send(frame: string, timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

/** No reply line within the timeout; the connection is dropped so a late reply can never answer the next request. */
export class TransportTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no reply from the control unit within ${timeoutMs} ms`);
    this.name = 'TransportTimeoutError';
  }
}

/** The unit could not be reached, or closed the line before replying. */
export class TransportClosedError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'TransportClosedError';
  }
}

const EOL = '\r\n';

/**
 * Request/reply lines over a byte stream (a TCP socket, a serial port): one stream, opened on first use
 * and reopened after a timeout or a close; requests go one at a time, in call order.
 */
export class LineTransport implements KdTransport {
  private stream: Duplex | undefined;
  /** A dropped stream until it has closed: a serial port cannot be opened again before. */
  private closing: Promise<void> = Promise.resolve();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly name: string;
  private readonly openStream: () => Promise<Duplex>;

  /** `name` says where the unit is, for errors; `openStream` resolves once the stream is open. */
  constructor(name: string, openStream: () => Promise<Duplex>) {
    this.name = name;
    this.openStream = openStream;
  }

  send(frame: string, timeoutMs: number): Promise<string> {
    if (!frame.endsWith(EOL) || frame.slice(0, -EOL.length).includes('\n')) {
      return Promise.reject(new Error('a frame is one line ending in CR LF'));
    }
    const result = this.queue.then(() => this.exchange(frame, timeoutMs));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    await this.queue;
    this.drop();
    await this.closing;
  }

  private drop(): void {
    const stream = this.stream;
    this.stream = undefined;
    if (!stream) return;
    if (!stream.closed) this.closing = new Promise((resolve) => stream.once('close', () => resolve()));
    stream.destroy();
  }

  private async open(): Promise<Duplex> {
    if (this.stream && !this.stream.destroyed) return this.stream;
    await this.closing;
    try {
      this.stream = await this.openStream();
    } catch (error) {
      throw new TransportClosedError(`cannot reach ${this.name}`, { cause: error });
    }
    return this.stream;
  }

  private async exchange(frame: string, timeoutMs: number): Promise<string> {
    const stream = await this.open();
    return new Promise<string>((resolve, reject) => {
      let buffer = '';
      const finish = (settle: () => void, keep: boolean): void => {
        clearTimeout(timer);
        stream.off('data', onData);
        stream.off('close', onClose);
        stream.off('error', onError);
        if (!keep) this.drop();
        settle();
      };
      const onData = (chunk: Buffer): void => {
        buffer += chunk.toString('latin1');
        const end = buffer.indexOf(EOL);
        if (end < 0) return;
        // Bytes after the reply line belong to no request: keeping the stream would hand them to the next.
        const keep = end + EOL.length === buffer.length;
        finish(() => resolve(buffer.slice(0, end)), keep);
      };
      const onClose = (): void =>
        finish(() => reject(new TransportClosedError('the control unit closed the line before replying')), false);
      const onError = (error: Error): void =>
        finish(() => reject(new TransportClosedError('the line to the control unit failed', { cause: error })), false);
      const timer = setTimeout(() => finish(() => reject(new TransportTimeoutError(timeoutMs)), false), timeoutMs);
      stream.on('data', onData);
      stream.once('close', onClose);
      stream.once('error', onError);
      stream.write(frame, 'latin1');
    });
  }
}

/** A unit behind TCP (`tcp://host:port`). */
export class TcpTransport extends LineTransport {
  constructor(host: string, port: number) {
    super(`${host}:${port}`, async () => {
      const socket = connect({ host, port });
      socket.setNoDelay(true);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      return socket;
    });
  }
}

/** `tcp://host:port` or `serial:<path>[?baudRate=N]` -> its transport. */
export function transportFor(url: string): KdTransport {
  if (url.startsWith('serial:')) {
    const line = serialLine(url);
    return new LineTransport(`serial port ${line.path}`, () => openSerialPort(line));
  }
  const parsed = new URL(url);
  if (parsed.protocol !== 'tcp:' || !parsed.hostname || !parsed.port) {
    throw new Error(`unit address "${url}" is not tcp://host:port or serial:<path>[?baudRate=N]`);
  }
  return new TcpTransport(parsed.hostname, Number(parsed.port));
}
