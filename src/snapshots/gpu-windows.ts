import type { Deps } from '../deps.js';
import type { MetricsRange } from '../domain/gpu-metrics.js';

/**
 * The metrics windows of the GPU readers, each ending now on a whole step. They differ on
 * purpose: the idle check needs minute samples of the last hours, the sweep check and the
 * recommendations read days of five-minute samples (cheap to read, fine enough for GPU-hours and
 * a high-water mark).
 */

/** The metrics window of an idle-GPU run: the last lookbackHours up to `now`, on whole minutes. */
export function metricsWindow(deps: Pick<Deps, 'config'>, now: Date): MetricsRange {
  const end = Math.floor(now.getTime() / 60_000) * 60;
  return { start: end - deps.config.gpu.lookbackHours * 3600, end, stepSeconds: 60 };
}

/** Five-minute samples: a week of a sweep's GPUs reads quickly and counts GPU-hours to a twelfth of an hour. */
const SWEEP_STEP_SECONDS = 300;

/** The window of the runaway-sweep check: the last sweeps.windowHours. */
export function sweepWindow(deps: Pick<Deps, 'config'>, now: Date): MetricsRange {
  const end = Math.floor(now.getTime() / 1000 / SWEEP_STEP_SECONDS) * SWEEP_STEP_SECONDS;
  return { start: end - Math.round(deps.config.sweeps.windowHours * 3600), end, stepSeconds: SWEEP_STEP_SECONDS };
}

/** Five-minute samples: a week of them per GPU is cheap to read, and fine enough for a high-water mark. */
const RECOMMENDATION_STEP_SECONDS = 300;

/** The lookback window of the recommendations, ending now on a whole step. */
export function recommendationWindow(deps: Pick<Deps, 'config'>, now: Date): MetricsRange {
  const end = Math.floor(now.getTime() / 1000 / RECOMMENDATION_STEP_SECONDS) * RECOMMENDATION_STEP_SECONDS;
  return { start: end - deps.config.recommendations.lookbackDays * 86_400, end, stepSeconds: RECOMMENDATION_STEP_SECONDS };
}

/** Five-minute samples, as the review's idle cost reads a month: fine enough for hour-long idle periods. */
const WASTE_STEP_SECONDS = 300;

/** The metrics window of a waste diagnosis: the period's days, ending now at the latest, on whole steps. */
export function periodWindow(period: { start: string; end: string }, now: Date): MetricsRange {
  const start = Date.parse(`${period.start}T00:00:00Z`) / 1000;
  const end = Math.min(Date.parse(`${period.end}T00:00:00Z`) / 1000, now.getTime() / 1000);
  return { start, end: Math.max(start, Math.floor(end / WASTE_STEP_SECONDS) * WASTE_STEP_SECONDS), stepSeconds: WASTE_STEP_SECONDS };
}
