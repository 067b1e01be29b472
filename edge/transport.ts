/**
 * How the bridge reaches its unit: one request line out, one reply line back, framed by CR LF. A serial
 * port is the other implementation of the same interface (issue 12, later slice).
 */
import { connect, type Socket } from 'node:net';

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
 * A unit behind TCP (`tcp://host:port`): one connection, opened on first use and reopened after a
 * timeout or a close; requests go one at a time, in call order.
 */
export class TcpTransport implements KdTransport {
  private socket: Socket | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly host: string;
  private readonly port: number;

  constructor(host: string, port: number) {
    this.host = host;
    this.port = port;
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
  }

  private drop(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private async open(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = connect({ host: this.host, port: this.port });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', (error) =>
        reject(new TransportClosedError(`cannot reach ${this.host}:${this.port}`, { cause: error })),
      );
    });
    this.socket = socket;
    return socket;
  }

  private async exchange(frame: string, timeoutMs: number): Promise<string> {
    const socket = await this.open();
    return new Promise<string>((resolve, reject) => {
      let buffer = '';
      const finish = (settle: () => void, keep: boolean): void => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.off('error', onError);
        if (!keep) this.drop();
        settle();
      };
      const onData = (chunk: Buffer): void => {
        buffer += chunk.toString('latin1');
        const end = buffer.indexOf(EOL);
        if (end < 0) return;
        // Bytes after the reply line belong to no request: keeping the connection would hand them to the next.
        const keep = end + EOL.length === buffer.length;
        finish(() => resolve(buffer.slice(0, end)), keep);
      };
      const onClose = (): void =>
        finish(() => reject(new TransportClosedError('the control unit closed the line before replying')), false);
      const onError = (error: Error): void =>
        finish(() => reject(new TransportClosedError('the line to the control unit failed', { cause: error })), false);
      const timer = setTimeout(() => finish(() => reject(new TransportTimeoutError(timeoutMs)), false), timeoutMs);
      socket.on('data', onData);
      socket.once('close', onClose);
      socket.once('error', onError);
      socket.write(frame, 'latin1');
    });
  }
}

/** `tcp://host:port` -> a TCP transport. */
export function transportFor(url: string): KdTransport {
  const parsed = new URL(url);
  if (parsed.protocol !== 'tcp:' || !parsed.hostname || !parsed.port) {
    throw new Error(`unit address "${url}" is not tcp://host:port`);
  }
  return new TcpTransport(parsed.hostname, Number(parsed.port));
}
