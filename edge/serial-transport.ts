/**
 * A control unit on a serial port (`serial:/dev/ttyUSB0?baudRate=9600`), through the `serialport`
 * package: 8 data bits, no parity, 1 stop bit, the baud rate from the address (default 9600). The lines
 * are framed as over TCP (edge/transport.ts's LineTransport); closing and reopening the port after a
 * timeout drops what the unit had sent so far, but a reply later than that cannot be told from the next
 * request's, so the bridge's unit timeout must exceed the unit's slowest answer.
 */
import type { Duplex } from 'node:stream';

export interface SerialLine {
  path: string;
  baudRate: number;
}

export const DEFAULT_BAUD_RATE = 9600;

/** `serial:/dev/ttyUSB0[?baudRate=N]` (or `serial:COM3` on Windows) -> the port's path and speed. */
export function serialLine(url: string): SerialLine {
  const parsed = new URL(url);
  const baud = parsed.searchParams.get('baudRate');
  const baudRate = baud === null ? DEFAULT_BAUD_RATE : Number(baud);
  if (parsed.protocol !== 'serial:' || parsed.pathname === '' || !Number.isSafeInteger(baudRate) || baudRate <= 0) {
    throw new Error(`unit address "${url}" is not serial:<path>[?baudRate=N]`);
  }
  return { path: decodeURIComponent(parsed.pathname), baudRate };
}

/** The `serialport` classes the port is opened with: the real one, or serialport's own mock in tests. */
export interface SerialPortClass {
  new (options: { path: string; baudRate: number; autoOpen: false }): SerialPortStream;
}

type SerialPortStream = Duplex & {
  readonly isOpen: boolean;
  open(callback: (error: Error | null) => void): void;
  close(callback: (error: Error | null) => void): void;
};

/** Opens the port (serialport is loaded on first use, so a TCP-only bridge never loads its native binding). */
export async function openSerialPort(line: SerialLine, portClass?: SerialPortClass): Promise<Duplex> {
  const Port: SerialPortClass = portClass ?? (await import('serialport')).SerialPort;
  const port = new Port({ path: line.path, baudRate: line.baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  // The transport drops a line by destroying its stream, which serialport's stream does not turn into
  // closing the port; and a port that closes by itself (unplugged) should count as dropped too.
  port._destroy = (error, callback) => (port.isOpen ? port.close(() => callback(error)) : callback(error));
  port.once('close', () => port.destroy());
  return port;
}
