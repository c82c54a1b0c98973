import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import type { IdleInterval } from '../idle/detect-idle.js';
import { gpuShareOf } from '../../domain/physical-gpus.js';

/**
 * How a GPU's observed time splits, in physical GPU-seconds (a MIG slice's second counts at its
 * share of its GPU): each second in exactly one of stalled, idle, low traffic or busy.
 */
export interface GpuTime {
  /** Seconds with a utilisation sample: the GPU was running (a stopped instance reports nothing and costs nothing). */
  observed: number;
  /** Inside an idle interval of the idle policy and not in a stall. */
  idle: number;
  /**
   * Inside a stall (memory held, no work), idle or not. A stall is idle too (utilisation under both
   * limits) and outlasts the idle minimum when it runs long, so it is looked for first, as the idle
   * alert names it: otherwise a hung job that holds its GPU for more than an hour would be idle only.
   */
  stalled: number;
  /** Under the low-traffic floor, neither idle nor stalled. */
  lowTraffic: number;
  /** Sum of utilisation × seconds over the low-traffic samples: their mean is lowTrafficUtil / lowTraffic. */
  lowTrafficUtil: number;
  /** UTC days (YYYY-MM-DD) with a sample. */
  days: Set<string>;
}

export function emptyGpuTime(): GpuTime {
  return { observed: 0, idle: 0, stalled: 0, lowTraffic: 0, lowTrafficUtil: 0, days: new Set() };
}

/**
 * Adds one GPU's samples within the range to `into`. Sample i stands for [times[i], times[i] + step)
 * of the series' share of its physical GPU; a sample counts stalled or idle when it starts inside
 * a stalled or idle interval (the idle check's own intervals, so a short dip under the threshold is
 * not idle here either). Time without samples counts nowhere: no sample, no running GPU, no cost.
 */
export function addGpuTime(
  into: GpuTime,
  series: GpuSeries,
  intervals: readonly IdleInterval[],
  range: MetricsRange,
  lowTrafficFloor: number | null,
): GpuTime {
  const idle = sortedOf(intervals, 'idle');
  const stalled = sortedOf(intervals, 'stalled');
  const step = range.stepSeconds * gpuShareOf(series.ref);
  let i = 0;
  let s = 0;
  let lastDay = -1;
  for (let k = 0; k < series.times.length; k++) {
    const t = series.times[k]!;
    if (t < range.start || t >= range.end) continue;
    const u = series.util[k]!;
    if (Number.isNaN(u)) continue;
    into.observed += step;
    const day = Math.floor(t / 86_400);
    if (day !== lastDay) into.days.add(new Date(day * 86_400_000).toISOString().slice(0, 10));
    lastDay = day;
    while (i < idle.length && idle[i]!.end <= t) i++;
    while (s < stalled.length && stalled[s]!.end <= t) s++;
    if (s < stalled.length && stalled[s]!.start <= t) into.stalled += step;
    else if (i < idle.length && idle[i]!.start <= t) into.idle += step;
    else if (lowTrafficFloor !== null && u < lowTrafficFloor) {
      into.lowTraffic += step;
      into.lowTrafficUtil += u * step;
    }
  }
  return into;
}

function sortedOf(intervals: readonly IdleInterval[], kind: IdleInterval['kind']): IdleInterval[] {
  return intervals.filter((x) => x.kind === kind).sort((a, b) => a.start - b.start);
}
