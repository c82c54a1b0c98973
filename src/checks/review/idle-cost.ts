import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import { detectIdleIntervalsMany } from '../idle/detect-idle.js';
import type { IdleInstance } from '../idle/idle-findings.js';
import type { IdlePolicy } from '../idle/idle-policy.js';
import { gpuShareOf } from '../../domain/physical-gpus.js';

export interface IdleCost {
  cost: number;
  gpuHours: number;
}

/**
 * What a team's GPUs cost while idle or stalled over a range: each GPU's idle seconds at its share
 * of the instance's hourly price (a MIG slice at its share of its GPU's). Per GPU, not per instance, so one idle GPU of eight counts an
 * eighth of the price: the review asks what was paid for and unused, not which instance to stop.
 */
export function idleCostByTeam(
  gpus: readonly { series: GpuSeries; instance: IdleInstance }[],
  policy: IdlePolicy,
  range: MetricsRange,
): Map<string, IdleCost> {
  const intervals = detectIdleIntervalsMany(
    gpus.map((g) => g.series),
    policy,
    range,
  );
  const costs = new Map<string, IdleCost>();
  gpus.forEach(({ instance }, index) => {
    if (instance.team === null) return;
    // A stall usually lies inside an idle interval (both are reported): count each second once.
    const seconds = idleSeconds(intervals[index]!.filter((i) => i.kind !== 'unknown'));
    if (seconds === 0) return;
    const entry = costs.get(instance.team) ?? { cost: 0, gpuHours: 0 };
    // In physical GPU-hours: a MIG slice is its share of a GPU, whose price is the instance's over
    // its GPUs (a workload's gpuCount is the GPUs it holds, 1/7 for a 1g slice: its whole price).
    const gpuHours = (seconds / 3600) * gpuShareOf(gpus[index]!.series.ref);
    entry.gpuHours += gpuHours;
    entry.cost += gpuHours * (instance.hourlyPrice / (instance.gpuCount > 0 ? instance.gpuCount : 1));
    costs.set(instance.team, entry);
  });
  for (const entry of costs.values()) {
    entry.cost = Math.round(entry.cost * 100) / 100;
    entry.gpuHours = Math.round(entry.gpuHours * 10) / 10;
  }
  return costs;
}

/** Seconds covered by the union of intervals. */
function idleSeconds(intervals: readonly { start: number; end: number }[]): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  let total = 0;
  let reach = -Infinity;
  for (const { start, end } of sorted) {
    if (end <= reach) continue;
    total += end - Math.max(start, reach);
    reach = end;
  }
  return total;
}
