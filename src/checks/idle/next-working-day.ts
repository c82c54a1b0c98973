import { weekdayOf } from '../../domain/period.js';
import { minutesOfDay, type TeamSchedule } from './team-schedule.js';
import { wallClock } from '../../domain/wall-clock.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * The next start of working hours after `now`, on the team's clock: Friday 18:00 → Monday 09:00,
 * Tuesday 10:00 → Wednesday 09:00, Tuesday 07:00 → Tuesday 09:00. Walks the hours (then the minutes)
 * so DST is Intl's business; 24 hours on when the schedule has no working day.
 */
export function nextWorkingDayStart(now: Date, schedule: TeamSchedule): Date {
  const { timezone, workingHours } = schedule;
  const start = minutesOfDay(workingHours.start);
  const today = wallClock(now, timezone);
  const first = Math.floor(now.getTime() / MINUTE) * MINUTE + MINUTE;
  const fits = (at: number) => {
    const w = wallClock(new Date(at), timezone);
    return workingHours.days.includes(weekdayOf(w.day)) && w.minutes >= start && (w.day !== today.day || today.minutes < start);
  };
  for (let hour = 0; hour < 24 * 15; hour++) {
    let at = first + hour * HOUR;
    if (!fits(at)) continue;
    const day = wallClock(new Date(at), timezone).day;
    while (at - MINUTE >= first && fits(at - MINUTE) && wallClock(new Date(at - MINUTE), timezone).day === day) at -= MINUTE;
    return new Date(at);
  }
  return new Date(now.getTime() + 24 * HOUR);
}
