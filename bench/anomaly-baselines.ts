// The two detectors burnrate's anomaly check is measured against in the backtest: what a
// threshold on a mean amounts to. Each says whether a day is an anomaly from the days before it;
// both use the same amount floor as burnrate's, so only the yardstick differs.

import { addDays } from '../src/domain/period.js';

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const sd = (xs: readonly number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));

/** A z-score on the 28-day mean: above it by 3 standard deviations of those days, and by the floor. */
export function zScore28(daily: ReadonlyMap<string, number>, day: string, floor: number): boolean {
  const past = Array.from({ length: 28 }, (_, i) => daily.get(addDays(day, -1 - i))).filter((v): v is number => v !== undefined);
  if (past.length < 7) return false;
  const excess = (daily.get(day) ?? 0) - mean(past);
  return excess >= floor && excess >= 3 * sd(past);
}

/** A straight weekday mean: above the mean of the same weekday over the 4 weeks before by the floor and 3 of their deviations. */
export function weekdayMean(daily: ReadonlyMap<string, number>, day: string, floor: number): boolean {
  const past = [1, 2, 3, 4].map((w) => daily.get(addDays(day, -7 * w))).filter((v): v is number => v !== undefined);
  if (past.length < 2) return false;
  const excess = (daily.get(day) ?? 0) - mean(past);
  return excess >= floor && excess >= 3 * sd(past);
}
