import { daysBetween, weekdayOf } from '../../domain/period.js';
import { FULL_HISTORY_DAYS } from './anomaly-policy.js';
import { median, robustDeviation, theilSen } from './robust.js';

/** One day's usage spend (one-off and monthly charges kept apart). */
export interface DayAmount {
  day: string;
  amount: number;
}

/** What a day was expected to cost, and how far from it a usual day strays (both in money). */
export interface Expectation {
  expected: number;
  /** One robust deviation at this day's level. */
  spread: number;
  historyDays: number;
}

/** Below this a weekday's factor is taken as "nothing runs that day" and left out of the level's fit. */
const OFF_DAY = 0.2;
/** Perfectly steady spend has no deviation at all: a day strays at least this share of its level. */
const SPREAD_FLOOR = 0.03;

/**
 * The expected spend of `day` from up to `windowDays` days before it: a weekday profile (each
 * weekday's median against the window's median), a level with a trend through the days with the
 * profile taken out (Theil–Sen), and the spread of the days around that fit as a share of their
 * level (median absolute deviation). With fewer than 14 days there is no profile or trend, only
 * the median level. Null with fewer than `minDays`. Pure.
 */
export function expectDay(history: readonly DayAmount[], day: string, windowDays: number, minDays: number): Expectation | null {
  const past = history.filter((h) => h.day < day).slice(-windowDays);
  if (past.length < Math.max(minDays, 3)) return null;
  const level = median(past.map((p) => p.amount));
  const full = past.length >= FULL_HISTORY_DAYS;
  const factor = weekdayFactors(past, level, full);
  const first = past[0]!.day;
  const points = past
    .filter((p) => factor[weekdayOf(p.day)]! >= OFF_DAY)
    .map((p) => ({ x: daysBetween(first, p.day), y: p.amount / factor[weekdayOf(p.day)]! }));
  const line = full ? theilSen(points) : { slope: 0, intercept: median(points.map((p) => p.y)) };
  const baseAt = (d: string) => Math.max(0, line.intercept + line.slope * daysBetween(first, d));
  const fitted = (d: string) => baseAt(d) * factor[weekdayOf(d)]!;
  // Spend strays in proportion to its level: a weekend of 300 moves less than a weekday of 1,000.
  const floorLevel = Math.max(0.1 * level, 1e-9);
  const relative = past.map((p) => (p.amount - fitted(p.day)) / Math.max(fitted(p.day), floorLevel));
  const share = Math.max(robustDeviation(relative), SPREAD_FLOOR);
  const expected = fitted(day);
  return { expected, spread: share * Math.max(expected, floorLevel), historyDays: past.length };
}

/** Each weekday's median against the window's: 1 for every weekday until each has two samples. */
function weekdayFactors(past: readonly DayAmount[], level: number, full: boolean): number[] {
  if (!full || level <= 0) return [1, 1, 1, 1, 1, 1, 1];
  return [0, 1, 2, 3, 4, 5, 6].map((w) => {
    const same = past.filter((p) => weekdayOf(p.day) === w).map((p) => p.amount);
    return same.length >= 2 ? median(same) / level : 1;
  });
}
