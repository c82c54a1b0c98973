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
/** The share of K a day after a run must stay under to end it: lower, so a run that eases off still counts as going on. */
const ENDED = 0.75;
/** At most this many unusual runs in one direction in the history; more are a rhythm, not accidents. */
const MAX_RUNS = 2;
/** The longest run of unusual days in one direction that is still a spike; longer is a change of level. */
const MAX_RUN = 2;
/**
 * Each weekday's usual is the median of its days, which one spike cannot move only from three of
 * them on (the median of two is their mean); with fewer, nothing is set aside. One usual for all
 * days would take every weekend for a pair of unusual days.
 */
const MIN_DAYS = 21;
/** Perfectly steady data has no deviation at all: a day is judged against a spread of at least 2% of its usual amount. */
const SPREAD_FLOOR = 0.02;

/**
 * The history with its unusual days set at the median of the other days of their weekday, and those days. A day is
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
  // Each day against the median of the other days of its weekday: a median fitted to the day
  // itself sits close to it (two of four days are its middle), which would make noise look small.
  // Each day's weekday worked out once, and the days grouped by it: with every day compared with
  // every other, a year of history for a thousand teams would parse hundreds of millions of dates.
  const weekdays = history.map((h) => weekdayOf(h.day));
  const sameWeekday = new Map<number, number[]>();
  weekdays.forEach((weekday, i) => {
    const days = sameWeekday.get(weekday);
    if (days) days.push(i);
    else sameWeekday.set(weekday, [i]);
  });
  // Each weekday's amounts sorted once; a day's usual is their median with the day itself left out.
  const sortedByWeekday = new Map(
    [...sameWeekday].map(([weekday, days]) => [weekday, days.map((j) => history[j]!.usage).sort((a, b) => a - b)]),
  );
  const usual = history.map((h, i) => medianWithout(sortedByWeekday.get(weekdays[i]!)!, h.usage));
  const residuals = history.map((h, i) => h.usage - usual[i]!);
  // Spend varies in proportion to its level (a weekend of 300 moves less than a weekday of 1,000),
  // so days are compared relative to their usual amount; a usual near zero is taken at a tenth of a typical day.
  const typical = median(usual.map(Math.abs));
  const relative = (residual: number, usualAmount: number) => residual / Math.max(Math.abs(usualAmount), 0.1 * typical, 1e-9);
  const ratios = residuals.map((r, i) => relative(r, usual[i]!));
  const middle = median(ratios);
  const spread = Math.max(1.4826 * median(ratios.map((r) => Math.abs(r - middle))), SPREAD_FLOOR);
  const side = (r: number, bar: number) => (r > bar * spread ? 1 : r < -bar * spread ? -1 : 0);
  const sides = ratios.map((r) => side(r, K));
  // The day after a run, relative to its usual (the provisional last day after the history's last).
  const afterUsual = after ? median((sameWeekday.get(weekdayOf(after.day)) ?? []).map((j) => history[j]!.usage)) : 0;
  const next = after ? relative(after.usage - afterUsual, afterUsual) : null;

  const runs: { start: number; end: number; direction: number }[] = [];
  for (let start = 0; start < sides.length; ) {
    let end = start + 1;
    while (end < sides.length && sides[end] === sides[start]) end++;
    const direction = sides[start]!;
    const following = end < sides.length ? ratios[end]! : next;
    // A run goes on (a step) when the day after it is off the same way by a like amount: at a lower
    // bar than K, so a run that merely eases off still counts as going on, and at least half the
    // run's smallest offset, so a day of +12% after one of +2,000% is back to usual.
    const smallest = Math.min(...ratios.slice(start, end).map(Math.abs));
    const goesOn = following !== null && side(following, ENDED * K) === direction && Math.abs(following) >= smallest / 2;
    if (direction !== 0 && end - start <= MAX_RUN && following !== null && !goesOn) runs.push({ start, end, direction });
    start = end;
  }
  // Unusual is rare: dips or spikes that come back every few days (a job every fifth day) are the
  // team's rhythm, part of its run rate, not days to set aside.
  const rare = runs.filter((run) => runs.filter((r) => r.direction === run.direction).length <= MAX_RUNS);
  const days = history.map((h) => ({ ...h }));
  const unusual: UnusualDay[] = [];
  for (const { start, end } of rare)
    for (let i = start; i < end; i++) {
      unusual.push({ day: history[i]!.day, offBy: residuals[i]! });
      days[i]!.usage = usual[i]!;
    }
  return { days, unusual };
}

/** The median of sorted values with one occurrence of `value` taken out (the same figure as filtering it out and sorting again). */
function medianWithout(sorted: readonly number[], value: number): number {
  // The group holds the day's own value; NaN is found by what it is, indexOf never finds it.
  const skip = Number.isNaN(value) ? sorted.findIndex(Number.isNaN) : sorted.indexOf(value);
  const count = sorted.length - 1;
  if (count === 0) return 0;
  const at = (k: number) => sorted[k < skip ? k : k + 1]!;
  const mid = count >> 1;
  return count % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
