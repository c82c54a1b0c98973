import type { Deps } from '../deps.js';
import type { TrackedAnomalyFinding } from '../domain/anomaly-finding.js';
import { addDays, toDay, type Period } from '../domain/period.js';
import type { ReviewAnomaly } from '../domain/review.js';

/** The anomalies of the last days as the check recorded them: what `burnrate anomalies`, `/burnrate anomalies` and the review show. */
export interface AnomalyListing {
  /** The first day listed. */
  since: string;
  days: number;
  anomalies: TrackedAnomalyFinding[];
}

/** Days a listing covers unless told otherwise, and at most. */
export const DEFAULT_ANOMALY_DAYS = 30;
export const MAX_ANOMALY_DAYS = 366;

/**
 * The anomalies seen in the last `days` days (open or resolved, with their answers), of these
 * teams (null: every team), newest first: read from the findings the check recorded, never judged again.
 */
export async function loadAnomalyListing(
  deps: Pick<Deps, 'store'>,
  options: { teams: readonly string[] | null; days: number; now: Date },
): Promise<AnomalyListing> {
  const since = addDays(toDay(options.now), 1 - options.days);
  const seen = await deps.store.anomalyFindings.seenSince(new Date(`${since}T00:00:00Z`));
  const anomalies = seen
    .filter((f) => !options.teams || options.teams.includes(f.team))
    .sort((a, b) => (a.started < b.started ? 1 : a.started > b.started ? -1 : a.team < b.team ? -1 : a.team > b.team ? 1 : 0));
  return { since, days: options.days, anomalies };
}

/** A team's anomalies that began within `period` (a review's month), earliest first, with their answers. */
export async function loadPeriodAnomalies(deps: Pick<Deps, 'store'>, team: string, period: Period): Promise<ReviewAnomaly[]> {
  const seen = await deps.store.anomalyFindings.seenSince(new Date(`${period.start}T00:00:00Z`));
  return seen
    .filter((f) => f.team === team && f.started >= period.start && f.started < period.end)
    .sort((a, b) => (a.started < b.started ? -1 : a.started > b.started ? 1 : 0))
    .map(({ id, started, excess, currency, drivers, answer }) => ({
      id,
      started,
      excess,
      currency,
      drivers,
      ...(answer ? { answer } : {}),
    }));
}
