/** Two-decimal text and integer hundredths (shared/hundredths.ts): the one conversion the gateway, the kd line and the export use. */
import { describe, expect, it } from 'vitest';
import { formatHundredths, parseHundredths } from '#shared/hundredths.ts';

describe('parseHundredths', () => {
  it.each([
    ['125.50', '.', 12550],
    ['125.5', '.', 12550],
    ['125', '.', 12500],
    ['0.07', '.', 7],
    ['12.5', '.', 1250],
    ['125,50', ',', 12550],
    ['0000000001,05', ',', 105],
  ] as const)('%s with %s is %i hundredths', (text, separator, hundredths) => {
    expect(parseHundredths(text, separator)).toBe(hundredths);
  });
});

describe('formatHundredths', () => {
  it.each([
    [12550, '.', '125.50'],
    [7, '.', '0.07'],
    [0, ',', '0,00'],
    [12550, ',', '125,50'],
    [-1250, '.', '-12.50'],
    [-5, '.', '-0.05'],
    [-0.4, '.', '0.00'],
    [12549.6, ',', '125,50'],
  ] as const)('%d with %s is %s', (hundredths, separator, text) => {
    expect(formatHundredths(hundredths, separator)).toBe(text);
  });
});
