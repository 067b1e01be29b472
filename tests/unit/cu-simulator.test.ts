/**
 * The control-unit simulator as the bridge sees it: the TCP transport sends kd lines to a simulator on
 * a free port, and every outcome (control code, refusal, bad CRC, garbage, silence, delay) is observed
 * through the transport and the codec.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crc16, decodeKdReply, encodeKd, type KdRequest } from '#shared/kd/codec.ts';
import { CONFLICT_CODE, CuSimulator, parseFailure } from '../../edge/simulator.ts';
import { TcpTransport, TransportClosedError, TransportTimeoutError } from '../../edge/transport.ts';

// Generous for replies that come: the assertion never depends on how fast they come.
const REPLY_MS = 10_000;
// For silence only: a unit that never answers times out after any timeout.
const SILENCE_MS = 50;

let simulator: CuSimulator;
let transport: TcpTransport;
let nextReceipt = 1;

function receipt(change: Partial<KdRequest> = {}): KdRequest {
  return {
    date: '202601151432',
    org: '5560360793',
    registerId: 'KASSA1',
    receiptNo: nextReceipt++,
    type: 'normal',
    returnAmount: 0,
    salesAmount: 12_550,
    vat: [{ rate: 2500, amount: 2510 }],
    ...change,
  };
}

async function kd(request: KdRequest, timeoutMs = REPLY_MS): Promise<ReturnType<typeof decodeKdReply>> {
  return decodeKdReply(await transport.send(encodeKd(request), timeoutMs));
}

beforeAll(async () => {
  simulator = new CuSimulator({ serial: 'SIM0000001' });
  transport = new TcpTransport('127.0.0.1', await simulator.listen(0));
});

afterAll(async () => {
  await transport.close();
  await simulator.close();
});

beforeEach(() => simulator.failAlways(undefined));

describe('control-unit simulator over TCP', () => {
  it('answers 0 with a deterministic control code, registering the receipt once', async () => {
    const request = receipt();
    const line = encodeKd(request);
    const before = simulator.counters();
    const first = await kd(request);
    expect(first).toEqual({ ok: true, code: 0, controlCode: simulator.controlCodeOf(line.slice(0, -2)) });
    expect(first.ok && first.controlCode).toMatch(/^[0-9A-F]{40}$/);
    expect(await kd(request)).toEqual(first);
    expect(simulator.counters()).toMatchObject({
      requests: before.requests + 2,
      registered: before.registered + 1,
      repeats: before.repeats + 1,
    });
    const other = new CuSimulator({ serial: 'SIM0000002' });
    expect(other.controlCodeOf(line.slice(0, -2))).not.toBe(simulator.controlCodeOf(line.slice(0, -2)));
  });

  it('refuses a receipt already registered with other contents', async () => {
    const request = receipt();
    await kd(request);
    expect(await kd({ ...request, salesAmount: 1 })).toEqual({ ok: true, code: CONFLICT_CODE });
  });

  it('answers -2 to a line whose CRC does not match, and a field code to a bad field', async () => {
    const line = encodeKd(receipt()).replace('125,50', '125,51');
    expect(decodeKdReply(await transport.send(line, REPLY_MS))).toEqual({ ok: true, code: -2 });
    const badDate = encodeKd(receipt()).replace(/^kd \d{12}/, 'kd 202613151432');
    // The CRC is the sender's, so the unit reaches the field check: recompute it over the changed line.
    const body = badDate.slice(0, badDate.lastIndexOf(' '));
    const reframed = `${body} 0x${crc16(body).toString(16).toUpperCase().padStart(4, '0')}\r\n`;
    expect(decodeKdReply(await transport.send(reframed, REPLY_MS))).toEqual({ ok: true, code: 2 });
  });

  it('answers an injected return code, then serves normally again', async () => {
    simulator.failNext({ kind: 'code', code: 7 });
    const request = receipt();
    expect(await kd(request)).toEqual({ ok: true, code: 7 });
    expect(await kd(request)).toMatchObject({ ok: true, code: 0 });
  });

  it('turns garbage into a framing error and a bad reply CRC into a CRC error', async () => {
    simulator.failNext({ kind: 'garbage' });
    simulator.failNext({ kind: 'bad-crc' });
    expect(await kd(receipt())).toMatchObject({ ok: false, error: 'framing' });
    expect(await kd(receipt())).toMatchObject({ ok: false, error: 'crc' });
  });

  it('stays silent: the transport times out, and the next request gets its own reply', async () => {
    simulator.failNext({ kind: 'silence' });
    await expect(kd(receipt(), SILENCE_MS)).rejects.toBeInstanceOf(TransportTimeoutError);
    const request = receipt();
    expect(await kd(request)).toEqual({
      ok: true,
      code: 0,
      controlCode: simulator.controlCodeOf(encodeKd(request).slice(0, -2)),
    });
  });

  it('answers after a delay when told to', async () => {
    simulator.failNext({ kind: 'delay', ms: 20 });
    expect(await kd(receipt())).toMatchObject({ ok: true, code: 0 });
  });

  it('applies failAlways until cleared', async () => {
    simulator.failAlways({ kind: 'code', code: 3 });
    expect(await kd(receipt())).toEqual({ ok: true, code: 3 });
    expect(await kd(receipt())).toEqual({ ok: true, code: 3 });
    simulator.failAlways(undefined);
    expect(await kd(receipt())).toMatchObject({ ok: true, code: 0 });
  });

  it('reports an unreachable unit as a closed line', async () => {
    const closed = new CuSimulator({ serial: 'SIM0000003' });
    const port = await closed.listen(0);
    await closed.close();
    const lost = new TcpTransport('127.0.0.1', port);
    await expect(lost.send(encodeKd(receipt()), REPLY_MS)).rejects.toBeInstanceOf(TransportClosedError);
    await lost.close();
  });

  it('refuses to send a frame that is not one CR LF line', async () => {
    await expect(transport.send('kd 1', REPLY_MS)).rejects.toThrow(/CR LF/);
  });
});

describe('parseFailure (the CLI --fail flag)', () => {
  it('reads each failure and refuses anything else', () => {
    expect(parseFailure('code:5')).toEqual({ kind: 'code', code: 5 });
    expect(parseFailure('delay:200')).toEqual({ kind: 'delay', ms: 200 });
    expect(parseFailure('garbage')).toEqual({ kind: 'garbage' });
    expect(parseFailure('bad-crc')).toEqual({ kind: 'bad-crc' });
    expect(parseFailure('silence')).toEqual({ kind: 'silence' });
    expect(() => parseFailure('code:x')).toThrow(/--fail/);
    expect(() => parseFailure('loud')).toThrow(/--fail/);
  });
});
