import { loadPriceCatalog } from '../../catalog/price-catalog.js';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { isProtected, PROTECT_TAG_KEY, workloadOf, type GpuInstance } from '../../domain/gpu-inventory.js';
import { ownerTagOf } from '../../domain/ownership.js';
import { demoFleet } from './demo-fleet.js';
import type { DemoInstance } from './demo-instance.js';

/** The demo organisation's ownership tag keys (demo-config.ts). */
export const DEMO_TAG_KEYS: readonly string[] = ['team', 'user:team'];

export interface DemoInventoryOptions {
  tagKeys?: readonly string[];
  catalog?: PriceCatalog;
  /** An already built fleet for the seed (saves building it twice). */
  fleet?: readonly DemoInstance[];
}

/**
 * The demo fleet as GPU inventory. Team, workload and protection are read back from the tags, as
 * for a real inventory; production inference (DemoInstance.protected) carries `burnrate:protect=true`.
 */
export function demoInventory(
  seed: number,
  resolveTeam: (ownerTag: string | null | undefined) => string,
  options: DemoInventoryOptions = {},
): GpuInstance[] {
  const tagKeys = options.tagKeys ?? DEMO_TAG_KEYS;
  const fleet = options.fleet ?? demoFleet(seed, options.catalog ?? loadPriceCatalog());
  return fleet.map((instance) => {
    const tags: Record<string, string> = instance.protected ? { ...instance.tags, [PROTECT_TAG_KEY]: 'true' } : { ...instance.tags };
    const ownerTag = ownerTagOf(tags, tagKeys);
    return {
      instanceId: instance.instanceId,
      name: instance.name,
      provider: instance.provider,
      region: instance.region,
      instanceType: instance.instanceType,
      gpuModel: instance.gpuModel,
      gpuCount: instance.gpuCount,
      gpuMemoryGiB: instance.gpuMemoryGiB,
      hourlyPrice: instance.hourlyPrice,
      lifecycle: instance.lifecycle,
      team: resolveTeam(ownerTag),
      ownerTag,
      workload: workloadOf(tags),
      protected: isProtected(tags),
      owner: instance.owner,
      tags,
    };
  });
}
