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
  const first = past[0]!.day;
  const x = (d: string) => daysBetween(first, d);
  let line = { slope: 0, intercept: level };
  let factor = [1, 1, 1, 1, 1, 1, 1];
  if (past.length >= FULL_HISTORY_DAYS && level > 0) {
    // The profile and the line each need the other: the profile read against a flat level, the line
    // fitted through the days with the profile taken out, then the profile read again against the
    // line (a growing team's later weekdays are not a weekday effect).
    for (let pass = 0; pass < 2; pass++) {
      factor = weekdayFactors(past, (d) => Math.max(line.intercept + line.slope * x(d), 0));
      line = theilSen(
        past.filter((p) => factor[weekdayOf(p.day)]! >= OFF_DAY).map((p) => ({ x: x(p.day), y: p.amount / factor[weekdayOf(p.day)]! })),
      );
    }
  }
  const fitted = (d: string) => Math.max(0, line.intercept + line.slope * x(d)) * factor[weekdayOf(d)]!;
  // Spend strays in proportion to its level: a weekend of 300 moves less than a weekday of 1,000.
  const floorLevel = Math.max(0.1 * level, 1e-9);
  const relative = past.map((p) => (p.amount - fitted(p.day)) / Math.max(fitted(p.day), floorLevel));
  const share = Math.max(robustDeviation(relative), tailDeviation(relative), SPREAD_FLOOR);
  const expected = fitted(day);
  return { expected, spread: share * Math.max(expected, floorLevel), historyDays: past.length };
}

/**
 * The deviation the 90th percentile of the days' distances implies (1.645 deviations of normal
 * noise): a fleet that starts and stops strays in a heavy tail the median absolute deviation does
 * not see, and judged by it every tenth day would look unusual. One or two spikes in a window of
 * 28 days are under the percentile, so they do not move it.
 */
function tailDeviation(relative: readonly number[]): number {
  const distances = relative.map(Math.abs).sort((a, b) => a - b);
  return (distances[Math.floor(0.9 * (distances.length - 1))] ?? 0) / 1.645;
}

/** Each weekday's median ratio to the level line; 1 for a weekday with fewer than two days. */
function weekdayFactors(past: readonly DayAmount[], base: (day: string) => number): number[] {
  return [0, 1, 2, 3, 4, 5, 6].map((w) => {
    const ratios = past.filter((p) => weekdayOf(p.day) === w && base(p.day) > 0).map((p) => p.amount / base(p.day));
    return ratios.length >= 2 ? median(ratios) : 1;
  });
}
