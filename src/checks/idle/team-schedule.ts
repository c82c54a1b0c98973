import { z } from 'zod';

// Working hours are not in burnrate.yml yet; this is the shape a team's entry will take, with the
// defaults an office week has. Idle descriptions read "all weekend" against these days.

const hourMinute = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'expected a time of day as HH:MM, e.g. 08:30' });

export const workingHoursSchema = z.strictObject({
  start: hourMinute.default('09:00'),
  end: hourMinute.default('19:00'),
  /** Working days, Sunday = 0 (as weekdayOf and Date#getDay count). */
  days: z.array(z.number().int().min(0).max(6)).default([1, 2, 3, 4, 5]),
});

export type WorkingHours = z.output<typeof workingHoursSchema>;

export interface TeamSchedule {
  /** IANA time zone, as the team's config has it. */
  timezone: string;
  workingHours: WorkingHours;
}

export const DEFAULT_WORKING_HOURS: WorkingHours = workingHoursSchema.parse({});

/** For instances of no known team: UTC and an office week. */
export const DEFAULT_SCHEDULE: TeamSchedule = { timezone: 'UTC', workingHours: DEFAULT_WORKING_HOURS };

/** Minutes after midnight of an HH:MM time. */
export function minutesOfDay(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}
