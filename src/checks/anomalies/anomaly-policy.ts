/**
 * A team's anomaly policy (burnrate.yml teams[].anomalies, its schema in config/): a day is an
 * anomaly when its spend is above what was expected by at least `floor` (the team's currency) and by
 * at least `deviations` robust deviations of its past days.
 */
export interface AnomalyPolicy {
  enabled: boolean;
  floor: number;
  deviations: number;
  /** Past days the expected value is drawn from. */
  windowDays: number;
  /** Days of history before the first judgement; fewer than 14 and the message says so. */
  minHistoryDays: number;
}

/** Days of history that give each weekday two samples and a trend: with fewer, the message says so. */
export const FULL_HISTORY_DAYS = 14;

/** An Expected answer accepts its driver's rise and up to this much more (a level, not a ceiling to the cent). */
export const ACCEPTED_TOLERANCE = 1.1;
