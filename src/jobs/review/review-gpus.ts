import type { IdleInstance } from '../../checks/idle/idle-findings.js';
import { idleInstanceOf } from '../../checks/idle/idle-instance-of.js';
import type { Deps } from '../../deps.js';
import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import { loadGpuSnapshot } from '../../snapshots/gpu-snapshot.js';

/**
 * Every GPU's series over a range, paired with its instance as the idle checks see it; an instance
 * someone handed to another team ("Not ours") counts for that team, as in the idle check.
 * Unlike the idle check, the review counts only series named by instance id, and an untagged
 * instance's namespace names no team here (as it always has): teams as tagged, id matches only.
 */
export async function gpuIdleInstances(
  deps: Deps,
  range: MetricsRange,
  handedTo: ReadonlyMap<string, string>,
): Promise<{ series: GpuSeries; instance: IdleInstance }[]> {
  const snapshot = await loadGpuSnapshot(deps, { window: range, ownership: 'tags' });
  return snapshot.series.flatMap(({ series, instance }) =>
    series.ref.host === instance.instanceId ? [{ series, instance: idleInstanceOf(instance, handedTo.get(instance.instanceId)) }] : [],
  );
}
