import { BurnrateError } from './errors.js';
import { FIRST_DAY, isWithinYears, LAST_DAY, MAX_PERIOD_DAYS } from './calendar-range.js';

/** A half-open range of UTC calendar days: [start, end). */
export interface Period {
  start: string; // YYYY-MM-DD
  end: string; // YYYY-MM-DD, exclusive
}

const DAY_MS = 86_400_000;

export function toDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function parseDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export function addDays(day: string, n: number): string {
  return toDay(new Date(parseDay(day).getTime() + n * DAY_MS));
}

export function daysBetween(start: string, end: string): number {
  return Math.round((parseDay(end).getTime() - parseDay(start).getTime()) / DAY_MS);
}

const dayLists = new Map<string, readonly string[]>();

/**
 * Every day of a period, in order. Checks ask for the same few periods once per team, so the
 * lists are kept (a bounded cache: they are small and immutable).
 */
export function daysOf(period: Period): readonly string[] {
  const key = `${period.start}|${period.end}`;
  let days = dayLists.get(key);
  if (!days) {
    const list: string[] = [];
    for (let d = period.start; d < period.end; d = addDays(d, 1)) list.push(d);
    if (dayLists.size > 512) dayLists.clear();
    days = Object.freeze(list);
    dayLists.set(key, days);
  }
  return days;
}

const MONTH_OFFSETS = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];

/**
 * Day of the week of a YYYY-MM-DD day, Sunday = 0, without building a Date (Sakamoto's method),
 * read from the digits' character codes: forecasts ask it for every day of every team's history.
 */
export function weekdayOf(day: string): number {
  const digit = (at: number) => day.charCodeAt(at) - 48;
  const month = digit(5) * 10 + digit(6);
  const year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3) - (month < 3 ? 1 : 0);
  return (
    (year + Math.floor(year / 4) - Math.floor(year / 100) + Math.floor(year / 400) + MONTH_OFFSETS[month - 1]! + digit(8) * 10 + digit(9)) %
    7
  );
}

/**
 * The calendar month of a day. Written on the digits, not with Date.UTC: Date.UTC reads the years
 * 0–99 as 1900–1999, which once made "0042-01" a month 1,900 years long.
 */
export function monthOf(day: string): Period {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const end = month === 12 ? `${String(year + 1).padStart(4, '0')}-01-01` : `${day.slice(0, 5)}${String(month + 1).padStart(2, '0')}-01`;
  return { start: `${day.slice(0, 7)}-01`, end };
}

/** ISO week (Monday to Sunday) containing `day`. */
export function isoWeekOf(day: string): Period {
  const weekday = (parseDay(day).getUTCDay() + 6) % 7; // Monday = 0
  const start = addDays(day, -weekday);
  return { start, end: addDays(start, 7) };
}

/** ISO week label such as 2026-W48. */
export function isoWeekLabel(day: string): string {
  const d = parseDay(day);
  const thursday = new Date(d.getTime() + (3 - ((d.getUTCDay() + 6) % 7)) * DAY_MS);
  const yearStart = parseDay(`${toDay(thursday).slice(0, 4)}-01-01`).getTime();
  const week = Math.floor((thursday.getTime() - yearStart) / DAY_MS / 7) + 1;
  return `${String(thursday.getUTCFullYear()).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of `now` in a time zone, e.g. for "today" of a team in Europe/Berlin. */
export function dayInZone(now: Date, timeZone: string): string {
  // Building a DateTimeFormat costs far more than using one: keep one per zone.
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

export const PERIOD_SYNTAX = 'this-month, last-month, this-week, last-week, YYYY-MM, YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD';

/**
 * Parses what a user types for a period. `today` anchors the relative forms.
 * A range's second day is inclusive, as people say it; the returned end is exclusive.
 * Every day typed lies in the years burnrate answers about, and a range is at most MAX_PERIOD_DAYS long.
 */
export function parsePeriod(text: string, today: string): Period {
  const value = text.trim().toLowerCase();
  if (value === 'this-month' || value === 'mtd') return monthOf(today);
  if (value === 'last-month') return monthOf(addDays(monthOf(today).start, -1));
  if (value === 'this-week' || value === 'wtd') return isoWeekOf(today);
  if (value === 'last-week') return isoWeekOf(addDays(isoWeekOf(today).start, -1));
  if (/^\d{4}-\d{2}$/.test(value) && isValidDay(`${value}-01`)) return monthOf(checkDay(`${value}-01`, text));
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && isValidDay(value)) return { start: checkDay(value, text), end: addDays(value, 1) };
  const range = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(value);
  if (range && isValidDay(range[1]!) && isValidDay(range[2]!)) {
    const [start, last] = [checkDay(range[1]!, text), checkDay(range[2]!, text)];
    if (last < start) {
      throw new BurnrateError(
        'burnrate_period_invalid',
        `period "${text}" ends before it starts`,
        'Write the earlier day first, e.g. 2026-11-01..2026-11-15.',
      );
    }
    const length = daysBetween(start, last) + 1;
    if (length > MAX_PERIOD_DAYS)
      throw new BurnrateError(
        'burnrate_period_invalid',
        `period "${text}" is ${length} days long`,
        `Ask for at most ${MAX_PERIOD_DAYS} days (three years) at a time, e.g. 2026-01-01..2026-12-31.`,
      );
    return { start, end: addDays(last, 1) };
  }
  throw new BurnrateError('burnrate_period_invalid', `unknown period "${text}"`, `Use ${PERIOD_SYNTAX}.`);
}

/** A day typed, when it falls in the years burnrate answers about. */
function checkDay(day: string, text: string): string {
  if (isWithinYears(day)) return day;
  throw new BurnrateError(
    'burnrate_period_invalid',
    `period "${text}" is outside the years burnrate answers about`,
    `Give days from ${FIRST_DAY} to ${LAST_DAY}, e.g. 2026-11 or 2026-11-01..2026-11-15.`,
  );
}

function isValidDay(day: string): boolean {
  const d = parseDay(day);
  return !Number.isNaN(d.getTime()) && toDay(d) === day;
}
