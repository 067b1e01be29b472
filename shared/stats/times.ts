/**
 * Times as statistics show them (docs/conventions.md §20): the keys of `bruttoStats` and the CSV's times are
 * wall-clock times in the seller's time zone with its numeric offset, `2024-06-11T09:00:00.000+0200`.
 */
import { addDays, utcMidnight, wallClock } from '#shared/fiscal/dates.ts';

export const DATE_GROUPING_UNITS = ['HOUR', 'DAY', 'WEEK', 'MONTH'] as const;
export type DateGroupingUnit = (typeof DATE_GROUPING_UNITS)[number];

/** The zone's offset from UTC at an instant, in minutes. */
function offsetMinutes(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - (instant - (instant % 1000))) / 60_000);
}

const two = (value: number) => String(value).padStart(2, '0');

/** An instant as `yyyy-MM-ddTHH:mm:ss.SSS±hhmm` in the time zone. */
export function formatInstant(instant: number, timeZone: string): string {
  const wall = wallClock(instant, timeZone);
  const offset = offsetMinutes(instant, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}${two(Math.abs(offset) % 60)}`;
  const millis = String(((instant % 1000) + 1000) % 1000).padStart(3, '0');
  return `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}:${two(wall.second)}.${millis}${zone}`;
}

/** A business date (`yyyymmdd`) as `yyyy-MM-dd`. */
export const formatDate = (date: number): string =>
  `${Math.floor(date / 10000)}-${two(Math.floor(date / 100) % 100)}-${two(date % 100)}`;

/** The instant a business date starts in the time zone (its midnight; the offset is that of the day's start). */
export function startOfDate(date: number, timeZone: string): number {
  const midnightUtc = utcMidnight(date);
  const guess = midnightUtc - offsetMinutes(midnightUtc, timeZone) * 60_000;
  return midnightUtc - offsetMinutes(guess, timeZone) * 60_000;
}

/** The first date of a date's bucket: the date itself, the Monday of its week, or the first of its month. */
export function bucketDate(date: number, unit: Exclude<DateGroupingUnit, 'HOUR'>): number {
  if (unit === 'DAY') return date;
  if (unit === 'MONTH') return date - (date % 100) + 1;
  const weekday = new Date(utcMidnight(date)).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}
