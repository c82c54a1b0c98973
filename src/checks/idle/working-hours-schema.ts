import { z } from 'zod';
import { DEFAULT_WORKING_HOURS } from './team-schedule.js';

const hourMinute = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'expected a time of day as HH:MM, e.g. 08:30' });

/** A team's working hours as burnrate.yml will write them, defaulting to an office week. */
export const workingHoursSchema = z.strictObject({
  start: hourMinute.default(DEFAULT_WORKING_HOURS.start),
  end: hourMinute.default(DEFAULT_WORKING_HOURS.end),
  days: z.array(z.number().int().min(0).max(6)).default(() => [...DEFAULT_WORKING_HOURS.days]),
});
