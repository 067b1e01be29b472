/** Items to attribute values and back (shared/db/attributes.ts): the document client's rules, which stored items were written by. */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { fromAttributes, toAttributes } from '#shared/db/attributes.ts';

const DOCUMENT_CLIENT = { removeUndefinedValues: true, convertEmptyValues: false } as const;

/** Items of the shapes the table holds: keys, counters, money, nested records, lists, nulls, flags, bytes. */
const items: Record<string, unknown>[] = [
  { pk: 'S#SE5560360793', sk: '#VERSION', ver: 4, live: true },
  { pk: 'R#SE1#KASSA-1', sk: 'SALE#0001', amount: 19.9, vat: -2.5, lines: [{ qty: 1, note: '' }, { qty: 2.125 }], voided: null },
  {
    pk: 'U#anna',
    sk: '#USER',
    sellers: [],
    roles: ['ADMIN'],
    profile: { phone: null, address: { city: 'Malmö', zip: '211 20' } },
  },
  {
    pk: 'K#ab',
    sk: '#KEY',
    hash: new Uint8Array([1, 2, 3]),
    big: Number.MAX_SAFE_INTEGER,
    small: Number.MIN_SAFE_INTEGER,
    zero: 0,
  },
  { pk: 'S#1', sk: 'TAX#moms', tags: new Set(['a', 'b']), rates: new Set([6, 12, 25]), nested: [[1, [2]], { deep: [null] }] },
];

describe('attribute values', () => {
  it('writes every item as the document client wrote it', () => {
    for (const item of items) expect(toAttributes(item)).toEqual(marshall(item, DOCUMENT_CLIENT));
  });

  it('reads every stored item as the document client read it, and gives back what was written', () => {
    for (const item of items) {
      const stored = marshall(item, DOCUMENT_CLIENT);
      expect(fromAttributes(stored)).toEqual(unmarshall(stored));
      expect(fromAttributes(toAttributes(item))).toEqual(item);
    }
  });

  it('leaves out undefined fields and list elements, and keeps an empty string', () => {
    const item = { pk: 'S#1', sk: 'X', gone: undefined, list: [1, undefined, 2], text: '', inner: { gone: undefined, kept: 1 } };
    expect(toAttributes(item)).toEqual({
      pk: { S: 'S#1' },
      sk: { S: 'X' },
      list: { L: [{ N: '1' }, { N: '2' }] },
      text: { S: '' },
      inner: { M: { kept: { N: '1' } } },
    });
    expect(toAttributes(item)).toEqual(marshall(item, DOCUMENT_CLIENT));
  });

  it('refuses what DynamoDB cannot hold exactly, as the document client did', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2, new Date(0), new Set()]) {
      expect(() => toAttributes({ value })).toThrow();
      expect(() => marshall({ value }, DOCUMENT_CLIENT)).toThrow();
    }
  });

  it('reads a number beyond the safe range as a BigInt, not as a number that lost digits', () => {
    const stored = { n: { N: '12345678901234567890' }, f: { N: '0.1' } };
    expect(fromAttributes(stored)).toEqual({ n: 12345678901234567890n, f: 0.1 });
    expect(fromAttributes(stored)).toEqual(unmarshall(stored));
  });

  it('writes a BigInt, alone or in a set, with all its digits', () => {
    const item = { n: 12345678901234567890n, ns: new Set([1n, 12345678901234567890n]) };
    expect(toAttributes(item)).toEqual({ n: { N: '12345678901234567890' }, ns: { NS: ['1', '12345678901234567890'] } });
    expect(toAttributes(item)).toEqual(marshall(item, DOCUMENT_CLIENT));
  });
});
