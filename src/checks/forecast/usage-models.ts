import { weekdayOf } from '../../domain/period.js';

// Two ways to project a team's daily usage, each learnt from a history of (day, usage) pairs. The
// forecast backtests both on the last week of the history and keeps the one that erred less.

export interface UsageModel {
  /** What it is, in words a user can check: "weekday averages of the last 27 days at the last 7 days' level". */
  name: string;
  predict(day: string, index: number): number;
}

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
 */
export function weekdayProfileAtRecentLevel(history: readonly HistoryDay[]): UsageModel {
  const means = weekdayMeans(history);
  const recent = history.slice(-RECENT_DAYS);
  const expected = recent.reduce((s, h) => s + means[weekdayOf(h.day)]!, 0);
  const observed = recent.reduce((s, h) => s + h.usage, 0);
  const level = expected > 0 ? observed / expected : 1;
  return {
    name: `weekday averages of the last ${history.length} days at the last ${recent.length} days' level`,
    predict: (day) => means[weekdayOf(day)]! * level,
  };
}

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
  const slope = sxx > 0 ? points.reduce((s, p) => s + (p.x - meanX) * (p.y - meanY), 0) / sxx : 0;
  return {
    name: `linear trend over the last ${history.length} days with weekday factors`,
    predict: (day, index) => Math.max(0, meanY + slope * (index - meanX)) * factor[weekdayOf(day)]!,
  };
}

export const MODELS = [weekdayProfileAtRecentLevel, linearTrendWithWeekdays] as const;
