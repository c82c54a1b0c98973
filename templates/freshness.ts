/** "billing data through 30 Nov": every message says how fresh the numbers behind it are. */
export function freshnessLine(dataThrough: string | null): string {
  if (!dataThrough) return 'no billing data yet';
  return `billing data through ${shortDate(lastCoveredDay(dataThrough))}`;
}

/** Data through 2026-12-01T00:00Z (exclusive) covers 30 Nov; through 2026-12-01T13:00Z covers part of 1 Dec. */
function lastCoveredDay(dataThrough: string): Date {
  return new Date(new Date(dataThrough).getTime() - 1);
}

const SHORT_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const MONTH_NAME = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function shortDate(date: Date | string): string {
  return SHORT_DATE.format(typeof date === 'string' ? new Date(`${date.slice(0, 10)}T00:00:00Z`) : date);
}

export function monthName(period: string): string {
  return MONTH_NAME.format(new Date(`${period}-01T00:00:00Z`));
}
