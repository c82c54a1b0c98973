import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { AttributedGpu } from './gpu-attribution.js';

/**
 * Workloads with no GPU series of their own whose ResourceClaim's GPU reports under another
 * workload sharing the claim (DCGM writes one GPU once, so the GPU's series is the first sharer's):
 * by id, the hint naming who it is judged with. Its cost is still its own share; only its idleness
 * is read off the other's.
 */
export function sharedClaimHints(instances: readonly GpuInstance[], attributed: readonly AttributedGpu[]): Map<string, string> {
  const meteredBy = new Map<string, GpuInstance>();
  for (const { series, instance } of attributed)
    if (series.ref.claim) meteredBy.set(`${series.ref.claim.namespace}/${series.ref.claim.name}`, instance);
  const hints = new Map<string, string>();
  for (const instance of instances)
    for (const claim of instance.kubernetes?.claims ?? []) {
      const other = meteredBy.get(claim);
      if (other && other.instanceId !== instance.instanceId) {
        hints.set(
          instance.instanceId,
          `its GPU is shared through ResourceClaim ${claim} with ${other.name ?? other.instanceId}, whose metrics it reports under`,
        );
        break;
      }
    }
  return hints;
}
