import { anomalyIdOf, type AnomalyFinding } from '../../domain/anomaly-finding.js';
import type { Acceptance } from './acceptances.js';
import { ACCEPTED_TOLERANCE, type AnomalyPolicy } from './anomaly-policy.js';
import { cents, rankDrivers } from './drivers.js';
import { HOURLY_PAST_DAYS, hourlyRunaway, type HourAmount } from './hourly-runaway.js';

const HOUR = 3600;

/** A team's GPU machines' cost per hour (in USD), in all and per machine. */
export interface TeamHourlySpend {
  total: readonly HourAmount[];
  byResource: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

export interface HourlyAnomalyInput {
  team: string;
  currency: string;
  /** USD to the team's currency. */
  rate: number;
  policy: AnomalyPolicy;
  spend: TeamHourlySpend;
  acceptances: readonly Acceptance[];
  /** The latest complete hour's start (epoch seconds). */
  through: number;
}

/**
 * The team's hourly runaway as an anomaly, or null: its GPU machines' cost hour by hour against the
 * same hours of the week before (hourly-runaway.ts), after what Expected answers accept (a machine's
 * accepted level a day, spread over the hours; the team's whole excess at an accepted level). The
 * id is the run's first day's, as the daily judgement names an anomaly, so the day's bill later
 * finds the same anomaly and updates its message. Amounts over the run's hours. Pure.
 */
export function hourlyAnomaly(input: HourlyAnomalyInput): AnomalyFinding | null {
  const accepted = input.acceptances.filter((a) => a.dimension === 'resource' && input.spend.byResource.has(a.key));
  const acceptedAt = (hour: number) =>
    accepted.reduce((sum, a) => {
      const cost = (input.spend.byResource.get(a.key)!.get(hour) ?? 0) * input.rate;
      return sum + (cost <= (a.delta / 24) * ACCEPTED_TOLERANCE ? cost : 0);
    }, 0);
  const series = input.spend.total.map((h) => ({ hour: h.hour, amount: h.amount * input.rate - acceptedAt(h.hour) }));
  const run = hourlyRunaway(series, input.policy, input.through);
  if (!run) return null;
  const teamLevel = input.acceptances.find((a) => a.dimension === 'team');
  if (teamLevel && run.perDay <= teamLevel.delta * ACCEPTED_TOLERANCE) return null;
  const runHours = Array.from({ length: run.hours }, (_, i) => run.started + i * HOUR);
  const day = new Map<string, number>();
  const usual = new Map<string, number>();
  for (const [key, hours] of input.spend.byResource) {
    const over = (shift: number) => runHours.reduce((sum, h) => sum + (hours.get(h - shift) ?? 0), 0) * input.rate;
    day.set(key, over(0));
    usual.set(
      key,
      Array.from({ length: HOURLY_PAST_DAYS }, (_, i) => over((i + 1) * 24 * HOUR)).reduce((a, b) => a + b, 0) / HOURLY_PAST_DAYS,
    );
  }
  const dayOf = (hour: number) => new Date(hour * 1000).toISOString().slice(0, 10);
  const started = dayOf(run.started);
  return {
    id: anomalyIdOf(input.team, started),
    kind: 'anomaly.spend',
    team: input.team,
    currency: input.currency,
    started,
    day: dayOf(run.last),
    actual: cents(run.actual),
    expected: cents(run.expected),
    excess: cents(run.excess),
    deviations: run.deviations,
    provisional: true,
    historyDays: HOURLY_PAST_DAYS,
    shortHistory: false,
    newCharges: 0,
    days: [],
    drivers: rankDrivers([{ dimension: 'resource', day, usual }], run.excess),
    hourly: {
      startedAt: new Date(run.started * 1000).toISOString(),
      through: new Date((run.last + HOUR) * 1000).toISOString(),
      hours: run.hours,
      perDay: cents(run.perDay),
    },
  };
}
