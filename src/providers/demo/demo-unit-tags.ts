import type { DemoInstance } from './demo-instance.js';
import { dayNumber } from './demo-schedule.js';

/** The tag naming a training run on the demo's instances and bill: burnrate's default run tag key (unitCosts.tagKeys.run). */
export const DEMO_RUN_TAG = 'run_id';

/**
 * The experiment, run and sweep tags a demo instance's cost line carries on a day, so the demo's
 * unit costs mean something: each training cycle is one run of the instance's experiment, each
 * sweep burst one sweep of its trials. Notebooks and serving carry none. Derived from the same run
 * pattern (cycle index) as the instance's hours, so tags and spend always agree. A node of a
 * multi-node run keeps the run tag it was launched with (the inventory shows the same): the run
 * resumes from its checkpoints after each stop, so its bill stays one run.
 */
export function demoUnitTags(instance: DemoInstance, day: string): Record<string, string> {
  const p = instance.pattern;
  if (p.kind !== 'runs' && p.kind !== 'bursts') return {};
  const cycle = Math.floor((dayNumber(day) + p.phaseDays) / p.cycleDays);
  const experiment = instance.tags['sweep'] ?? instance.name.replace(/-(node-)?\d+$/, '');
  if (p.kind === 'runs') return { experiment, [DEMO_RUN_TAG]: instance.tags[DEMO_RUN_TAG] ?? `${instance.name}-run-${cycle}` };
  return { experiment, sweep: `${experiment}-${cycle}`, [DEMO_RUN_TAG]: `${instance.name}-trial-${cycle}` };
}
