/**
 * The heat row's model (scripts/bench/heat-model.ts) on Scans made by hand: item and LSI entry sizes by DynamoDB's
 * rules, the writes two Scans show, the shapes concrete partition keys group into, what one key serves, and the fleet
 * arithmetic of one key, each figure computed by hand in the test.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  collectionSize,
  fleetFigures,
  itemSize,
  perSaleAt,
  type Register,
  scopeOf,
  shapeFigures,
  shapesOf,
  type StoredItem,
  type TableShape,
  type Write,
  writesBetween,
} from '../../scripts/bench/heat-model.ts';

const S = (text: string): AttributeValue => ({ S: text });
const N = (text: string): AttributeValue => ({ N: text });

/** The table as it is today: byVersion projects everything, byTombstone the keys and `version`. */
const TABLE: TableShape = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'byVersion', sortKey: 'vsk', projection: { type: 'ALL' } },
    { name: 'byTombstone', sortKey: 'tsk', projection: { type: 'INCLUDE', attributes: ['version'] } },
  ],
};
const NO_INDEX: TableShape = { ...TABLE, indexes: [] };

const A1: Register = { seller: 'SEA', cash: 'Till-1' };
const A2: Register = { seller: 'SEA', cash: 'Till-2' };
const B1: Register = { seller: 'SEB', cash: 'Till-1' };

const write = (pk: string, register: Register, bytes: number, created = true, units = 2, daily = false): Write => ({
  pk,
  register,
  daily,
  created,
  bytes,
  units,
});

describe('sizes', () => {
  it('sizes an item by its names and values, and adds the entry of every LSI whose sort key it has', () => {
    // Prepare: pk 2+3, sk 2+6, total 5 + (3 significant digits of 12300: 2 bytes + 1), vsk 3+7, lines 5 + (3 + a 1 + 5's 2 + 1).
    const sale: StoredItem = { pk: S('R#A'), sk: S('SALE#1'), total: N('12300'), vsk: S('SALE#01'), lines: { M: { a: N('5') } } };
    // pk 5, sk 8, tsk 3+5, version 7+2, body 4+3; byTombstone projects the keys, tsk and version: 5+8+8+9 + 100.
    const tombstone: StoredItem = { pk: S('R#A'), sk: S('SALE#2'), tsk: S('00017'), version: N('17'), body: S('xyz') };

    // Act, Assess
    expect(itemSize(sale)).toBe(5 + 8 + 8 + 10 + 12);
    expect(collectionSize(sale, TABLE)).toBe(43 + 43 + 100);
    expect(collectionSize(sale, NO_INDEX)).toBe(43);
    expect(itemSize(tombstone)).toBe(37);
    expect(collectionSize(tombstone, TABLE)).toBe(37 + 30 + 100);
  });
});

describe('writesBetween', () => {
  it('counts an item new, changed or gone between two Scans, not one whose attributes only came back in another order', () => {
    // Prepare
    const id = (item: StoredItem) => `${item.pk?.S}\u0000${item.sk?.S}`;
    const kept: StoredItem = { pk: S('SEQ'), sk: S('a') };
    const counter: StoredItem = { pk: S('R#A'), sk: S('#VERSION'), version: N('1') };
    const gone: StoredItem = { pk: S('KDLOG'), sk: S('KD#1') };
    // pk 2+5, sk 2+4, blob 4+1500: 1,517 bytes, 2 KB rounded up, twice (transactional).
    const large: StoredItem = { pk: S('KDLOG'), sk: S('KD#2'), blob: S('x'.repeat(1500)) };
    const before = new Map([kept, counter, gone].map((item) => [id(item), item]));
    const after = new Map([
      [id(kept), { sk: S('a'), pk: S('SEQ') }],
      [id(counter), { ...counter, version: N('2') }],
      [id(large), large],
    ]);

    // Act
    const writes = writesBetween(before, after, TABLE, { register: A1, daily: false });

    // Assess: the counter's size is the same (pk 5 + sk 10 + version 7+2); the gone item frees its 7 + 6 bytes.
    expect(writes).toEqual([
      { pk: 'R#A', register: A1, daily: false, created: false, bytes: 0, units: 2 },
      { pk: 'KDLOG', register: A1, daily: false, created: false, bytes: -13, units: 2 },
      { pk: 'KDLOG', register: A1, daily: false, created: true, bytes: 1517, units: 4 },
    ]);
  });
});

