import type { IdleInterval } from './idle-runs.js';

/** Where one GPU stands at the end of the range. */
export interface GpuIdleState {
  kind: 'idle' | 'stalled';
  /** Seconds since the epoch: not busy since then. */
  since: number;
  missingSeconds: number;
}

/** An instance whose GPUs are all idle or stalled right up to the end of the range. */
export interface InstanceIdle {
  kind: 'idle' | 'stalled';
  since: number;
  /** At most this much of the period had no data (counted as idle by policy); an upper bound across GPUs. */
  missingSeconds: number;
}

/**
 * The GPU's idle or stalled period still open at the end of its data. With both open (a stall inside
 * an idle stretch), the GPU has done no work since the earlier start, and the stall names the kind.
 * An open unknown interval is not idle: a GPU whose data ends in a gap is not idle.
 */
export function openGpuState(intervals: readonly IdleInterval[]): GpuIdleState | null {
  let idle: IdleInterval | null = null;
  let stalled: IdleInterval | null = null;
  for (const interval of intervals) {
    if (!interval.open) continue;
    if (interval.kind === 'idle') idle = interval;
    else if (interval.kind === 'stalled') stalled = interval;
  }
  const open = stalled ?? idle;
  if (!open) return null;
  const since = Math.min(idle?.start ?? Infinity, stalled?.start ?? Infinity);
  return {
    kind: open.kind === 'stalled' ? 'stalled' : 'idle',
    since,
    missingSeconds: Math.max(idle?.missingSeconds ?? 0, stalled?.missingSeconds ?? 0),
  };
}

/**
 * The instance is idle when all its GPUs are idle, stalled when any is stalled and the rest idle,
 * counted from the last GPU to fall quiet. A GPU that went quiet too recently to have an interval
 * counts as busy, so the finding waits until every GPU qualifies; and since every GPU's period
 * already lasted its minimum, so does the instance's.
 */
export function instanceIdle(gpus: readonly (GpuIdleState | null)[], end: number): InstanceIdle | null {
  if (gpus.length === 0) return null;
  let since = -Infinity;
  let stalled = false;
  let missingSeconds = 0;
  for (const gpu of gpus) {
    if (!gpu) return null;
    since = Math.max(since, gpu.since);
    if (gpu.kind === 'stalled') stalled = true;
    missingSeconds = Math.max(missingSeconds, gpu.missingSeconds);
  }
  // How many GPUs stall is counted by physical GPU where the series are known (idle-findings.ts).
  return { kind: stalled ? 'stalled' : 'idle', since, missingSeconds: Math.min(missingSeconds, end - since) };
}
