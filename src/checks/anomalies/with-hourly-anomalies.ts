import type { AnomalyFinding, TrackedAnomalyFinding } from '../../domain/anomaly-finding.js';
import { addDays } from '../../domain/period.js';

/**
 * The day's anomalies with the hours' laid over them, one anomaly per team: a team's anomaly on the
 * day's bill with an open hourly one of the same team that began from the day before its first day
 * through its latest keeps the hourly one's id (its message is updated, not posted again) and the
 * earlier first day; a team with no anomaly on the bill shows its hourly one. Pure.
 */
export function withHourlyAnomalies(
  daily: readonly AnomalyFinding[],
  hourly: readonly AnomalyFinding[],
  tracked: readonly TrackedAnomalyFinding[],
): AnomalyFinding[] {
  const merged = daily.map((finding) => {
    const earlier = tracked.find(
      (t) => t.hourly && t.team === finding.team && t.started >= addDays(finding.started, -1) && t.started <= finding.day,
    );
    return earlier && earlier.id !== finding.id
      ? { ...finding, id: earlier.id, started: earlier.started < finding.started ? earlier.started : finding.started }
      : finding;
  });
  const covered = new Set(daily.map((f) => f.team));
  return [...merged, ...hourly.filter((f) => !covered.has(f.team))];
}
