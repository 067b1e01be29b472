/**
 * Business dates (docs/conventions.md §17): a register's day is dated in its seller's time zone, found from the
 * country that opens every seller id (docs/conventions.md §9). A country not listed is dated in UTC.
 */
const TIME_ZONES: Readonly<Record<string, string>> = {
  SE: 'Europe/Stockholm',
  NO: 'Europe/Oslo',
  DK: 'Europe/Copenhagen',
  FI: 'Europe/Helsinki',
  IS: 'Atlantic/Reykjavik',
  EE: 'Europe/Tallinn',
  LV: 'Europe/Riga',
  LT: 'Europe/Vilnius',
  PL: 'Europe/Warsaw',
  DE: 'Europe/Berlin',
  NL: 'Europe/Amsterdam',
  BE: 'Europe/Brussels',
  FR: 'Europe/Paris',
  ES: 'Europe/Madrid',
  IT: 'Europe/Rome',
  AT: 'Europe/Vienna',
  CH: 'Europe/Zurich',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  PT: 'Europe/Lisbon',
  CZ: 'Europe/Prague',
  SK: 'Europe/Bratislava',
  HU: 'Europe/Budapest',
  UA: 'Europe/Kyiv',
  US: 'America/New_York',
};

export const timeZoneOf = (sellerId: string): string => TIME_ZONES[sellerId.slice(0, 2)] ?? 'UTC';

// One formatter per zone, made on first use: building one initialises ICU, which no request needs at Init.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of an instant: year, month (1-12), day, hour (0-23), minute and second. */
export type WallClock = Readonly<Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>>;

/**
 * Per zone, the last second dated and its fields. The fields depend on the second only (offsets are whole seconds), a
 * request dates its `now` more than once (a print: its day, its receipt's time), and ICU's formatToParts costs more
 * than the rest of a date's arithmetic together.
 */
const lastDated = new Map<string, { second: number; wall: WallClock }>();

/** The wall-clock fields of an instant in a time zone. */
export function wallClock(instant: number, timeZone: string): WallClock {
  const second = Math.floor(instant / 1000);
  const last = lastDated.get(timeZone);
  if (last?.second === second) return last.wall;
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Object.freeze({
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  });
  lastDated.set(timeZone, { second, wall });
  return wall;
}

/** The date of an instant in a time zone, as the integer `yyyymmdd`. */
export function businessDate(instant: number, timeZone: string): number {
  const { year, month, day } = wallClock(instant, timeZone);
  return year * 10000 + month * 100 + day;
}

/** Midnight UTC of a `yyyymmdd` date: the date as an instant, for calendar arithmetic. */
export const utcMidnight = (date: number): number =>
  Date.UTC(Math.floor(date / 10000), (Math.floor(date / 100) % 100) - 1, date % 100);

/** Calendar days from one `yyyymmdd` date to another (negative when `to` is earlier). */
export const daysBetween = (from: number, to: number): number => Math.round((utcMidnight(to) - utcMidnight(from)) / 86_400_000);

/** The date `days` days after a `yyyymmdd` date (before it when negative), by the calendar. */
export function addDays(date: number, days: number): number {
  const day = new Date(utcMidnight(date) + days * 86_400_000);
  return day.getUTCFullYear() * 10000 + (day.getUTCMonth() + 1) * 100 + day.getUTCDate();
}

/** The first date of a period of `period` days ending today (docs/conventions.md §17: 1 is today). */
export const periodStart = (period: number, timeZone: string, now: number): number =>
  addDays(businessDate(now, timeZone), 1 - period);
