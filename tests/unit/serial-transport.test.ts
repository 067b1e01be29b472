/**
 * The serial transport: addresses, and kd lines through the `serialport` stream. No serial hardware or
 * pseudo-terminal is assumed on a test machine, so the port is serialport's own mock binding, answered by
 * the control-unit simulator's logic; the stream, the opening and the CR LF framing are the production code.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SerialPortMock } from 'serialport';
import { decodeKdReply, encodeKd, type KdRequest } from '#shared/kd/codec.ts';
import { DEFAULT_BAUD_RATE, openSerialPort, serialLine, type SerialPortClass } from '../../edge/serial-transport.ts';
import { CuSimulator } from '../../edge/simulator.ts';
import { LineTransport, TransportClosedError, TransportTimeoutError, transportFor } from '../../edge/transport.ts';

const request: KdRequest = {
  date: '202601151432',
  org: '5560360793',
  registerId: 'KASSA1',
  receiptNo: 1,
  type: 'normal',
  returnAmount: 0,
  salesAmount: 12_550,
  vat: [{ rate: 2500, amount: 2510 }],
};

/** How the pretend unit answers a line: the chunks it writes back (none: silence). */
type Answer = (line: string) => string[];

/** serialport's mock port, answering each line written to it the way `answer` says. */
function unitPort(answer: Answer): SerialPortClass {
  return class UnitPort extends SerialPortMock {
    override open(callback: (error: Error | null) => void): void {
      super.open((error) => {
        const binding = this.port;
        if (!error && binding) {
          let buffer = '';
          const write = binding.write.bind(binding);
          binding.write = async (data: Buffer) => {
            await write(data);
            buffer += data.toString('latin1');
            for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
              const line = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              for (const chunk of answer(line)) setImmediate(() => binding.emitData(chunk));
            }
          };
        }
        callback(error);
      });
    }
  };
}

let path = 0;
const transports: LineTransport[] = [];
function serialTransport(answer: Answer): LineTransport {
  const line = { path: `/dev/ttyKD${++path}`, baudRate: 9600 };
  SerialPortMock.binding.createPort(line.path, { echo: false, record: false });
  const transport = new LineTransport(`serial port ${line.path}`, () => openSerialPort(line, unitPort(answer)));
  transports.push(transport);
  return transport;
}

afterEach(async () => {
  for (const transport of transports.splice(0)) await transport.close();
  SerialPortMock.binding.reset();
});

describe('serial addresses', () => {
  it('reads the path and the baud rate, 9600 by default', () => {
    expect(serialLine('serial:/dev/ttyUSB0')).toEqual({ path: '/dev/ttyUSB0', baudRate: DEFAULT_BAUD_RATE });
    expect(serialLine('serial:/dev/ttyS1?baudRate=115200')).toEqual({ path: '/dev/ttyS1', baudRate: 115_200 });
    expect(serialLine('serial:COM3')).toEqual({ path: 'COM3', baudRate: 9600 });
  });

  it('refuses an address without a path or with a bad baud rate', () => {
    expect(() => serialLine('serial:')).toThrow(/serial:<path>/);
    expect(() => serialLine('serial:/dev/ttyUSB0?baudRate=fast')).toThrow(/serial:<path>/);
    expect(() => serialLine('serial:/dev/ttyUSB0?baudRate=0')).toThrow(/serial:<path>/);
    expect(() => transportFor('udp://127.0.0.1:9')).toThrow(/tcp:\/\/host:port or serial:/);
  });

  it('a port that does not exist is unreachable (the real serialport binding)', async () => {
    const transport = transportFor('serial:/dev/kd-no-such-port');
    await expect(transport.send(encodeKd(request), 1000)).rejects.toBeInstanceOf(TransportClosedError);
    await transport.close();
  });
});

describe('kd lines over a serial port', () => {
  const simulator = new CuSimulator({ serial: 'SERIAL1' });
  const reply = (line: string) => simulator.answer(line);

  it('sends the line and reads the reply, even when it arrives in pieces', async () => {
    const transport = serialTransport((line) => {
      const whole = reply(line);
      return [whole.slice(0, 5), whole.slice(5, -1), whole.slice(-1)];
    });
    const frame = encodeKd(request);
    expect(decodeKdReply(await transport.send(frame, 10_000))).toEqual({
      ok: true,
      code: 0,
      controlCode: simulator.controlCodeOf(frame.slice(0, -2)),
    });
  });

  it('carries a refusal and garbage as the unit sends them', async () => {
    const transport = serialTransport((line) => (line.includes('KASSA2') ? ['\u0007?#~ noise\r\n'] : [reply(line)]));
    const corrupted = encodeKd({ ...request, receiptNo: 2 }).replace('5560360793', '5560360794');
    expect(decodeKdReply(await transport.send(corrupted, 10_000))).toEqual({ ok: true, code: -2 });
    const noise = await transport.send(encodeKd({ ...request, registerId: 'KASSA2' }), 10_000);
    expect(decodeKdReply(noise)).toMatchObject({ ok: false, error: 'framing' });
  });

  it('a unit that stays silent times out, and the port is reopened for the next line', async () => {
    let calls = 0;
    const transport = serialTransport((line) => (++calls === 1 ? [] : [reply(line)]));
    await expect(transport.send(encodeKd({ ...request, receiptNo: 4 }), 50)).rejects.toBeInstanceOf(TransportTimeoutError);
    expect(decodeKdReply(await transport.send(encodeKd({ ...request, receiptNo: 4 }), 10_000))).toMatchObject({
      ok: true,
      code: 0,
    });
  });
});
