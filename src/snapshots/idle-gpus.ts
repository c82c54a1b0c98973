import { idleFindings } from '../checks/idle/idle-findings.js';
import { idleInstanceOf } from '../checks/idle/idle-instance-of.js';
import type { TeamSchedule } from '../checks/idle/team-schedule.js';
import type { Deps } from '../deps.js';
import type { GpuFinding } from '../domain/gpu-finding.js';
import { loadGpuSnapshot } from './gpu-snapshot.js';
import { metricsWindow } from './gpu-windows.js';

/**
 * Idle and stalled instances right now, over fresh metrics, before Keep exceptions; only
 * `instanceId` when given (the re-check of a Stop click).
 */
export async function detectIdleGpus(deps: Deps, now: Date, only?: { instanceId: string }): Promise<GpuFinding[]> {
  const snapshot = await loadGpuSnapshot(deps, { window: metricsWindow(deps, now), scope: only ? { instanceIds: [only.instanceId] } : {} });
  const byId = new Map(snapshot.instances.map((i) => [i.instanceId, i]));
  // A team someone handed the instance to (Not ours) wins; else its tag's team, else its pods' namespace's (attributeSeries).
  const gpus = snapshot.series.map(({ series, instance }) => ({
    series,
    instance: idleInstanceOf(instance, snapshot.handedTo.get(instance.instanceId)),
  }));
  return idleFindings({ gpus, policy: deps.config.gpu.idle, now, schedules: schedulesOf(deps), range: snapshot.window }).map((f) => {
    const instance = byId.get(f.instanceId)!;
    return { ...f, name: instance.name, instanceType: instance.instanceType };
  });
}

/** Each team's time zone and working hours, as the idle rules read them. */
export function schedulesOf(deps: Pick<Deps, 'config'>): Map<string, TeamSchedule> {
  return new Map(
    deps.config.teams.map((t) => [t.id, { timezone: t.timezone, workingHours: t.gpu.workingHours ?? deps.config.gpu.workingHours }]),
  );
}
