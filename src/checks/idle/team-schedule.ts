// Working hours are not in burnrate.yml yet; this is the shape a team's entry will take, with the
// defaults an office week has. Idle descriptions read "all weekend" against these days.

export interface WorkingHours {
  /** HH:MM, the team's own time. */
  start: string;
  end: string;
  /** Working days, Sunday = 0 (as weekdayOf and Date#getDay count). */
  days: number[];
}

export interface TeamSchedule {
  /** IANA time zone, as the team's config has it. */
  timezone: string;
  workingHours: WorkingHours;
}

/** An office week: what burnrate.yml's working hours default to (working-hours-schema.ts). */
export const DEFAULT_WORKING_HOURS: WorkingHours = { start: '09:00', end: '19:00', days: [1, 2, 3, 4, 5] };

/** For instances of no known team: UTC and an office week. */
export const DEFAULT_SCHEDULE: TeamSchedule = { timezone: 'UTC', workingHours: DEFAULT_WORKING_HOURS };

/** Minutes after midnight of an HH:MM time. */
export function minutesOfDay(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}