describe('shapesOf', () => {
  it('names the known ids, generated tokens and the runs that vary between keys alike, and the vendor where nothing else varies', () => {
    // Prepare
    const known = {
      sellers: ['SE5560360835', 'SE5560360843'],
      cashes: ['Heat-till-1'],
      serials: ['HEATCU0000000001'],
      vendors: ['7'],
    };
    const expected: Record<string, string> = {
      KDLOG: 'KDLOG',
      'KDLOG#A3': 'KDLOG#A<n>',
      'KDLOG#Ab': 'KDLOG#A<n>',
      'KDLOG#V7': 'KDLOG#V<vendor>',
      'KDLOG#V7#0': 'KDLOG#V<vendor>#<n>',
      'KDLOG#V7#e': 'KDLOG#V<vendor>#<n>',
      'KDLOG#SSE5560360835': 'KDLOG#S<seller>',
      'KDLOG#SSE5560360843': 'KDLOG#S<seller>',
      'KDLOG#UHEATCU0000000001': 'KDLOG#U<serial>',
      'R#SE5560360835#Heat-till-1': 'R#<seller>#<cash>',
      'KDR#0b6f4a1e-6c2d-4f0e-9a55-3f8c2d1e7b90': 'KDR#<n>',
      // An activation's id is a number like the vendor's: it varies, so it is no vendor.
      'A#7': 'A#<n>',
      'A#12': 'A#<n>',
      'U#bench': 'U#bench',
    };

    // Act
    const shapes = shapesOf(Object.keys(expected), known);

    // Assess
    expect(Object.fromEntries(shapes)).toEqual(expected);
  });
});

describe('scopeOf', () => {
  it('says a key written by one register serves it, by registers of one seller a chain, by several sellers the fleet', () => {
    expect(scopeOf([A1, A1])).toBe('register');
    expect(scopeOf([A1, A2, A1])).toBe('chain');
    expect(scopeOf([A1, B1])).toBe('fleet');
  });
});

