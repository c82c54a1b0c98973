import { weekdayOf } from '../../domain/period.js';
import type { HistoryDay } from './usage-models.js';

// One runaway job billed as usage must not move a month's forecast: a model fitted on a day of
// +20,000 among days of 1,000 carries a share of it onto every day ahead. Such a day is found
// robustly (median and median absolute deviation, which the day itself cannot drag the way it
// drags a mean and a standard deviation), and stands at its weekday's usual amount for the fit.
// It still counts, once, in what is spent so far.

/** A day set aside from the fit, and how far it was from its usual amount (positive: above). */
export interface UnusualDay {
  day: string;
  offBy: number;
}

/** How many robust standard deviations (1.4826 MAD) off its usual amount a day must be. */
const K = 4;
/** The longest run of unusual days in one direction that is still a spike; longer is a change of level. */
const MAX_RUN = 2;
/**
 * Each weekday's usual is the median of its days, which one spike cannot move only from three of
 * them on (the median of two is their mean); with fewer, nothing is set aside. One usual for all
 * days would take every weekend for a pair of unusual days.
 */
const MIN_DAYS = 21;
/** Perfectly steady data has no deviation at all: a day is judged against at least 2% of a usual day. */
const SPREAD_FLOOR = 0.02;

/**
 * The history with its unusual days set at their weekday's median, and those days. A day is
 * unusual when it is more than K robust deviations off and the run it is part of (consecutive days
 * off in the same direction) is at most MAX_RUN days and ends before the data does: the day after
 * (the provisional last day, `after`, for the last day of the history) is back to usual. A run
 * still going at the end may be a step up or down, which the models must follow, so it is kept.
 */
export function setAsideUnusualDays(
  history: readonly HistoryDay[],
  after: { day: string; usage: number } | null,
): { days: HistoryDay[]; unusual: UnusualDay[] } {
  if (history.length < MIN_DAYS) return { days: [...history], unusual: [] };
  const usualOf = usualAmounts(history);
  const residual = (d: { day: string; usage: number }) => d.usage - usualOf(d.day);
  const residuals = history.map(residual);
  const typical = median(history.map((h) => Math.abs(usualOf(h.day))));
  const spread = Math.max(1.4826 * median(residuals.map((r) => Math.abs(r - median(residuals)))), SPREAD_FLOOR * typical, 1e-6);
  // +1 above, -1 below, 0 usual; the day after the history is judged at half the bar, so a run
  // that merely eases off is not taken for one that ended.
  const side = (r: number, bar: number) => (r > bar * spread ? 1 : r < -bar * spread ? -1 : 0);
  const sides = residuals.map((r) => side(r, K));
  const next = after ? side(residual(after), K / 2) : null;

  const days = history.map((h) => ({ ...h }));
  const unusual: UnusualDay[] = [];
  for (let start = 0; start < sides.length; ) {
    let end = start + 1;
    while (end < sides.length && sides[end] === sides[start]) end++;
    const direction = sides[start]!;
    const following = end < sides.length ? side(residuals[end]!, K / 2) : next;
    if (direction !== 0 && end - start <= MAX_RUN && following !== null && following !== direction) {
      for (let i = start; i < end; i++) {
        unusual.push({ day: history[i]!.day, offBy: residuals[i]! });
        days[i]!.usage = usualOf(history[i]!.day);
      }
    }
    start = end;
  }
  return { days, unusual };
}

/** The usual amount of a day: the median of its weekday. */
function usualAmounts(history: readonly HistoryDay[]): (day: string) => number {
  const byWeekday = Array.from({ length: 7 }, (_, weekday) => history.filter((h) => weekdayOf(h.day) === weekday).map((h) => h.usage));
  const medians = byWeekday.map(median);
  return (day) => medians[weekdayOf(day)]!;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
