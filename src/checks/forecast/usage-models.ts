import { weekdayOf } from '../../domain/period.js';

// Two ways to project a team's daily usage, each learnt from a history of (day, usage) pairs. The
// forecast backtests both on the last week of the history and keeps the one that erred less.

export interface UsageModel {
  /** What it is, in words a user can check: "weekday averages of the last 28 days at the last 7 days' level". */
  name: string;
  predict(day: string, index: number): number;
  /** The level or trend it projects with, for a user to check the figure by hand. */
  fitted: FittedUsage;
}

/**
 * What a model learnt from the history: a straight line's average day; the weekday averages (Sunday
 * first) and the level they are scaled to (1 + weight × (last week's level − 1)); or a trend's line
 * (usage a day at the history's middle day, index `at`, and its slope a day; a slope noise alone
 * could draw is 0) and its weekday factors.
 */
export type FittedUsage =
  | { kind: 'straight line'; perDay: number }
  | { kind: 'weekday level'; weekdayMeans: number[]; recentLevel: number; levelWeight: number; level: number }
  | { kind: 'linear trend'; at: number; perDay: number; slope: number; fittedSlope: number; weekdayFactors: number[] };

export interface HistoryDay {
  day: string;
  /** Position in the history (0 = its first day), so a trend can extend past its end. */
  index: number;
  usage: number;
}

/** Days of recent history the level is taken from, and the backtest holds out. */
export const RECENT_DAYS = 7;

/** Average usage per weekday (0 = Sunday); a weekday never seen gets the overall average. */
function weekdayMeans(history: readonly HistoryDay[]): number[] {
  const slots = Array.from({ length: 7 }, () => ({ total: 0, days: 0 }));
  for (const h of history) {
    const slot = slots[weekdayOf(h.day)]!;
    slot.total += h.usage;
    slot.days += 1;
  }
  const overall = history.reduce((s, h) => s + h.usage, 0) / history.length;
  return slots.map((s) => (s.days > 0 ? s.total / s.days : overall));
}

/**
 * ML spend has a weekly shape (notebooks and experiments stop at weekends): the average of each
 * weekday, scaled to the level of the last 7 days, so a step up or down is followed within a week.
 * One week's level is noisy, though: it is trusted only as far as weekly levels in the history
 * moved more than their day-to-day noise explains (see levelWeight), so a flat team's forecast
 * stays on the whole history's averages and a team that stepped up follows the step.
 */
export function weekdayProfileAtRecentLevel(history: readonly HistoryDay[]): UsageModel {
  const means = weekdayMeans(history);
  const ratios = history.map((h) => {
    const expected = means[weekdayOf(h.day)]!;
    return expected > 0 ? h.usage / expected : 1;
  });
  const recent = history.slice(-RECENT_DAYS);
  const expected = recent.reduce((s, h) => s + means[weekdayOf(h.day)]!, 0);
  const observed = recent.reduce((s, h) => s + h.usage, 0);
  const recentLevel = expected > 0 ? observed / expected : 1;
  const weight = levelWeight(ratios);
  const level = 1 + weight * (recentLevel - 1);
  return {
    name: `weekday averages of the last ${history.length} days at the last ${recent.length} days' level`,
    predict: (day) => means[weekdayOf(day)]! * level,
    fitted: { kind: 'weekday level', weekdayMeans: means, recentLevel, levelWeight: weight, level },
  };
}

/**
 * How far to trust the last week's level over the whole history's (0 to 1): the share of the
 * spread between weekly levels that is real change rather than noise. Weekly levels are the mean
 * day-to-weekday-average ratios of consecutive weeks (counted back from the last day); the noise a
 * weekly level carries is the days' spread inside their weeks over 7. With no change beyond noise
 * the weight is 0, with a clear step close to 1; with fewer than two whole weeks, 1.
 */
function levelWeight(ratios: readonly number[]): number {
  const weeks: number[][] = [];
  for (let end = ratios.length; end - RECENT_DAYS >= 0; end -= RECENT_DAYS) weeks.push(ratios.slice(end - RECENT_DAYS, end));
  if (weeks.length < 2) return 1;
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const levels = weeks.map(mean);
  const grand = mean(levels);
  const between = levels.reduce((s, l) => s + (l - grand) ** 2, 0) / (levels.length - 1);
  const within = weeks.reduce((s, w, i) => s + w.reduce((t, r) => t + (r - levels[i]!) ** 2, 0), 0) / (weeks.length * (RECENT_DAYS - 1));
  const noise = within / RECENT_DAYS;
  const signal = Math.max(0, between - noise);
  return signal + noise > 0 ? signal / (signal + noise) : 1;
}

/** How many standard errors a slope must be from zero to count as a trend. */
const SIGNIFICANT = 2;

/** Growth (or decline) that goes on: a least-squares line through the usage with the weekly shape taken out. */
export function linearTrendWithWeekdays(history: readonly HistoryDay[]): UsageModel {
  const means = weekdayMeans(history);
  const overall = means.reduce((a, b) => a + b, 0) / 7;
  const factor = means.map((m) => (overall > 0 ? m / overall : 1));
  const points = history.map((h) => ({ x: h.index, y: factor[weekdayOf(h.day)]! > 0 ? h.usage / factor[weekdayOf(h.day)]! : 0 }));
  const n = points.length;
  const meanX = points.reduce((s, p) => s + p.x, 0) / n;
  const meanY = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - meanX) ** 2, 0);
  const fitted = sxx > 0 ? points.reduce((s, p) => s + (p.x - meanX) * (p.y - meanY), 0) / sxx : 0;
  // A slope that noise alone could draw (under two standard errors) is no trend: extended over a
  // month it would be a large error, so the line stays flat at the history's mean.
  const residual = points.reduce((s, p) => s + (p.y - meanY - fitted * (p.x - meanX)) ** 2, 0);
  const standardError = n > 2 && sxx > 0 ? Math.sqrt(residual / (n - 2) / sxx) : Infinity;
  const slope = Math.abs(fitted) >= SIGNIFICANT * standardError ? fitted : 0;
  return {
    name: `linear trend over the last ${history.length} days with weekday factors`,
    predict: (day, index) => Math.max(0, meanY + slope * (index - meanX)) * factor[weekdayOf(day)]!,
    fitted: { kind: 'linear trend', at: meanX, perDay: meanY, slope, fittedSlope: fitted, weekdayFactors: factor },
  };
}

export const MODELS = [weekdayProfileAtRecentLevel, linearTrendWithWeekdays] as const;
