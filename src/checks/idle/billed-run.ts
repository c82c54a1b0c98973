import { addDays } from '../../domain/period.js';

/** A day the bill counts a whole day of use: an instance that ran every hour of it. */
const WHOLE_DAY_HOURS = 23.5;

/** How far back the bill shows an instance running without a stop. */
export interface BilledRun {
  /** The first day of the unbroken run (YYYY-MM-DD). */
  since: string;
  days: number;
  /** What the bill charged over those days. */
  billed: number;
}

/**
 * The unbroken run of whole billed days ending the day before `before`: how long an instance idle
 * through the whole metrics window has, by its bill, been running without a stop. Null when the
 * day before is not a whole billed day. Pure.
 */
export function billedRunBefore(days: ReadonlyMap<string, { hours: number; billed: number }>, before: string): BilledRun | null {
  let day = addDays(before, -1);
  let count = 0;
  let billed = 0;
  for (let seen = days.get(day); seen && seen.hours >= WHOLE_DAY_HOURS; seen = days.get(day)) {
    count++;
    billed += seen.billed;
    day = addDays(day, -1);
  }
  return count === 0 ? null : { since: addDays(day, 1), days: count, billed };
}
