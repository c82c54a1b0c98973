import type { SweepFinding } from '../../domain/sweep-finding.js';
import type { SweepCaps } from './sweep-policy.js';
import type { SweepUsage } from './sweep-usage.js';

/**
 * Sweeps over their team's caps: one finding per cap crossed (spend, GPU-hours), so each crossing
 * is reported once. Teams without caps, and sweeps of no known team, have none. Pure.
 */
export function sweepCapFindings(
  usages: readonly SweepUsage[],
  capsByTeam: ReadonlyMap<string, SweepCaps>,
  windowHours: number,
): SweepFinding[] {
  const out: SweepFinding[] = [];
  for (const usage of usages) {
    const caps = capsByTeam.get(usage.team);
    if (!caps) continue;
    const base = {
      team: usage.team,
      sweep: usage.sweep,
      spend: usage.spend,
      gpuHours: usage.gpuHours,
      windowHours,
      perHour: usage.perHour,
      instances: usage.instances,
    };
    if (caps.spend !== undefined && usage.spend > caps.spend)
      out.push({ ...base, id: `sweep.spend:${usage.team}:${usage.sweep}`, kind: 'sweep.spend', cap: caps.spend, value: usage.spend });
    if (caps.gpuHours !== undefined && usage.gpuHours > caps.gpuHours)
      out.push({
        ...base,
        id: `sweep.gpu-hours:${usage.team}:${usage.sweep}`,
        kind: 'sweep.gpu-hours',
        cap: caps.gpuHours,
        value: usage.gpuHours,
      });
  }
  return out;
}
