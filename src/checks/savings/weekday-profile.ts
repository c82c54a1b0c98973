import { addDays, weekdayOf } from '../../domain/period.js';

/**
 * Days before an action whose bill gives the resource's weekday profile: four whole weeks, so each
 * weekday is seen four times and one odd day moves its weekday by a quarter at most.
 */
export const PROFILE_DAYS = 28;

/**
 * What the bill charged the resource on each weekday (Sunday = 0), on average over the
 * PROFILE_DAYS before the action's day, counted from its first charged day in them (a resource
 * launched ten days before is not averaged with days it did not exist). A notebook nobody runs
 * at weekends has 0 there, so a stop is not credited with weekends it would have been off anyway.
 * A weekday not seen since the first charge (a resource younger than a week) takes the mean of
 * the days seen. Null when the bill charged nothing in those days. Pure.
 */
export function weekdayProfile(charges: ReadonlyMap<string, number>, actionDay: string): number[] | null {
  const days: string[] = [];
  for (let d = addDays(actionDay, -PROFILE_DAYS); d < actionDay; d = addDays(d, 1)) days.push(d);
  const first = days.findIndex((d) => (charges.get(d) ?? 0) > 0);
  if (first < 0) return null;
  const seen = days.slice(first);
  const sums = new Array<number>(7).fill(0);
  const counts = new Array<number>(7).fill(0);
  for (const d of seen) {
    sums[weekdayOf(d)]! += charges.get(d) ?? 0;
    counts[weekdayOf(d)]! += 1;
  }
  const mean = sums.reduce((a, b) => a + b, 0) / seen.length;
  return sums.map((s, wd) => (counts[wd]! > 0 ? s / counts[wd]! : mean));
}

/**
 * How much of a day at the action's own cost a day each weekday held before: its profile over its
 * busiest weekday's (1 on the days it ran most, 0 on days it never ran). Expected savings count a
 * day at this share, so expected and confirmed rest on the same weekdays.
 */
export function weekdayShares(profile: readonly number[]): number[] {
  const peak = Math.max(...profile);
  return profile.map((p) => (peak > 0 ? p / peak : 0));
}
