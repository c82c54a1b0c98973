import type { GpuUsage } from './gpu-usage.js';

/** Hours a month the instance is expected to run: the share of the lookback it ran × hours in a month. */
export function monthlyHours(usage: Pick<GpuUsage, 'runningHours' | 'windowHours'>, hoursPerMonth: number): number {
  if (usage.windowHours <= 0) return 0;
  return Math.min(1, usage.runningHours / usage.windowHours) * hoursPerMonth;
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
