import { z } from 'zod';
import { ANOMALY_DEFAULTS } from './anomaly-defaults.js';

/**
 * A team's anomaly detection (teams[].anomalies): a day is an anomaly when its spend is above what
 * was expected by at least `floor` (in the team's currency) and by `deviations` robust deviations.
 */
export const anomaliesSchema = z.strictObject({
  enabled: z.boolean({ error: 'expected true or false' }).default(ANOMALY_DEFAULTS.enabled),
  /** The least excess over the expected day worth a message, in the team's currency. */
  floor: z
    .number({ error: 'expected an amount, e.g. 200' })
    .min(0, { error: 'expected an amount of 0 or more, e.g. 200' })
    .default(ANOMALY_DEFAULTS.floor),
  /** How many robust deviations (1.4826 × the median absolute deviation of past days) above expected. */
  deviations: z
    .number({ error: 'expected a number of deviations, e.g. 3' })
    .min(1, { error: 'expected at least 1 deviation (3 is usual)' })
    .max(20, { error: 'expected at most 20 deviations (3 is usual)' })
    .default(ANOMALY_DEFAULTS.deviations),
  /** Past days the expected value is drawn from. */
  windowDays: z
    .number({ error: 'expected days, e.g. 28' })
    .int({ error: 'expected whole days, e.g. 28' })
    .min(7, { error: 'expected at least 7 days' })
    .max(90, { error: 'expected at most 90 days' })
    .default(ANOMALY_DEFAULTS.windowDays),
  /** Days of history before a first judgement; under 14 the message says how few there were. */
  minHistoryDays: z
    .number({ error: 'expected days, e.g. 7' })
    .int({ error: 'expected whole days, e.g. 7' })
    .min(3, { error: 'expected at least 3 days' })
    .max(90, { error: 'expected at most 90 days' })
    .default(ANOMALY_DEFAULTS.minHistoryDays),
});

export type AnomaliesConfig = z.output<typeof anomaliesSchema>;
