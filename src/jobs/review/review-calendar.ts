import { wallClock } from '../../domain/wall-clock.js';
import type { TeamSchedule } from '../../checks/idle/team-schedule.js';
import { addDays, dayInZone, daysBetween, monthOf, weekdayOf } from '../../domain/period.js';
import { BurnrateError } from '../../domain/errors.js';
import { parseMonth } from '../../domain/calendar-range.js';

// When reviews happen, on each team's own calendar: the month reviewed, the first working day it
// is posted on, the day its one reminder is due, and the moment its month of decisions closes.

/** The month before the one `now` falls in, on the team's clock: what a review looks back at. */
export function lastMonth(now: Date, timezone: string): string {
  return addDays(monthOf(dayInZone(now, timezone)).start, -1).slice(0, 7);
}

export function nextMonth(month: string): string {
  return monthOf(`${month}-01`).end.slice(0, 7);
}

export function previousMonth(month: string): string {
  return addDays(`${month}-01`, -1).slice(0, 7);
}

/** Checks what a user typed for a month: YYYY-MM, a real month in the years burnrate answers about, not in the future. */
export function parseReviewMonth(text: string, now: Date): string {
  const month = parseMonth(text);
  if (month > now.toISOString().slice(0, 7))
    throw new BurnrateError('burnrate_month_invalid', `${month} has not started yet`, 'Review a month that has ended, e.g. last month.', 2);
  return month;
}

/** Whether `now` falls on the team's first working day of its month (Monday 2 Nov when the 1st is a Sunday). */
export function isFirstWorkingDay(now: Date, schedule: TeamSchedule): boolean {
  const today = dayInZone(now, schedule.timezone);
  for (let day = monthOf(today).start; day <= today; day = addDays(day, 1)) {
    if (schedule.workingHours.days.includes(weekdayOf(day))) return day === today;
  }
  return false;
}

/** Whether `n` of the team's working days have passed since `since`, at the same time of day. */
export function workingDaysPassed(since: Date, now: Date, n: number, schedule: TeamSchedule): boolean {
  const start = dayInZone(since, schedule.timezone);
  const today = dayInZone(now, schedule.timezone);
  let counted = 0;
  let due: string | null = null;
  for (let day = addDays(start, 1); day <= today && due === null; day = addDays(day, 1)) {
    if (schedule.workingHours.days.includes(weekdayOf(day)) && ++counted === n) due = day;
  }
  if (due === null) return false;
  return today > due || wallClock(now, schedule.timezone).minutes >= wallClock(since, schedule.timezone).minutes;
}

/** Midnight at the start of `day` in a time zone, as an instant. */
export function zonedMidnight(day: string, timezone: string): Date {
  const guess = Date.parse(`${day}T00:00:00Z`);
  const seen = wallClock(new Date(guess), timezone);
  const offsetMinutes = daysBetween(day, seen.day) * 1440 + seen.minutes;
  return new Date(guess - offsetMinutes * 60_000);
}
