import type { AnomalyDriver, AnomalyMatch } from '../../domain/anomaly-finding.js';

/** An open idle-GPU finding as matching needs it. */
export interface IdleOnResource {
  id: string;
  team: string | null;
  instanceId: string;
  name: string | null;
}

/** An open runaway-sweep finding as matching needs it. */
export interface SweepOnResources {
  id: string;
  team: string;
  sweep: string;
  instances: readonly { instanceId: string }[];
}

/**
 * The team's open idle and sweep findings on the resources that moved: a resource driver's key is
 * the bill's resource id, or "name (id)" where the bill names it. Each finding once. Pure.
 */
export function matchingFindings(
  team: string,
  drivers: readonly AnomalyDriver[],
  idle: readonly IdleOnResource[],
  sweeps: readonly SweepOnResources[],
): AnomalyMatch[] {
  const moved = drivers.filter((d) => d.dimension === 'resource').map((d) => d.key);
  const isMoved = (id: string) => moved.some((key) => key === id || key.endsWith(`(${id})`));
  return [
    ...sweeps
      .filter((s) => s.team === team && s.instances.some((i) => isMoved(i.instanceId)))
      .map((s): AnomalyMatch => ({ kind: 'sweep', findingId: s.id, label: `sweep ${s.sweep}` })),
    ...idle
      .filter((f) => f.team === team && isMoved(f.instanceId))
      .map((f): AnomalyMatch => ({ kind: 'idle', findingId: f.id, label: `idle instance ${f.name ?? f.instanceId}` })),
  ].filter((m, i, all) => all.findIndex((o) => o.findingId === m.findingId) === i);
}
