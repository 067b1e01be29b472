/**
 * The kd codec: the line a unit receives, its CRC, the reply it sends back, and every field
 * the codec refuses with the return code a unit would answer. The lines of ../shared/kd-vectors.json
 * were computed with the rule of the public implementations, outside this code: the codec must
 * reproduce them byte for byte.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  crc16,
  decodeKd,
  decodeKdReply,
  encodeKd,
  encodeKdReply,
  KD_MAX_AMOUNT,
  KdFieldError,
  type KdRequest,
  type KdType,
  type KdVat,
  registerIdOf,
} from '#shared/kd/codec.ts';

interface KdVectors {
  crcCheck: { input: string; crc: string };
  requests: {
    fields: {
      date: string;
      org: string;
      registerId: string;
      receiptNo: string;
      type: string;
      returnAmount: string;
      salesAmount: string;
      vat: string[];
    };
    line: string;
  }[];
  replies: { code: number; controlCode: string | null; line: string }[];
}

/** The shared folder sits beside the clone (../shared from the repository root). */
const vectors = JSON.parse(readFileSync(new URL('../../../shared/kd-vectors.json', import.meta.url), 'utf8')) as KdVectors;

/** `125,50` -> 12550, read independently of the codec. */
function hundredths(text: string): number {
  const [whole, fraction] = text.split(',');
  expect(fraction).toHaveLength(2);
  return Number(whole) * 100 + Number(fraction);
}

/** A vector's text fields as the codec's request: amounts in hundredths, unused trailing VAT slots left out. */
function requestOf(fields: KdVectors['requests'][number]['fields']): KdRequest {
  const vat = fields.vat.map((slot): KdVat => {
    const [rate, amount] = slot.split(';') as [string, string];
    return { rate: hundredths(rate), amount: hundredths(amount) };
  });
  while (vat.length > 0 && vat.at(-1)?.rate === 0 && vat.at(-1)?.amount === 0) vat.pop();
  return {
    date: fields.date,
    org: fields.org,
    registerId: fields.registerId,
    receiptNo: Number(fields.receiptNo),
    type: fields.type as KdType,
    returnAmount: hundredths(fields.returnAmount),
    salesAmount: hundredths(fields.salesAmount),
    vat,
  };
}

describe('the shared vectors (../shared/kd-vectors.json)', () => {
  it('gives the check value of the vectors', () => {
    expect(crc16(vectors.crcCheck.input)).toBe(Number(vectors.crcCheck.crc));
    expect(vectors.crcCheck.crc).toBe('0x31C3');
  });

  it.each(vectors.requests.map((vector) => [vector.line.trim(), vector] as const))(
    'encodes %s byte for byte and decodes it back',
    (_, vector) => {
      const request = requestOf(vector.fields);
      expect(encodeKd(request)).toBe(vector.line);
      expect(decodeKd(vector.line)).toEqual({ ok: true, request });
    },
  );

  it.each(vectors.replies.map((vector) => [vector.line.trim(), vector] as const))(
    'encodes and decodes the reply %s',
    (_, vector) => {
      const reply = vector.controlCode === null ? { code: vector.code } : { code: vector.code, controlCode: vector.controlCode };
      expect(encodeKdReply(reply)).toBe(vector.line);
      expect(decodeKdReply(vector.line)).toEqual({ ok: true, ...reply });
    },
  );

  it('refuses each request line with its CRC computed without the space before it (-2)', () => {
    for (const { line } of vectors.requests) {
      const body = line.slice(0, line.lastIndexOf(' '));
      expect(decodeKd(oldRule(body))).toMatchObject({ ok: false, returnCode: -2 });
    }
  });

  it('refuses each reply with its CRC computed without the space as a CRC error', () => {
    for (const { line } of vectors.replies) {
      const body = line.slice(0, line.lastIndexOf(' '));
      expect(decodeKdReply(oldRule(body))).toMatchObject({ ok: false, error: 'crc' });
    }
  });
});

const request: KdRequest = {
  date: '202601151432',
  org: '5560360793',
  registerId: 'KASSA1',
  receiptNo: 42,
  type: 'normal',
  returnAmount: 0,
  salesAmount: 12_550,
  vat: [{ rate: 2500, amount: 2510 }],
};

