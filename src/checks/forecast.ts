import type { Forecast } from '../domain/finding.js';
import { addDays, daysOf, weekdayOf, type Period } from '../domain/period.js';

export interface ForecastInput {
  /** Daily spend by day (YYYY-MM-DD); days without a row spent nothing. */
  daily: ReadonlyMap<string, number>;
  period: Period;
  /** First day with no data yet: everything before it is actual. */
  dataEnd: string;
  lookbackDays: number;
}

/** Below this many days of history a weekday profile is noise; a straight line is more honest. */
const MIN_DAYS_FOR_WEEKDAYS = 14;

/**
 * Projects spend to the end of a period: what is spent so far plus, for each remaining day, the
 * average of the same weekday over the lookback window. ML spend has strong weekday patterns
 * (notebooks and experiments stop at weekends), which a straight line over the month misses.
 */
export function forecastPeriodEnd(input: ForecastInput): Forecast & { actual: number } {
  const { daily, period, dataEnd, lookbackDays } = input;
  const actualDays = daysOf({ start: period.start, end: minDay(dataEnd, period.end) });
  const actual = sum(actualDays.map((d) => daily.get(d) ?? 0));
  const remaining = daysOf({ start: maxDay(dataEnd, period.start), end: period.end });
  if (remaining.length === 0) return { actual, amount: actual, method: 'period complete: actual spend' };

  const first = firstDay(daily);
  const history = daysOf({ start: addDays(dataEnd, -lookbackDays), end: dataEnd }).filter((d) => d >= first);
  if (history.length === 0) return { actual, amount: actual, method: 'no history yet: actual spend only' };

  if (history.length < MIN_DAYS_FOR_WEEKDAYS) {
    const perDay = sum(history.map((d) => daily.get(d) ?? 0)) / history.length;
    return { actual, amount: actual + perDay * remaining.length, method: `straight line from the last ${history.length} days` };
  }

  const byWeekday = Array.from({ length: 7 }, () => ({ total: 0, days: 0 }));
  for (const day of history) {
    const slot = byWeekday[weekdayOf(day)]!;
    slot.total += daily.get(day) ?? 0;
    slot.days += 1;
  }
  const projected = sum(
    remaining.map((day) => {
      const slot = byWeekday[weekdayOf(day)]!;
      return slot.days > 0 ? slot.total / slot.days : 0;
    }),
  );
  return { actual, amount: actual + projected, method: `weekday averages of the last ${history.length} days` };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}

/** Earliest day with data; days before it are unknown rather than zero-spend. */
function firstDay(daily: ReadonlyMap<string, number>): string {
  let first = '9999-12-31';
  for (const day of daily.keys()) if (day < first) first = day;
  return first;
}