describe('shapeFigures and fleetFigures', () => {
  // A1 sold 2, A2 1, B1 1: 4 sales; A's registers 3; each register traded one day.
  const trading = [
    { register: A1, sales: 2, days: 1 },
    { register: A2, sales: 1, days: 1 },
    { register: B1, sales: 1, days: 1 },
  ];
  const shapes = new Map([
    ['KDLOG', 'KDLOG'],
    ['KDLOG#SSEA', 'KDLOG#S<seller>'],
    ['R#SEA#Till-1', 'R#<seller>#<cash>'],
    ['KDLOG#A1', 'KDLOG#A<n>'],
    ['KDLOG#A2', 'KDLOG#A<n>'],
  ]);
  const writes = [
    // Every sale's record in the fleet's directory: 500 bytes each.
    ...[A1, A1, A2, B1].map((register) => write('KDLOG', register, 500)),
    // The chain's directory: A's 3 sales.
    ...[A1, A1, A2].map((register) => write('KDLOG#SSEA', register, 300)),
    // A1's partition: 2 items and a rewrite that grew one by 200 bytes.
    write('R#SEA#Till-1', A1, 1000),
    write('R#SEA#Till-1', A1, 1000),
    write('R#SEA#Till-1', A1, 200, false),
    // Its day's close: a new item of 3,000 bytes (3 KB, twice).
    write('R#SEA#Till-1', A1, 3000, true, 6, true),
    // Two shards of the fleet's directory, 2 records each.
    write('KDLOG#A1', A1, 400),
    write('KDLOG#A1', B1, 400),
    write('KDLOG#A2', A2, 400),
    write('KDLOG#A2', B1, 400),
  ];
  const figures = new Map(shapeFigures(writes, trading, shapes).map((figure) => [figure.shape, figure]));

  it('divides what one key took by the sales (days) of the registers it serves, averaged over the keys of the shape written', () => {
    expect(figures.get('KDLOG')).toEqual({
      shape: 'KDLOG',
      scope: 'fleet',
      keys: 1,
      perSale: { bytes: 500, newItems: 1, writes: 1, units: 2 },
      perDay: { bytes: 0, newItems: 0, writes: 0, units: 0 },
    });
    expect(figures.get('KDLOG#S<seller>')).toMatchObject({
      scope: 'chain',
      perSale: { bytes: 300, newItems: 1, writes: 1, units: 2 },
    });
    // 2,200 bytes, 2 new items, 3 writes (6 units) over A1's 2 sales; its close over its 1 day.
    expect(figures.get('R#<seller>#<cash>')).toMatchObject({
      scope: 'register',
      perSale: { bytes: 1100, newItems: 1, writes: 1.5, units: 3 },
      perDay: { bytes: 3000, newItems: 1, writes: 1, units: 6 },
    });
    // Each shard: 800 bytes and 2 writes over the fleet's 4 sales.
    expect(figures.get('KDLOG#A<n>')).toMatchObject({
      scope: 'fleet',
      keys: 2,
      perSale: { bytes: 200, newItems: 0.5, writes: 0.5, units: 1 },
    });
  });

  it("fails a fleet key that reaches 10 GB within 7 years at a busy register's receipts or takes over 300 WCU/s at the peak", () => {
    // Prepare
    const fleet = figures.get('KDLOG');
    const register = figures.get('R#<seller>#<cash>');
    if (!fleet || !register) throw new Error('a shape is missing');

    // Act
    const fleetKey = fleetFigures(fleet, true);
    const registerKey = fleetFigures(register, true);
    const withoutIndex = fleetFigures(fleet, false);

    // Assess: 10 GiB / (500 B x 100,000 x 150 or 1,000) days; 2 units x 100,000 x 40 / 3,600 WCU/s.
    expect(fleetKey.registers).toBe(100_000);
    expect(fleetKey.daysToLimit?.usual).toBeCloseTo(10_737_418_240 / 7_500_000_000, 6);
    expect(fleetKey.daysToLimit?.busy).toBeCloseTo(10_737_418_240 / 50_000_000_000, 6);
    expect(fleetKey.peakWcu).toBeCloseTo(2222.222, 3);
    expect(fleetKey.peakItems).toBeCloseTo(1111.111, 3);
    expect(fleetKey.failures).toEqual(['10 GB in 0 days at 1,000 a day', '2,222 WCU/s at the peak']);
    // 10 GiB / (1,100 B x 1,000 + 3,000 B a day) = 9,735 days: over 7 years; (3 + 6 / 150) units x 40 / 3,600 WCU/s.
    expect(perSaleAt(register, 150)).toEqual({ bytes: 1120, newItems: 1 + 1 / 150, writes: 1.5 + 1 / 150, units: 3.04 });
    expect(registerKey.daysToLimit?.usual).toBeCloseTo(10_737_418_240 / (1120 * 150), 6);
    expect(registerKey.daysToLimit?.busy).toBeCloseTo(9734.74, 2);
    expect(registerKey.peakWcu).toBeCloseTo(0.033778, 6);
    expect(registerKey.failures).toEqual([]);
    // Without an LSI no collection has a limit; the peak's write units remain.
    expect(withoutIndex.daysToLimit).toBeUndefined();
    expect(withoutIndex.failures).toEqual(['2,222 WCU/s at the peak']);
  });
});
