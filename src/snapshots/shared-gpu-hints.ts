import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuSeries } from '../domain/gpu-metrics.js';
import { KAI_RESERVATION_NAMESPACE } from '../domain/kubernetes.js';
import type { AttributedGpu } from './gpu-attribution.js';

/**
 * Workloads with no GPU series of their own because their GPU is shared and reports under someone
 * else, by id, with the hint saying so: a ResourceClaim's GPU reports under the first workload
 * sharing it (DCGM writes one GPU once), a KAI-shared GPU under the scheduler's reservation pod on
 * the node. Their cost is still their own share; only their idleness cannot be read apart.
 */
export function sharedGpuHints(
  instances: readonly GpuInstance[],
  attributed: readonly AttributedGpu[],
  unattributed: readonly GpuSeries[],
): Map<string, string> {
  const meteredBy = new Map<string, GpuInstance>();
  for (const { series, instance } of attributed)
    if (series.ref.claim) meteredBy.set(`${series.ref.claim.namespace}/${series.ref.claim.name}`, instance);
  const reservedHosts = new Set(
    unattributed.filter((s) => s.ref.namespace === KAI_RESERVATION_NAMESPACE).map((s) => s.ref.host.toLowerCase()),
  );
  const hints = new Map<string, string>();
  for (const instance of instances) {
    const claim = (instance.kubernetes?.claims ?? []).find((c) => meteredBy.has(c) && meteredBy.get(c) !== instance);
    if (claim) {
      const other = meteredBy.get(claim)!;
      hints.set(
        instance.instanceId,
        `its GPU is shared through ResourceClaim ${claim} with ${other.name ?? other.instanceId}, whose metrics it reports under`,
      );
    } else if (instance.kubernetes?.kaiFractions && instance.kubernetes.nodes.some((n) => reservedHosts.has(n.name.toLowerCase())))
      hints.set(instance.instanceId, 'it holds a KAI fraction of a shared GPU, whose metrics report under the scheduler’s reservation pod');
  }
  return hints;
}
