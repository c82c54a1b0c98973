import type { GpuInstance } from '../../domain/gpu-inventory.js';
import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import { normaliseTag } from '../../domain/ownership.js';
import { gpuShareOf } from '../../domain/physical-gpus.js';
import type { SweepInstance } from '../../domain/sweep-finding.js';

/** One sweep of one team over the window: its instances and what they used. */
export interface SweepUsage {
  team: string;
  sweep: string;
  instances: SweepInstance[];
  spend: number;
  gpuHours: number;
  /** Hourly price of its instances that run now. */
  perHour: number;
}

/** An instance counts as running now when one of its GPUs reported within this long (or a step) of the window's end. */
const RUNNING_NOW_SECONDS = 15 * 60;

/**
 * Adds up each sweep's usage from the GPU metrics: an instance's running hours are the sample
 * times at which any of its GPUs reported, its GPU-hours the samples of each GPU, its spend the
 * running hours at its hourly price. Metrics, not the bill: a runaway sweep must be caught within
 * hours, and billing data lags a day. Pure.
 */
export function sweepUsage(
  inventory: readonly GpuInstance[],
  series: readonly GpuSeries[],
  range: MetricsRange,
  tagKey: string,
): SweepUsage[] {
  const wanted = normaliseTag(tagKey);
  const members = new Map<string, { instance: GpuInstance; sweep: string }>();
  for (const instance of inventory) {
    const entry = Object.entries(instance.tags).find(([k, v]) => normaliseTag(k) === wanted && v.trim() !== '');
    if (entry) members.set(instance.instanceId, { instance, sweep: entry[1].trim() });
  }
  const stepHours = range.stepSeconds / 3600;
  // The last sample sits up to a step before the window's end.
  const recentFrom = range.end - Math.max(RUNNING_NOW_SECONDS, range.stepSeconds);
  const perInstance = new Map<string, { times: Set<number>; gpuSamples: number; latest: number }>();
  for (const s of series) {
    if (!members.has(s.ref.host)) continue;
    const acc = perInstance.get(s.ref.host) ?? { times: new Set<number>(), gpuSamples: 0, latest: -Infinity };
    // GPU-hours of physical GPUs: a MIG slice's sample is its share of one.
    const share = gpuShareOf(s.ref);
    for (let i = 0; i < s.times.length; i++) {
      if (Number.isNaN(s.util[i]!)) continue;
      acc.times.add(s.times[i]!);
      acc.gpuSamples += share;
      acc.latest = Math.max(acc.latest, s.times[i]!);
    }
    perInstance.set(s.ref.host, acc);
  }

  const sweeps = new Map<string, SweepUsage>();
  for (const [id, { instance, sweep }] of members) {
    const acc = perInstance.get(id);
    const runningHours = (acc?.times.size ?? 0) * stepHours;
    const row: SweepInstance = {
      instanceId: id,
      name: instance.name,
      instanceType: instance.instanceType,
      gpuCount: instance.gpuCount,
      hourlyPrice: instance.hourlyPrice,
      protected: instance.protected,
      running: acc !== undefined && acc.latest >= recentFrom,
      runningHours,
      spend: cents(runningHours * instance.hourlyPrice),
      gpuHours: round1((acc?.gpuSamples ?? 0) * stepHours),
    };
    const key = `${instance.team}\u0000${sweep}`;
    const usage = sweeps.get(key) ?? { team: instance.team, sweep, instances: [], spend: 0, gpuHours: 0, perHour: 0 };
    usage.instances.push(row);
    usage.spend = cents(usage.spend + row.spend);
    usage.gpuHours = round1(usage.gpuHours + row.gpuHours);
    if (row.running) usage.perHour = cents(usage.perHour + row.hourlyPrice);
    sweeps.set(key, usage);
  }
  return [...sweeps.values()].sort((a, b) => a.team.localeCompare(b.team) || a.sweep.localeCompare(b.sweep));
}

const cents = (n: number) => Math.round(n * 100) / 100;
const round1 = (n: number) => Math.round(n * 10) / 10;
