import { addDays, daysBetween, daysOf, weekdayOf } from '../../domain/period.js';
import { minutesOfDay, type WorkingHours } from './team-schedule.js';
import { wallClock } from '../../domain/wall-clock.js';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * How long something has been idle, as the team reads it on its own clock:
 *
 * - same local day: "idle since 10:05"
 * - the day before: "idle since 19:40 yesterday"
 * - from the last working day across non-working days only, read on a working day: "idle all weekend"
 *   (went idle after working hours), or "idle all weekend, since 14:20 on Friday" (went idle during
 *   or before them: worth knowing, nobody left it on by accident at night)
 * - two days ago otherwise, or still inside the weekend: "idle since 19:40 on Friday"
 * - longer: "idle for 3 days" (calendar days on the team's clock)
 *
 * Days are counted on local calendar days, so DST changes never make a day too many or too few.
 */
export function describeIdleSince(since: Date, now: Date, timeZone: string, hours: WorkingHours): string {
  const from = wallClock(since, timeZone);
  const to = wallClock(now, timeZone);
  const days = daysBetween(from.day, to.day);
  if (days <= 0) return `idle since ${from.time}`;
  if (days === 1) return `idle since ${from.time} yesterday`;

  const working = (day: string) => hours.days.includes(weekdayOf(day));
  const onDay = `since ${from.time} on ${DAY_NAMES[weekdayOf(from.day)]}`;
  const offBetween = daysOf({ start: addDays(from.day, 1), end: to.day }).every((day) => !working(day));
  if (offBetween && working(from.day)) {
    if (!working(to.day)) return `idle ${onDay}`;
    return from.minutes >= minutesOfDay(hours.end) ? 'idle all weekend' : `idle all weekend, ${onDay}`;
  }
  if (days === 2) return `idle ${onDay}`;
  return `idle for ${days} days`;
}
