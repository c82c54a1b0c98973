import type { Deps } from '../deps.js';
import type { Period } from '../domain/period.js';

/**
 * The names of some resources, for listing them: the GPU inventory's (its Name tag, as the review
 * and `recommend` call machines), else the bill's ResourceName. An inventory that cannot be read
 * leaves the bill's names: a listing never fails for want of a name.
 */
export async function resourceNames(
  deps: Pick<Deps, 'store' | 'log'> & Partial<Pick<Deps, 'gpu'>>,
  period: Period,
  resourceIds: readonly string[],
): Promise<Map<string, string>> {
  if (resourceIds.length === 0) return new Map();
  const [costs, inventory] = await Promise.all([
    deps.store.spend.resourceCosts(period, resourceIds),
    deps.gpu
      ? deps.gpu.inventory().catch((error: unknown) => {
          deps.log.warn({ err: (error as Error).message }, 'resource names: the GPU inventory could not be read; the bill names them');
          return [];
        })
      : Promise.resolve([]),
  ]);
  const names = new Map<string, string>();
  for (const cost of costs) if (cost.resourceName) names.set(cost.resourceId, cost.resourceName);
  const wanted = new Set(resourceIds);
  for (const instance of inventory) if (instance.name && wanted.has(instance.instanceId)) names.set(instance.instanceId, instance.name);
  return names;
}
