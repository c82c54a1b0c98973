import type { AnomalyFinding, ProviderAnomalyNote } from '../../domain/anomaly-finding.js';
import { addDays } from '../../domain/period.js';

/** A cloud's anomaly for a team, its amounts already in the team's currency. */
export interface ImportedAnomaly extends ProviderAnomalyNote {
  team: string;
  currency: string;
}

/** A provider's anomaly stays open this many days after the last day it reports, as burnrate's own do. */
const OPEN_AFTER_END_DAYS = 2;

/**
 * burnrate's anomalies with the clouds' own laid over them, one message per team-day: a provider's
 * anomaly whose days overlap one of burnrate's for the same team is shown on it (the largest, when
 * several do), so one answer reaches both; one with no such overlap, still going on and above the
 * team's amount floor, is a finding of its own, labelled as the provider's. Pure.
 */
export function withProviderAnomalies(
  own: readonly AnomalyFinding[],
  imported: readonly ImportedAnomaly[],
  provisional: string,
  floorOf: (team: string) => number,
): AnomalyFinding[] {
  const lastOf = (a: ImportedAnomaly) => a.end ?? provisional;
  const current = imported.filter((a) => lastOf(a) >= addDays(provisional, -OPEN_AFTER_END_DAYS));
  const covered = new Set<ImportedAnomaly>();
  const merged = own.map((finding) => {
    const overlapping = current
      .filter((a) => a.team === finding.team && a.start <= finding.day && lastOf(a) >= finding.started)
      .sort((a, b) => b.impact - a.impact);
    overlapping.forEach((a) => covered.add(a));
    const top = overlapping[0];
    return top ? { ...finding, provider: { ...noteOf(top), alone: false } } : finding;
  });
  const alone = current.filter((a) => !covered.has(a) && a.impact >= floorOf(a.team)).map(aloneFinding);
  return [...merged, ...alone];
}

/** The finding of a provider's anomaly burnrate's rules did not find: the provider's figures over its days. */
function aloneFinding(a: ImportedAnomaly): AnomalyFinding {
  const expected = a.expected ?? 0;
  return {
    id: `anomaly:${a.team}:${a.source}:${a.id}`,
    kind: 'anomaly.spend',
    team: a.team,
    currency: a.currency,
    started: a.start,
    day: a.end ?? a.start,
    actual: a.actual ?? expected + a.impact,
    expected,
    excess: a.impact,
    deviations: 0,
    provisional: false,
    historyDays: 0,
    shortHistory: false,
    newCharges: 0,
    days: [],
    drivers: [],
    provider: { ...noteOf(a), alone: true },
  };
}

function noteOf({ team: _t, currency: _c, ...note }: ImportedAnomaly): ProviderAnomalyNote {
  return note;
}
