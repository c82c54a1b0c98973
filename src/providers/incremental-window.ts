import { addDays, toDay } from '../domain/period.js';

/** Days a cloud keeps revising after the fact (late usage, credits, refunds): always read again. */
export const REVISED_DAYS = 3;

/** A range of whole UTC days: start included, end excluded (YYYY-MM-DD). */
export interface DayWindow {
  start: string;
  end: string;
}

/**
 * What an API source reads on this pull: the days after its stored data plus the last
 * REVISED_DAYS again, up to yesterday (today is still being billed). With no data yet, the last
 * `backfillDays`. Reading only this keeps a daily refresh to a handful of days, and so to one or
 * two API requests whatever the size of the organisation.
 */
export function incrementalWindow(dataThrough: string | null, now: Date, backfillDays: number): DayWindow {
  const end = toDay(now);
  const earliest = addDays(end, -backfillDays);
  if (!dataThrough) return { start: earliest, end };
  const stored = toDay(new Date(dataThrough));
  let start = addDays(stored, -REVISED_DAYS);
  if (start < earliest && stored < earliest) start = earliest;
  if (start >= end) start = addDays(end, -REVISED_DAYS);
  return { start, end };
}

/** The billing months (YYYY-MM) a window touches. */
export function monthsOf(window: DayWindow): string[] {
  const months = new Set<string>();
  for (let day = window.start; day < window.end; day = addDays(day, 1)) months.add(day.slice(0, 7));
  return [...months];
}