function hex(crc: number): string {
  return `0x${crc.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The line as the codec writes it, CRC recomputed by hand over the body and the space after it. */
function framed(body: string): string {
  return `${body} ${hex(crc16(`${body} `))}\r\n`;
}

/** The same line with the CRC of the old rule: over the body without the space before the CRC. */
function oldRule(body: string): string {
  return `${body} ${hex(crc16(body))}\r\n`;
}

describe('CRC-16/XMODEM', () => {
  it('gives the published check value of "123456789"', () => {
    expect(crc16('123456789')).toBe(0x31c3);
    expect(crc16('')).toBe(0);
  });
});

describe('encodeKd', () => {
  it('writes the pinned line with decimal commas, unused VAT slots and the CRC over the line up to its space', () => {
    const line = encodeKd(request);
    const body = 'kd 202601151432 5560360793 KASSA1 42 normal 0,00 125,50 25,00;25,10 0,00;0,00 0,00;0,00 0,00;0,00';
    expect(line).toBe(framed(body));
    expect(line).toMatch(/ 0x[0-9A-F]{4}\r\n$/);
  });

  it.each([1, 2, 3, 4])('round-trips a receipt with %i VAT rate(s) through decodeKd', (rates) => {
    const vat = [
      { rate: 2500, amount: 2510 },
      { rate: 1200, amount: 120 },
      { rate: 600, amount: 6 },
      { rate: 0, amount: 1 },
    ].slice(0, rates);
    const sent: KdRequest = { ...request, type: 'kopia', returnAmount: 99, salesAmount: KD_MAX_AMOUNT, vat };
    expect(decodeKd(encodeKd(sent))).toEqual({ ok: true, request: sent });
  });

  it('round-trips every print type and the bounds of each number', () => {
    for (const type of ['normal', 'kopia', 'ovning', 'profo'] as const) {
      const sent: KdRequest = { ...request, type, receiptNo: 999_999_999_999, registerId: 'ABCDEFGHIJ123456', vat: [] };
      expect(decodeKd(encodeKd(sent))).toEqual({ ok: true, request: sent });
    }
  });

  const refusals: [string, Partial<KdRequest>, number][] = [
    ['date with 11 digits', { date: '20260115143' }, 2],
    ['date in month 13', { date: '202613151432' }, 2],
    ['date on 30 February', { date: '202602301200' }, 2],
    ['date at 24:00', { date: '202601152400' }, 2],
    ['date at minute 60', { date: '202601151460' }, 2],
    ['org of 9 digits', { org: '556036079' }, 3],
    ['org with a dash', { org: '556036-0793' }, 3],
    ['empty registerId', { registerId: '' }, 4],
    ['registerId of 17 characters', { registerId: 'ABCDEFGHIJ1234567' }, 4],
    ['registerId with a space', { registerId: 'KASSA 1' }, 4],
    ['registerId with a non-ASCII letter', { registerId: 'KASSAÖ' }, 4],
    ['receiptNo 0', { receiptNo: 0 }, 5],
    ['receiptNo of 13 digits', { receiptNo: 1_000_000_000_000 }, 5],
    ['fractional receiptNo', { receiptNo: 1.5 }, 5],
    ['unknown type', { type: 'retur' as KdRequest['type'] }, 6],
    ['negative returnAmount', { returnAmount: -1 }, 8],
    ['fractional returnAmount', { returnAmount: 0.5 }, 8],
    ['salesAmount above the maximum', { salesAmount: KD_MAX_AMOUNT + 1 }, 9],
    ['VAT rate of 100 % (6 characters)', { vat: [{ rate: 10_000, amount: 0 }] }, 10],
    [
      'negative VAT amount in slot 2',
      {
        vat: [
          { rate: 2500, amount: 1 },
          { rate: 1200, amount: -1 },
        ],
      },
      11,
    ],
    ['five VAT rates', { vat: Array.from({ length: 5 }, () => ({ rate: 2500, amount: 1 })) }, 13],
  ];

  it.each(refusals)('refuses %s with return code %i', (_, change, returnCode) => {
    const attempt = (): string => encodeKd({ ...request, ...change });
    expect(attempt).toThrow(KdFieldError);
    try {
      attempt();
    } catch (error) {
      expect(error).toBeInstanceOf(KdFieldError);
      expect((error as KdFieldError).returnCode).toBe(returnCode);
    }
  });
});

describe('decodeKd (what a unit checks)', () => {
  const good = 'kd 202601151432 5560360793 KASSA1 42 normal 0,00 125,50 25,00;25,10 0,00;0,00 0,00;0,00 0,00;0,00';

  it('answers -2 for a CRC that does not match, is missing, malformed or left the space out', () => {
    const line = encodeKd(request);
    const flipped = line.replace('125,50', '125,51');
    expect(decodeKd(flipped)).toMatchObject({ ok: false, returnCode: -2 });
    expect(decodeKd(`${good}\r\n`)).toMatchObject({ ok: false, returnCode: -2 });
    expect(decodeKd(`${good} 0xabcd\r\n`)).toMatchObject({ ok: false, returnCode: -2 });
    expect(decodeKd(oldRule(good))).toMatchObject({ ok: false, returnCode: -2 });
    expect(decodeKd(framed(good))).toMatchObject({ ok: true });
  });

  it('answers 22 for a field after the CRC and -1 for a line longer than any kd line', () => {
    expect(decodeKd(`${framed(good).trimEnd()} 0,00\r\n`)).toMatchObject({ ok: false, returnCode: 22 });
    expect(decodeKd(framed(good.replace('KASSA1', 'K'.repeat(200))))).toMatchObject({ ok: false, returnCode: -1 });
  });

  it.each([
    ['another command', good.replace('kd ', 'kx '), -3],
    ['a date with letters', good.replace('202601151432', '2026011514AB'), 2],
    ['an org of 11 digits', good.replace('5560360793', '55603607931'), 3],
    ['a receiptNo with a sign', good.replace(' 42 ', ' +42 '), 5],
    ['a type in capitals', good.replace('normal', 'NORMAL'), 6],
    ['a returnAmount with a decimal point', good.replace('0,00 125,50', '0.00 125,50'), 8],
    ['a salesAmount with one decimal', good.replace('125,50', '125,5'), 9],
    ['a vat1 without a semicolon', good.replace('25,00;25,10', '25,00:25,10'), 10],
    ['a vat1 rate of 6 characters', good.replace('25,00;25,10', '100,00;25,10'), 10],
    ['a vat3 with three parts', good.replace('0,00;0,00 0,00;0,00 0,00;0,00', '0,00;0,00 0,00;0,00;0,00 0,00;0,00'), 12],
    ['a missing vat4', good.replace(/ 0,00;0,00$/, ''), 1],
    ['a missing salesAmount and after', good.split(' ').slice(0, 7).join(' '), 1],
    ['an extra field', `${good} 0,00;0,00`, 1],
  ])('refuses %s with return code %i', (_, body, returnCode) => {
    expect(decodeKd(framed(body))).toMatchObject({ ok: false, returnCode });
  });
});

describe('kd replies', () => {
  it('round-trips code 0 with a control code and a refusal without one', () => {
    expect(decodeKdReply(encodeKdReply({ code: 0, controlCode: 'ABC123' }))).toEqual({
      ok: true,
      code: 0,
      controlCode: 'ABC123',
    });
    expect(decodeKdReply(encodeKdReply({ code: 7 }))).toEqual({ ok: true, code: 7 });
    expect(decodeKdReply(encodeKdReply({ code: -2 }))).toEqual({ ok: true, code: -2 });
    expect(encodeKdReply({ code: 0, controlCode: 'ABC123' })).toBe(framed('0 ABC123'));
  });

  it('reports a CRC mismatch as a CRC error and anything unframed as a framing error', () => {
    expect(decodeKdReply('0 ABC123 0x0000\r\n')).toMatchObject({ ok: false, error: 'crc' });
    expect(decodeKdReply('garbage')).toMatchObject({ ok: false, error: 'framing', text: 'garbage' });
    expect(decodeKdReply(framed('0'))).toMatchObject({ ok: false, error: 'framing' });
    expect(decodeKdReply(framed('5 ABC123'))).toMatchObject({ ok: false, error: 'framing' });
    expect(decodeKdReply(framed('OK ABC123'))).toMatchObject({ ok: false, error: 'framing' });
    expect(decodeKdReply(framed('0 A B'))).toMatchObject({ ok: false, error: 'framing' });
    expect(decodeKdReply(framed('0  ABC123'))).toMatchObject({ ok: false, error: 'framing' });
    expect(decodeKdReply(oldRule('0 ABC123'))).toMatchObject({ ok: false, error: 'crc' });
  });

  it('refuses to write a reply that breaks the format', () => {
    expect(() => encodeKdReply({ code: 0 })).toThrow(/control code/);
    expect(() => encodeKdReply({ code: 3, controlCode: 'X' })).toThrow(/control code/);
    expect(() => encodeKdReply({ code: 0, controlCode: 'A B' })).toThrow(/printable/);
  });
});

describe('registerIdOf', () => {
  it('keeps letters and digits, drops diacritics, uppercases and keeps 16', () => {
    expect(registerIdOf('Kassa 1')).toBe('KASSA1');
    expect(registerIdOf('Kassa Östra 1')).toBe('KASSAOSTRA1');
    expect(registerIdOf('Café-kassan nr 12 (vid entrén)')).toBe('CAFEKASSANNR12VI');
    expect(registerIdOf('kassa-1')).toBe(registerIdOf('Kassa 1'));
  });

  it('refuses a name without a letter or digit', () => {
    expect(() => registerIdOf('--- ***')).toThrow(KdFieldError);
  });
});
