import type { Deps } from '../deps.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { MetricsRange } from '../domain/gpu-metrics.js';
import type { HostPeak } from '../domain/host-peaks.js';
import { hostMatcher } from './gpu-attribution.js';
import { gpuDepsOf } from './gpu-snapshot.js';

/**
 * Each instance's host CPU and memory peak over the window, from every metrics source that reads
 * hosts, tied to instances as GPU series are. A source that fails is logged and left out: the
 * recommendations then say the host was not measured, they do not stop.
 */
export async function loadHostPeaks(deps: Deps, window: MetricsRange, instances: readonly GpuInstance[]): Promise<Map<string, HostPeak>> {
  const ids = instances.map((i) => i.instanceId);
  const fetched = await Promise.all(
    gpuDepsOf(deps).metrics.map(async (source) => {
      if (!source.hostPeaks || ids.length === 0) return [];
      try {
        return await source.hostPeaks(window, ids);
      } catch (error) {
        deps.log.warn({ source: source.id, err: (error as Error).message }, 'host CPU and memory could not be read');
        return [];
      }
    }),
  );
  const instanceOf = hostMatcher(instances);
  const peaks = new Map<string, HostPeak>();
  for (const peak of fetched.flat()) {
    const instance = instanceOf(peak.host);
    if (instance && !peaks.has(instance.instanceId)) peaks.set(instance.instanceId, peak);
  }
  return peaks;
}
