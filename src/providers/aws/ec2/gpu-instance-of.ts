import type { Instance } from '@aws-sdk/client-ec2';
import type { PriceCatalog } from '../../../domain/price-catalog.js';
import { isProtected, ownerOf, workloadOf, type GpuInstance, type PrepaidCapacity } from '../../../domain/gpu-inventory.js';
import { ownerTagOf } from '../../../domain/ownership.js';
import { catalogMachinePrice } from '../../catalog-machine-price.js';

export interface InventoryContext {
  region: string;
  catalog: PriceCatalog;
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
  /** When each capacity reservation (a Capacity Block's included) ends, ISO time, by its id. */
  reservationEnds?: ReadonlyMap<string, string>;
}

/** One EC2 instance of a GPU family → a GPU inventory record, priced from the catalog as every cloud's machines are. */
export function gpuInstanceOf(instance: Instance, context: InventoryContext): GpuInstance | undefined {
  const { region, catalog } = context;
  if (!instance.InstanceId || !instance.InstanceType) return undefined;
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
    ...catalogMachinePrice(catalog, {
      provider: 'aws',
      machineType: instance.InstanceType,
      region,
      spot: lifecycle === 'spot',
      noun: 'instance',
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
