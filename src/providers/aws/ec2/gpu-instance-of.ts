import type { Instance } from '@aws-sdk/client-ec2';
import type { PriceCatalog } from '../../../domain/price-catalog.js';
import { isProtected, ownerOf, workloadOf, type GpuInstance, type PrepaidCapacity } from '../../../domain/gpu-inventory.js';
import { ownerTagOf } from '../../../domain/ownership.js';

export interface InventoryContext {
  region: string;
  catalog: PriceCatalog;
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
  /** When each capacity reservation (a Capacity Block's included) ends, ISO time, by its id. */
  reservationEnds?: ReadonlyMap<string, string>;
}

/**
 * One EC2 instance of a GPU family → a GPU inventory record. A type in a region the catalog does
 * not cover is priced as in the catalog's cheapest region for it (so its idle cost is never
 * overstated), and says so. A type the catalog does not know at all (newer than it) is kept with
 * no price, its GPUs unknown, and says so: the bill prices it once it shows it (the GPU snapshot's
 * billed rate). A spot instance is priced at the catalog's spot price where it has one, else at
 * on-demand (an upper bound, never an invented figure).
 */
/** The GPU model of a type the catalog does not know. */
const UNKNOWN_GPU = '(unknown)';

export function gpuInstanceOf(instance: Instance, context: InventoryContext): GpuInstance | undefined {
  const { region, catalog } = context;
  if (!instance.InstanceId || !instance.InstanceType) return undefined;
  const own = catalog.priceOf('aws', instance.InstanceType, region);
  const price = own ?? catalog.cheapestRegionOf('aws', instance.InstanceType);
  const tags: Record<string, string> = {};
  for (const tag of instance.Tags ?? []) if (tag.Key !== undefined) tags[tag.Key] = tag.Value ?? '';
  const lifecycle = instance.InstanceLifecycle === 'spot' ? 'spot' : 'on-demand';
  // A Capacity Block is paid up front for its whole term; an instance in a capacity reservation is
  // paid for by the reservation whether it runs or not.
  const kind: PrepaidCapacity['kind'] | undefined =
    instance.InstanceLifecycle === 'capacity-block' ? 'capacity-block' : instance.CapacityReservationId ? 'reservation' : undefined;
  const prepaid = kind ? { kind, until: context.reservationEnds?.get(instance.CapacityReservationId ?? '') ?? null } : undefined;
  const ownerTag = ownerTagOf(tags, context.tagKeys);
  const hostNames = [instance.PrivateDnsName, instance.PrivateIpAddress].filter((name): name is string => Boolean(name));
  return {
    instanceId: instance.InstanceId,
    name: tags.Name?.trim() || null,
    provider: 'aws',
    region,
    instanceType: instance.InstanceType,
    ...(price
      ? {
          gpuModel: price.gpuModel,
          gpuCount: price.gpuCount,
          gpuMemoryGiB: price.gpuMemoryGiB,
          hourlyPrice: lifecycle === 'spot' ? (price.spotHourly ?? price.onDemandHourly) : price.onDemandHourly,
          ...(own
            ? {}
            : { priceNote: `priced as in ${price.region}: the price catalog has no ${instance.InstanceType} price for ${region}` }),
        }
      : {
          gpuModel: UNKNOWN_GPU,
          gpuCount: 0,
          gpuMemoryGiB: null,
          hourlyPrice: 0,
          priceNote: `no price: the price catalog has no ${instance.InstanceType}; priced by the bill once it shows the instance (or add the type to the catalog)`,
        }),
    lifecycle,
    ...(prepaid ? { prepaid } : {}),
    team: context.resolveTeam(ownerTag),
    ownerTag,
    workload: workloadOf(tags),
    protected: isProtected(tags),
    owner: ownerOf(tags),
    tags,
    hostNames,
    ...(instance.State?.Name === 'stopped' || instance.State?.Name === 'stopping' ? { running: false } : {}),
  };
}
