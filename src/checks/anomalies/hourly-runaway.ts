import type { AnomalyPolicy } from './anomaly-policy.js';
import { median, robustDeviation } from './robust.js';

/** One hour's spend: the hour's start (epoch seconds, on the hour) and what it cost. */
export interface HourAmount {
  hour: number;
  amount: number;
}

/** A run of hours beyond the bars that reaches the latest complete hour. */
export interface HourlyRun {
  /** The run's first and last hour (epoch seconds, each an hour's start). */
  started: number;
  last: number;
  hours: number;
  /** Over the run's hours: spent, expected, and the difference. */
  actual: number;
  expected: number;
  excess: number;
  /** The last hour's excess as a day's: what the run costs a day if it stays where it is now. */
  perDay: number;
  /** The last hour's excess in robust deviations of its past hours. */
  deviations: number;
}

const HOUR = 3600;
/** Past days whose same hour gives an hour its expected value: a week, so each weekday weighs once. */
export const HOURLY_PAST_DAYS = 7;
/** Of those, at least this many must have data before an hour is judged. */
const MIN_PAST_DAYS = 3;
/** Hours in a row beyond the bars before a run is an anomaly: one hour alone is a job's start, two are a trend. */
export const MIN_RUN_HOURS = 2;
/** An hour strays at least this share of its expected value: hourly spend is noisier than a day's. */
const SPREAD_FLOOR = 0.1;
/** A fleet expected to cost nothing in an hour still strays by this much an hour (a small instance started). */
const MIN_SPREAD = 1;

/**
 * The hourly runaway going on at `through` (the latest complete hour), or null: each hour against
 * the median of the same hour of the `HOURLY_PAST_DAYS` days before (what the fleet usually costs at
 * that time of day), beyond when its excess passes `deviations` robust deviations of those hours; a
 * run of at least MIN_RUN_HOURS such hours reaching `through` is an anomaly once its excess so far
 * reaches the team's `floor`. The floor is money already spent, not a projection: short jobs that
 * start and stop (an hour or three at some tens an hour) stay under it, and a sweep that grows
 * each hour passes it within hours, where a daily judgement waits for the day's bill. Pure.
 */
export function hourlyRunaway(
  series: readonly HourAmount[],
  policy: Pick<AnomalyPolicy, 'floor' | 'deviations'>,
  through: number,
): HourlyRun | null {
  const amountAt = new Map(series.map((s) => [s.hour, s.amount]));
  const judge = (hour: number) => {
    const actual = amountAt.get(hour);
    if (actual === undefined) return null;
    const past = Array.from({ length: HOURLY_PAST_DAYS }, (_, i) => amountAt.get(hour - (i + 1) * 24 * HOUR)).filter(
      (v): v is number => v !== undefined,
    );
    if (past.length < MIN_PAST_DAYS) return null;
    const expected = median(past);
    const spread = Math.max(robustDeviation(past), SPREAD_FLOOR * expected, MIN_SPREAD);
    const excess = actual - expected;
    const beyond = excess > 0 && excess >= policy.deviations * spread;
    return { actual, expected, excess, beyond, deviations: excess / spread };
  };
  const run: NonNullable<ReturnType<typeof judge>>[] = [];
  let started = through;
  for (let hour = through; ; hour -= HOUR) {
    const judged = judge(hour);
    if (!judged?.beyond) break;
    run.push(judged);
    started = hour;
  }
  const sum = (pick: (j: (typeof run)[number]) => number) => run.reduce((s, j) => s + pick(j), 0);
  if (run.length < MIN_RUN_HOURS || sum((j) => j.excess) < policy.floor) return null;
  return {
    started,
    last: through,
    hours: run.length,
    actual: sum((j) => j.actual),
    expected: sum((j) => j.expected),
    excess: sum((j) => j.excess),
    perDay: run[0]!.excess * 24,
    deviations: Math.round(run[0]!.deviations * 10) / 10,
  };
}
