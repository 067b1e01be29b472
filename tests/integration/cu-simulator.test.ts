/**
 * The control-unit simulator as the bridge sees it: the TCP transport sends kd lines to a simulator on
 * a free port, and every outcome (control code, refusal, bad CRC, garbage, silence, delay) is observed
 * through the transport and the codec. The simulator reads kd on its own (it never imports the codec), so
 * it is checked here against the independent lines of ../shared/kd-vectors.json too.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crc16, decodeKdReply, encodeKd, KD_FIELD_CODES, KD_INTERNAL_COUNTER_CODE, type KdRequest } from '#shared/kd/codec.ts';
import { CONFLICT_CODE, CONTROL_CODE_LENGTH, CuSimulator, parseFailure } from '../../edge/simulator.ts';
import { TcpTransport, TransportClosedError, TransportTimeoutError } from '../../edge/transport.ts';

// Generous for replies that come: the assertion never depends on how fast they come.
const REPLY_MS = 10_000;
// For silence only: a unit that never answers times out after any timeout.
const SILENCE_MS = 50;

interface KdVectors {
  requests: { line: string }[];
  replies: { code: number; controlCode: string | null; line: string }[];
}

/** The shared folder sits beside the clone (../shared from the repository root). */
const vectors = JSON.parse(readFileSync(new URL('../../../shared/kd-vectors.json', import.meta.url), 'utf8')) as KdVectors;

function hex(crc: number): string {
  return `0x${crc.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A request line's body (before its CRC token) framed again: `withSpace` is the rule, without it the old mistake. */
function reframe(line: string, withSpace = true): string {
  const body = line.slice(0, line.lastIndexOf(' '));
  return `${body} ${hex(crc16(withSpace ? `${body} ` : body))}`;
}

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
  simulator = new CuSimulator({ serial: 'SIM00000000000001' });
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
    expect(first.ok && first.controlCode).toMatch(/^[A-Z0-9]{59}$/);
    expect(await kd(request)).toEqual(first);
    expect(simulator.counters()).toMatchObject({
      requests: before.requests + 2,
      registered: before.registered + 1,
      repeats: before.repeats + 1,
    });
    const other = new CuSimulator({ serial: 'SIM00000000000002' });
    expect(other.controlCodeOf(line.slice(0, -2))).not.toBe(simulator.controlCodeOf(line.slice(0, -2)));
  });

  it('refuses a receipt already registered with other contents with a documented code no field uses', async () => {
    const request = receipt();
    await kd(request);
    expect(await kd({ ...request, salesAmount: 1 })).toEqual({ ok: true, code: CONFLICT_CODE });
    expect(CONFLICT_CODE).toBe(KD_INTERNAL_COUNTER_CODE);
    expect(Object.values(KD_FIELD_CODES)).not.toContain(CONFLICT_CODE);
  });

  it('answers -2 to a line whose CRC does not match, and a field code to a bad field', async () => {
    const line = encodeKd(receipt()).replace('125,50', '125,51');
    expect(decodeKdReply(await transport.send(line, REPLY_MS))).toEqual({ ok: true, code: -2 });
    const badDate = encodeKd(receipt()).replace(/^kd \d{12}/, 'kd 202613151432');
    // The CRC is the sender's, so the unit reaches the field check: recompute it over the changed line.
    expect(decodeKdReply(await transport.send(`${reframe(badDate)}\r\n`, REPLY_MS))).toEqual({ ok: true, code: 2 });
    const oldRule = `${reframe(encodeKd(receipt()), false)}\r\n`;
    expect(decodeKdReply(await transport.send(oldRule, REPLY_MS))).toEqual({ ok: true, code: -2 });
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
    const closed = new CuSimulator({ serial: 'SIM00000000000003' });
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

describe("the simulator's own reading of kd, against the shared vectors", () => {
  const unit = new CuSimulator({ serial: 'SIMVECTORS' });
  const lines = vectors.requests.map((vector) => vector.line.slice(0, -2));

  it.each(lines)('accepts %s with code 0 and a 59-character control code the codec decodes', (line) => {
    const reply = decodeKdReply(unit.answer(line));
    expect(reply).toEqual({ ok: true, code: 0, controlCode: unit.controlCodeOf(line) });
    expect(reply.ok && reply.controlCode).toMatch(new RegExp(`^[A-Z0-9]{${CONTROL_CODE_LENGTH}}$`));
    expect(CONTROL_CODE_LENGTH).toBe(59);
  });

  it.each(lines)('refuses %s with its CRC computed without the space (-2)', (line) => {
    expect(decodeKdReply(unit.answer(reframe(line, false)))).toEqual({ ok: true, code: -2 });
  });

  it('refuses a 6-character VAT rate with the code of its field', () => {
    const line = lines[0] as string;
    expect(decodeKdReply(unit.answer(reframe(line.replace('25,00;25,10', '100,00;25,10'))))).toEqual({ ok: true, code: 10 });
    const fourth = line.replace(/0,00;0,00 (0x[0-9A-F]{4})$/, '100,00;0,00 $1');
    expect(decodeKdReply(unit.answer(reframe(fourth)))).toEqual({ ok: true, code: 13 });
  });

  it('refuses an unknown command (-3), a wrong number of arguments (1), a field after the CRC (22), a long line (-1)', () => {
    const line = lines[0] as string;
    expect(decodeKdReply(unit.answer(reframe(line.replace(/^kd /, 'kx '))))).toEqual({ ok: true, code: -3 });
    expect(decodeKdReply(unit.answer(reframe(line.replace(/ 0,00;0,00 (0x[0-9A-F]{4})$/, ' $1'))))).toEqual({
      ok: true,
      code: 1,
    });
    expect(decodeKdReply(unit.answer(`${line} 0,00`))).toEqual({ ok: true, code: 22 });
    expect(decodeKdReply(unit.answer(reframe(line.replace('KASSA1', 'K'.repeat(200)))))).toEqual({ ok: true, code: -1 });
  });

  it('refuses each field in line order with its code', () => {
    const line = lines[1] as string;
    const cases: [string, string, number][] = [
      ['202312312359', '202302302359', 2],
      ['5560360793', '556036079', 3],
      ['KASSAOSTRA1', 'KASSA-OSTRA', 4],
      [' 42 ', ' 0 ', 5],
      ['kopia', 'Kopia', 6],
      ['0,00 224,00', '0.00 224,00', 8],
      ['224,00', '224,0', 9],
      ['12,00;12,86', '12,00;12,8', 11],
      ['6,00;3,40', '6,00:3,40', 12],
    ];
    for (const [from, to, code] of cases) {
      expect(decodeKdReply(unit.answer(reframe(line.replace(from, to)))), `${from} -> ${to}`).toEqual({ ok: true, code });
    }
  });

  it('frames replies the way the vectors do, so the codec reads the vector replies and its own alike', () => {
    for (const vector of vectors.replies) {
      const expected =
        vector.controlCode === null ? { code: vector.code } : { code: vector.code, controlCode: vector.controlCode };
      expect(decodeKdReply(vector.line)).toEqual({ ok: true, ...expected });
    }
    const refused = vectors.replies.find((vector) => vector.code === -2);
    expect(unit.answer(reframe(lines[0] as string, false))).toBe(refused?.line);
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
