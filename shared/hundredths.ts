/**
 * Two-decimal numbers as text and as integer hundredths, both ways: an amount (`"125.50"` -> 12550) or a VAT rate
 * (`"12.5"` -> 1250 hundredths of a percent). The one home of the conversion; each caller owns the shape it accepts
 * (a schema's pattern, the kd line's field format) and the separator its format uses.
 */

/** A decimal separator: `.` (JSON bodies, the gateway, SKVFS 2021:16 XML) or `,` (the kd line). */
export type DecimalSeparator = '.' | ',';

/**
 * Digits with at most two decimals after `separator` as integer hundredths: `"125.5"` -> 12550, `"6"` -> 600,
 * `"125,50"` with `,` -> 12550. The caller has checked the shape (digits, one separator, at most two decimals).
 */
export function parseHundredths(text: string, separator: DecimalSeparator): number {
  const [whole = '0', fraction = ''] = text.split(separator);
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * Integer hundredths as a decimal with exactly two decimals after `separator`: 12550 -> `125.50`, -5 -> `-0.05`,
 * 12550 with `,` -> `125,50`. A fraction of a hundredth is rounded; no sign on what rounds to zero.
 */
export function formatHundredths(hundredths: number, separator: DecimalSeparator): string {
  const absolute = Math.abs(Math.round(hundredths));
  const sign = hundredths < 0 && absolute > 0 ? '-' : '';
  return `${sign}${Math.floor(absolute / 100)}${separator}${String(absolute % 100).padStart(2, '0')}`;
}
