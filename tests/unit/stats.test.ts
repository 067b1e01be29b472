/** Statistics' pure parts (docs/conventions.md §20): bucket times across time zones and DST, and CSV cells. */
import { describe, expect, it } from 'vitest';
import { periodOf, statsParamsOf } from '#shared/stats/coverage.ts';
import { csvCell, salesCsvChunks } from '#shared/stats/sales-csv.ts';
import { bucketDate, formatDate, formatInstant, startOfDate } from '#shared/stats/times.ts';

describe('bucket times', () => {
  it('format an instant with the zone offset in force, winter and summer', () => {
    expect(formatInstant(Date.parse('2024-01-15T08:00:00.123Z'), 'Europe/Stockholm')).toBe('2024-01-15T09:00:00.123+0100');
    expect(formatInstant(Date.parse('2024-07-15T08:00:00Z'), 'Europe/Stockholm')).toBe('2024-07-15T10:00:00.000+0200');
    expect(formatInstant(Date.parse('2024-07-15T03:30:00Z'), 'America/New_York')).toBe('2024-07-14T23:30:00.000-0400');
    expect(formatInstant(Date.parse('2024-07-15T03:30:00Z'), 'UTC')).toBe('2024-07-15T03:30:00.000+0000');
  });

  it('start a business date at its local midnight, on the days the clocks change too', () => {
    expect(startOfDate(20240331, 'Europe/Stockholm')).toBe(Date.parse('2024-03-30T23:00:00Z'));
    expect(startOfDate(20240401, 'Europe/Stockholm')).toBe(Date.parse('2024-03-31T22:00:00Z'));
    expect(startOfDate(20241027, 'Europe/Stockholm')).toBe(Date.parse('2024-10-26T22:00:00Z'));
    expect(formatInstant(startOfDate(20241028, 'Europe/Stockholm'), 'Europe/Stockholm')).toBe('2024-10-28T00:00:00.000+0100');
  });

  it('group dates by day, by week from Monday and by month', () => {
    expect(bucketDate(20240612, 'DAY')).toBe(20240612);
    expect(bucketDate(20240612, 'WEEK')).toBe(20240610);
    expect(bucketDate(20240610, 'WEEK')).toBe(20240610);
    expect(bucketDate(20240609, 'WEEK')).toBe(20240603);
    expect(bucketDate(20240101, 'WEEK')).toBe(20240101);
    expect(bucketDate(20231231, 'WEEK')).toBe(20231225);
    expect(bucketDate(20240229, 'MONTH')).toBe(20240201);
    expect(formatDate(20240605)).toBe('2024-06-05');
  });
});

describe('the period of a query', () => {
  const now = Date.parse('2024-06-12T10:00:00Z');
  const query = (text: string) => statsParamsOf(new URLSearchParams(text));

  it('is today by default, the last N days with period, or the dates of from and to', () => {
    expect(periodOf(query(''), 'Europe/Stockholm', now)).toEqual({ first: 20240612, last: 20240612 });
    expect(periodOf(query('period=7'), 'Europe/Stockholm', now)).toEqual({ first: 20240606, last: 20240612 });
    // 22:30 UTC on the 10th is already the 11th in Stockholm.
    expect(periodOf(query(`from=${Date.parse('2024-06-10T22:30:00Z')}`), 'Europe/Stockholm', now)).toEqual({
      first: 20240611,
      last: 20240612,
    });
    expect(periodOf(query('to=0'), 'UTC', now)).toEqual({ first: 19700101, last: 19700101 });
  });

  it.each(['period=0', 'period=36601', 'period=-1', 'period=x', 'from=-5', 'to=9000000000000000', 'from=100000000000&to=1'])(
    '%s is 400 TypeMismatch',
    (text) => {
      expect(() => periodOf(query(text), 'UTC', now)).toThrow(
        expect.objectContaining({ status: 400, exception: 'TypeMismatch' }),
      );
    },
  );
});

describe('CSV cells', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+46', "'+46"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=a,"b"', `"'=a,""b"""`],
    ['Kaffe', 'Kaffe'],
    [1250, '1250'],
    [null, ''],
    [undefined, ''],
  ])('%j -> %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('a period without sales is the header row alone', async () => {
    const chunks: string[] = [];
    for await (const chunk of salesCsvChunks({ timeZone: 'UTC', registers: [] })) chunks.push(chunk);
    expect(chunks.join('')).toBe(
      'date,time,cashRegisterName,dayNumber,receiptNumber,identifier,type,state,brutto,vat,sellerIdentifier,treasurer\r\n',
    );
  });
});
