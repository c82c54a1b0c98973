import { BurnrateError } from './errors.js';

// The stretch of calendar burnrate answers about. Anything a person types (a month, a day, a
// period, a time) is checked against it before it reaches a query: a year such as 0042 or 9999
// is a typo or an attack, never a bill, and one such month once asked the GPU metrics for 200
// million samples per series and took the server down.

export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2100;
export const FIRST_DAY = `${FIRST_YEAR}-01-01`;
export const LAST_DAY = `${LAST_YEAR}-12-31`;

/** The longest period a person may ask for at once: three years of days keeps an answer and its chart quick. */
export const MAX_PERIOD_DAYS = 1_096;

/** Whether a YYYY-MM-DD day (or a YYYY-MM month) falls in the years burnrate answers about. */
export function isWithinYears(dayOrMonth: string): boolean {
  const year = Number(dayOrMonth.slice(0, 4));
  return /^\d{4}/.test(dayOrMonth) && year >= FIRST_YEAR && year <= LAST_YEAR;
}

/** Whether an instant falls in those years (a NaN date does not). */
export function isInstantWithinYears(at: Date): boolean {
  const year = at.getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A month typed as YYYY-MM, checked for its shape and its year; returned as written, trimmed. */
export function parseMonth(text: string): string {
  const month = text.trim();
  if (!MONTH.test(month))
    throw new BurnrateError('burnrate_month_invalid', `"${text}" is not a month`, 'Write it as YYYY-MM, e.g. 2026-11.');
  if (!isWithinYears(month))
    throw new BurnrateError(
      'burnrate_month_invalid',
      `${month} is outside the years burnrate answers about`,
      `Write a month from ${FIRST_YEAR}-01 to ${LAST_YEAR}-12, e.g. 2026-11.`,
    );
  return month;
}
