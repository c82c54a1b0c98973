import type { Instance } from '@aws-sdk/client-ec2';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { isProtected, ownerOf, workloadOf, type GpuInstance } from '../../domain/gpu-inventory.js';
import { ownerTagOf } from '../../domain/ownership.js';

export interface InventoryContext {
  region: string;
  catalog: PriceCatalog;
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
}

/**
 * One EC2 instance → a GPU inventory record, or undefined when its type is no GPU type the catalog
 * knows. A GPU type in a region the catalog does not cover (us-east-2, say) is kept, not dropped:
 * priced as in the catalog's cheapest region for it (so its idle cost is never overstated), and
 * says so. A spot instance is priced at the catalog's spot price where it has one, else at
 * on-demand (an upper bound, never an invented figure).
 */
export function gpuInstanceOf(instance: Instance, context: InventoryContext): GpuInstance | undefined {
  const { region, catalog } = context;
  if (!instance.InstanceId || !instance.InstanceType) return undefined;
  const own = catalog.priceOf('aws', instance.InstanceType, region);
  const price = own ?? catalog.cheapestRegionOf('aws', instance.InstanceType);
  if (!price) return undefined;
  const tags: Record<string, string> = {};
  for (const tag of instance.Tags ?? []) if (tag.Key !== undefined) tags[tag.Key] = tag.Value ?? '';
  const lifecycle = instance.InstanceLifecycle === 'spot' ? 'spot' : 'on-demand';
  const ownerTag = ownerTagOf(tags, context.tagKeys);
  const hostNames = [instance.PrivateDnsName, instance.PrivateIpAddress].filter((name): name is string => Boolean(name));
  return {
    instanceId: instance.InstanceId,
    name: tags.Name?.trim() || null,
    provider: 'aws',
    region,
    instanceType: instance.InstanceType,
    gpuModel: price.gpuModel,
    gpuCount: price.gpuCount,
    gpuMemoryGiB: price.gpuMemoryGiB,
    hourlyPrice: lifecycle === 'spot' ? (price.spotHourly ?? price.onDemandHourly) : price.onDemandHourly,
    ...(own ? {} : { priceNote: `priced as in ${price.region}: the price catalog has no ${instance.InstanceType} price for ${region}` }),
    lifecycle,
    team: context.resolveTeam(ownerTag),
    ownerTag,
    workload: workloadOf(tags),
    protected: isProtected(tags),
    owner: ownerOf(tags),
    tags,
    hostNames,
  };
}
