import type { IdleInstance } from '../../checks/idle/idle-findings.js';
import { idleInstanceOf } from '../../checks/idle/idle-instance-of.js';
import type { GpuSeries } from '../../domain/gpu-metrics.js';
import type { GpuSnapshot } from '../../snapshots/gpu-snapshot.js';

/**
 * Every GPU's series over a range, paired with its instance as the idle checks see it; an instance
 * someone handed to another team ("Not ours") counts for that team, as in the idle check.
 * Unlike the idle check, the review counts only series named by instance id, and an untagged
 * instance's namespace names no team here (as it always has): teams as tagged, id matches only.
 */
export function gpuIdleInstances(
  snapshot: GpuSnapshot,
  handedTo: ReadonlyMap<string, string>,
): { series: GpuSeries; instance: IdleInstance }[] {
  return snapshot.series.flatMap(({ series, instance }) =>
    series.ref.host === instance.instanceId ? [{ series, instance: idleInstanceOf(instance, handedTo.get(instance.instanceId)) }] : [],
  );
}
