import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import type { HostPeak } from '../../domain/host-peaks.js';

/** What the recommendations need to know of one instance's GPUs over the lookback. */
export interface GpuUsage {
  /** Hours with at least one GPU reporting (the instance was running). */
  runningHours: number;
  /** Hours of the lookback window. */
  windowHours: number;
  /** Mean utilisation (0–100) over the samples of running GPUs; null without samples. */
  meanUtil: number | null;
  /** 95th percentile of utilisation over the same samples; null without samples. */
  p95Util: number | null;
  /** Highest GPU memory in use at one moment, summed over the instance's GPUs, GiB; null when no source reports memory. */
  memoryHighWaterGiB: number | null;
  /** The host's CPU and memory at the 95th percentile; null or absent when no source measures the host. */
  host?: HostPeak | null;
}

const MIB_PER_GIB = 1024;

/**
 * Reduces one instance's series (one per GPU, on the range's grid) to its usage. Memory is summed
 * across GPUs at each sample time before the maximum is taken: a job that moves to a smaller type
 * needs all of its memory at once, wherever it sat.
 */
export function gpuUsageOf(series: readonly GpuSeries[], range: MetricsRange): GpuUsage {
  const windowHours = (range.end - range.start) / 3600;
  const running = new Set<number>();
  const memoryAt = new Map<number, number>();
  const utils: number[] = [];
  let sum = 0;
  for (const s of series) {
    for (let i = 0; i < s.times.length; i++) {
      const u = s.util[i]!;
      if (Number.isNaN(u)) continue;
      const t = s.times[i]!;
      running.add(t);
      utils.push(u);
      sum += u;
      const m = s.memUsedMiB?.[i];
      if (m !== undefined && !Number.isNaN(m)) memoryAt.set(t, (memoryAt.get(t) ?? 0) + m);
    }
  }
  utils.sort((a, b) => a - b);
  let highWater: number | null = null;
  for (const m of memoryAt.values()) highWater = Math.max(highWater ?? 0, m);
  return {
    runningHours: (running.size * range.stepSeconds) / 3600,
    windowHours,
    meanUtil: utils.length > 0 ? sum / utils.length : null,
    p95Util: utils.length > 0 ? utils[Math.min(utils.length - 1, Math.floor(utils.length * 0.95))]! : null,
    memoryHighWaterGiB: highWater === null ? null : highWater / MIB_PER_GIB,
  };
}
