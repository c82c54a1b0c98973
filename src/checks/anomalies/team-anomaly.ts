import { anomalyIdOf, type AnomalyDriver, type AnomalyFinding } from '../../domain/anomaly-finding.js';
import { addDays } from '../../domain/period.js';
import { unexplainedExcess, type Acceptance } from './acceptances.js';
import { FULL_HISTORY_DAYS, type AnomalyPolicy } from './anomaly-policy.js';
import { isBeyond, type JudgedDay } from './judge-days.js';

export interface TeamAnomalyInput {
  team: string;
  currency: string;
  policy: AnomalyPolicy;
  judged: readonly JudgedDay[];
  /** day -> what moved that day (loaded for the days beyond the bars only). */
  drivers: ReadonlyMap<string, readonly AnomalyDriver[]>;
  acceptances: readonly Acceptance[];
  /** The data's last day, still filling in. */
  provisional: string;
}

/**
 * The team's anomaly going on now, or null: a run of days beyond both bars (after what Expected
 * answers accept), one day within range allowed between them, that reaches the provisional day or
 * one of the two complete days before it. The provisional day
 * counts only once it is beyond the bars already (its amount can only grow); not beyond yet, it
 * neither starts nor ends a run. Pure.
 */
export function teamAnomaly(input: TeamAnomalyInput): AnomalyFinding | null {
  const byDay = new Map(input.judged.map((j) => [j.day, j]));
  const anomalous = (day: string) => {
    const judged = byDay.get(day);
    if (!judged?.beyond) return false;
    const left = unexplainedExcess(judged.excess, input.drivers.get(day) ?? [], input.acceptances);
    return isBeyond(left, judged.spread, input.policy);
  };
  // One day back within range does not end an anomaly: a new level's noisy days dip under the bars
  // now and then, and each dip would otherwise make the next day a new anomaly, alerted again.
  const latest = [0, -1, -2].map((back) => addDays(input.provisional, back)).find(anomalous);
  if (!latest) return null;
  let started = latest;
  for (;;) {
    if (anomalous(addDays(started, -1))) started = addDays(started, -1);
    else if (anomalous(addDays(started, -2))) started = addDays(started, -2);
    else break;
  }
  const last = byDay.get(latest)!;
  const days = input.judged.filter((j) => j.day >= started && j.day <= latest);
  return {
    id: anomalyIdOf(input.team, started),
    kind: 'anomaly.spend',
    team: input.team,
    currency: input.currency,
    started,
    day: latest,
    actual: cents(last.actual),
    expected: cents(last.expected),
    excess: cents(last.excess),
    deviations: Math.round((last.excess / Math.max(last.spread, 1e-9)) * 10) / 10,
    provisional: latest === input.provisional,
    historyDays: last.historyDays,
    shortHistory: last.historyDays < FULL_HISTORY_DAYS,
    newCharges: cents(last.newCharges),
    days: days.map((d) => ({ day: d.day, actual: cents(d.actual), expected: cents(d.expected) })),
    drivers: [...(input.drivers.get(latest) ?? [])],
  };
}

const cents = (n: number) => Math.round(n * 100) / 100;
