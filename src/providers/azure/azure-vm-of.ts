import type { VirtualMachine } from '@azure/arm-compute';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { isProtected, ownerOf, workloadOf, type GpuInstance } from '../../domain/gpu-inventory.js';
import { ownerTagOf } from '../../domain/ownership.js';
import { sendsMetrics, type AzurePowerState } from './azure-power-state.js';
import { vmKey } from './arm-vm-id.js';

/** Azure's GPU sizes: the N-series (NC, ND, NV and NG families), `Standard_NC24ads_A100_v4` and the like. */
const N_SERIES = /^Standard_N[CDVG]/i;

/** The GPU model of a size the catalog does not know. */
const UNKNOWN_GPU = '(unknown)';

export interface AzureVmContext {
  catalog: PriceCatalog;
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
}

/** Whether the VM's size is one of Azure's GPU (N-series) sizes. */
export function isGpuSize(vmSize: string | undefined): boolean {
  return vmSize !== undefined && N_SERIES.test(vmSize);
}

/**
 * One N-series VM and its power state → a GPU inventory record, keyed by its resource id in lower
 * case (as the bill names it). Priced from the catalog (its own region, else the cheapest region
 * the catalog has, said in the price note; a size the catalog does not know has no price until the
 * bill shows the VM). A Spot VM (priority Spot, or Low in older API versions) is priced at the
 * catalog's spot price where it has one, else on-demand: an upper bound, never an invented figure.
 */
export function azureVmOf(vm: VirtualMachine, power: AzurePowerState, context: AzureVmContext): GpuInstance | undefined {
  const size = vm.hardwareProfile?.vmSize;
  if (!vm.id || !isGpuSize(size)) return undefined;
  const region = vm.location.toLowerCase();
  const own = context.catalog.priceOf('azure', size!, region);
  const price = own ?? context.catalog.cheapestRegionOf('azure', size!);
  const tags: Record<string, string> = { ...(vm.tags ?? {}) };
  const lifecycle = vm.priority === 'Spot' || vm.priority === 'Low' ? 'spot' : 'on-demand';
  const ownerTag = ownerTagOf(tags, context.tagKeys);
  const computerName = vm.osProfile?.computerName ?? vm.instanceView?.computerName;
  const hostNames = [...new Set([computerName, vm.name].filter((name): name is string => Boolean(name)))];
  return {
    instanceId: vmKey(vm.id),
    name: vm.name ?? null,
    provider: 'azure',
    region,
    instanceType: size!,
    ...(price
      ? {
          gpuModel: price.gpuModel,
          gpuCount: price.gpuCount,
          gpuMemoryGiB: price.gpuMemoryGiB,
          hourlyPrice: lifecycle === 'spot' ? (price.spotHourly ?? price.onDemandHourly) : price.onDemandHourly,
          ...(own ? {} : { priceNote: `priced as in ${price.region}: the price catalog has no ${size} price for ${region}` }),
        }
      : {
          gpuModel: UNKNOWN_GPU,
          gpuCount: 0,
          gpuMemoryGiB: null,
          hourlyPrice: 0,
          priceNote: `no price: the price catalog has no ${size}; priced by the bill once it shows the VM (or add the size to the catalog)`,
        }),
    lifecycle,
    team: context.resolveTeam(ownerTag),
    ownerTag,
    workload: workloadOf(tags),
    protected: isProtected(tags),
    owner: ownerOf(tags),
    tags,
    hostNames,
    ...(sendsMetrics(power) ? {} : { running: false }),
  };
}
