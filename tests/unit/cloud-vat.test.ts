/**
 * The VAT groups a cloud control unit registers (functions/kd/cloud-link.ts), computed by hand: each group's VAT and net
 * at 25, 12, 6 and 0 %, whichever way the register sent the receipt's VAT (docs/conventions.md §25, §27).
 */
import { describe, expect, it } from 'vitest';
import type { KdBody } from '#schemas/types.ts';
import { vatGroups } from '#functions/kd/cloud-link.ts';
import { kdOrderOf } from '#functions/kd/mapping.ts';

const order = (vatRateToSum: Record<string, number>, brutto?: number) =>
  kdOrderOf({
    vatRateToSum,
    refund: false,
    printType: 'Normal',
    receiptNumber: 1,
    date: 0,
    ...(brutto === undefined ? {} : { brutto }),
  } as KdBody);

describe('vatGroups', () => {
  it('gross per rate: each net is the gross less its VAT (the public client test data: 116.26 at 25 and 12 %)', () => {
    // 63.06 at 25 %: VAT 63.06 x 25/125 = 12.612 -> 12.61, net 50.45; 53.20 at 12 %: VAT 53.20 x 12/112 = 5.70, net 47.50.
    expect(vatGroups(order({ '25': 6306, '12': 5320 }))).toEqual([
      { amount: 1261, subtotal: 5045 },
      { amount: 570, subtotal: 4750 },
      null,
      null,
    ]);
  });

  it('VAT amounts beside brutto: each net from its VAT, the rounding left over on the highest rate', () => {
    // 12.61 / 0.25 = 50.44, 5.70 / 0.12 = 47.50; 116.26 - 12.61 - 50.44 - 5.70 - 47.50 = 0.01 -> 25 % net 50.45.
    expect(vatGroups(order({ '25': 1261, '12': 570 }, 11626))).toEqual([
      { amount: 1261, subtotal: 5045 },
      { amount: 570, subtotal: 4750 },
      null,
      null,
    ]);
    // One rate: its net is brutto less the VAT.
    expect(vatGroups(order({ '6': 283 }, 5000))).toEqual([null, null, { amount: 283, subtotal: 4717 }, null]);
  });

  it('VAT amounts beside brutto with a 0 % rate named: what the rates do not carry is sold at 0 %', () => {
    // 10.00 / 0.25 = 40.00 net at 25 %; 100.00 - 10.00 - 40.00 = 50.00 at 0 %.
    expect(vatGroups(order({ '25': 1000, '0': 0 }, 10000))).toEqual([
      { amount: 1000, subtotal: 4000 },
      null,
      null,
      { amount: 0, subtotal: 5000 },
    ]);
  });
});
