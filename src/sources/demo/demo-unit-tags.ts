import type { DemoInstance } from './demo-instance.js';
import { dayNumber } from './demo-schedule.js';

/**
 * The experiment, run and sweep tags a demo instance's cost line carries on a day, so the demo's
 * unit costs mean something: each training cycle is one run of the instance's experiment, each
 * sweep burst one sweep of its trials. Notebooks and serving carry none. Derived from the same run
 * pattern (cycle index) as the instance's hours, so tags and spend always agree.
 */
export function demoUnitTags(instance: DemoInstance, day: string): Record<string, string> {
  const p = instance.pattern;
  if (p.kind !== 'runs' && p.kind !== 'bursts') return {};
  const cycle = Math.floor((dayNumber(day) + p.phaseDays) / p.cycleDays);
  const experiment = instance.tags['sweep'] ?? instance.name.replace(/-(node-)?\d+$/, '');
  if (p.kind === 'runs') return { experiment, run_id: `${instance.name}-run-${cycle}` };
  return { experiment, sweep: `${experiment}-${cycle}`, run_id: `${instance.name}-trial-${cycle}` };
}
