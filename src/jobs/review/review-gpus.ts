import type { IdleInstance } from '../../checks/idle/idle-findings.js';
import type { GpuDeps } from '../../deps.js';
import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import { idleInstanceOf } from '../gpu-check.js';

/**
 * Every GPU's series over a range, paired with its instance as the idle checks see it; an instance
 * someone handed to another team ("Not ours") counts for that team, as in the idle check.
 */
export async function gpuIdleInstances(gpu: GpuDeps, range: MetricsRange, handedTo: ReadonlyMap<string, string>): Promise<{ series: GpuSeries; instance: IdleInstance }[]> {
  const [inventory, ...fetched] = await Promise.all([gpu.inventory(), ...gpu.metrics.map((m) => m.fetch(range))]);
  const byId = new Map<string, IdleInstance>(inventory.map((i) => [i.instanceId, idleInstanceOf(i, handedTo.get(i.instanceId))]));
  return fetched.flat().flatMap((series) => {
    const instance = byId.get(series.ref.host);
    return instance ? [{ series, instance }] : [];
  });
}
