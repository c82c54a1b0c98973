import type { GpuUsage } from './gpu-usage.js';

/** Hours a month the instance is expected to run: the share of the lookback it ran × hours in a month. */
export function monthlyHours(usage: Pick<GpuUsage, 'runningHours' | 'windowHours'>, hoursPerMonth: number): number {
  if (usage.windowHours <= 0) return 0;
  return Math.min(1, usage.runningHours / usage.windowHours) * hoursPerMonth;
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * What a change to an instance saves once a commitment covers `coveredShare` of its cost: only the
 * uncovered part. The covered part is paid whether it runs or not (a Savings Plan's hours go to other
 * usage, they are not refunded). Recommendations and the waste diagnosis's oversized cause both call this.
 */
export function uncoveredPart(saving: number, coveredShare: number): number {
  return saving * (1 - Math.min(1, Math.max(0, coveredShare)));
}
