// The two detectors burnrate's anomaly check is measured against in the backtest: what a
// threshold on a mean amounts to. Each says whether a day is an anomaly from the days before it;
// both use the same amount floor as burnrate's, so only the yardstick differs.

import { addDays } from '../src/domain/period.js';

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const sd = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

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

const HOUR = 3600;

/** Hourly: above the mean of the 28 days' hours before by 3 of their standard deviations, and by the floor as a day at that rate. */
export function zScoreHourly28(hourly: ReadonlyMap<number, number>, hour: number, floor: number): boolean {
  const past = Array.from({ length: 28 * 24 }, (_, i) => hourly.get(hour - (i + 1) * HOUR)).filter((v): v is number => v !== undefined);
  if (past.length < 7 * 24) return false;
  const excess = (hourly.get(hour) ?? 0) - mean(past);
  return excess * 24 >= floor && excess >= 3 * sd(past);
}

/** Hourly: above the mean of the same hour over the 7 days before by 3 of their standard deviations, and by the floor as a day at that rate. */
export function sameHourMean(hourly: ReadonlyMap<number, number>, hour: number, floor: number): boolean {
  const past = Array.from({ length: 7 }, (_, i) => hourly.get(hour - (i + 1) * 24 * HOUR)).filter((v): v is number => v !== undefined);
  if (past.length < 3) return false;
  const excess = (hourly.get(hour) ?? 0) - mean(past);
  return excess * 24 >= floor && excess >= 3 * sd(past);
}
