import { addDays, type Period } from './period.js';
import type { SourceFreshness } from './source-freshness.js';

/**
 * How far the data reaches across sources: the earliest of their ends, because a total is only
 * complete up to the point every source has reported.
 */
export function combinedDataThrough(sources: readonly SourceFreshness[]): string | null {
  const ends = sources.map((s) => s.dataThrough).filter((d): d is string => d !== null);
  if (ends.length === 0) return null;
  return ends.reduce((a, b) => (new Date(b) < new Date(a) ? b : a));
}

/**
 * How far the data of the sources that work reaches: a source whose last refresh failed holds its
 * own teams (see budget-snapshot.ts), not everyone's data end. All sources when none works.
 */
export function workingDataThrough(sources: readonly SourceFreshness[], failing: readonly { source: string }[]): string | null {
  const failed = new Set(failing.map((f) => f.source));
  return combinedDataThrough(sources.filter((s) => !failed.has(s.source))) ?? combinedDataThrough(sources);
}

/** The last day (YYYY-MM-DD, UTC) data through `dataThrough` (exclusive) covers, wholly or in part. */
export function lastDataDay(dataThrough: string): string {
  return new Date(new Date(dataThrough).getTime() - 1).toISOString().slice(0, 10);
}

/** The first day data through `dataThrough` does not reach (an exclusive end): the day after its last. */
export function dataEndDay(dataThrough: string): string {
  return addDays(lastDataDay(dataThrough), 1);
}

/**
 * The part of `period` incurred so far, `today` (YYYY-MM-DD) being the day it is asked on. A period
 * that is over is whole: every day of it, fees included, was incurred. A period still running
 * counts up to the end of the data, as the budget check's "spent so far" does: a monthly fee
 * billed on the 1st for the whole month is spread over its days on import (focus-sql.ts), and only
 * the days the data has reached count; the rest is ahead, for the forecast. Without any data end
 * (no source has reported one) the period stays as asked.
 */
export function incurredPeriod(period: Period, dataThrough: string | null, today: string): Period {
  if (dataThrough === null || period.end <= today) return period;
  const end = dataEndDay(dataThrough);
  if (end >= period.end) return period;
  return { start: period.start, end: end > period.start ? end : period.start };
}
