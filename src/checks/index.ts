import type { AnyCheckPlugin } from './definition.js';
import { budgetCheckPlugin } from './budget/index.js';
import { idleCheckPlugin } from './idle/index.js';
import { sweepCheckPlugin } from './sweeps/index.js';
import { anomalyCheckPlugin, hourlyAnomalyCheckPlugin } from './anomalies/index.js';

/**
 * Every scheduled check, in the order a job runs them: the job table is built from this list, so a
 * new check is its folder and one line here. Checks naming one job share its run (the sweep caps
 * read the idle-GPU check's metrics on its cron).
 */
export const CHECKS: readonly AnyCheckPlugin[] = [
  budgetCheckPlugin,
  idleCheckPlugin,
  sweepCheckPlugin,
  anomalyCheckPlugin,
  hourlyAnomalyCheckPlugin,
];
