import type { VirtualMachine } from '@azure/arm-compute';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { isProtected, ownerOf, workloadOf, type GpuInstance } from '../../domain/gpu-inventory.js';
import { ownerTagOf } from '../../domain/ownership.js';
import { LAUNCH_TEMPLATE_TAG } from '../../ports/spot-port.js';
import { catalogMachinePrice } from '../catalog-machine-price.js';
import { sendsMetrics, type AzurePowerState } from './azure-power-state.js';
import { vmKey } from './arm-vm-id.js';

/** Azure's GPU sizes: the N-series (NC, ND, NV and NG families), `Standard_NC24ads_A100_v4` and the like. */
const N_SERIES = /^Standard_N[CDVG]/i;

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
 * case (as the bill names it), priced from the catalog as every cloud's machines are; a Spot VM is
 * one of priority Spot (or Low in older API versions).
 */
export function azureVmOf(vm: VirtualMachine, power: AzurePowerState, context: AzureVmContext): GpuInstance | undefined {
  const size = vm.hardwareProfile?.vmSize;
  if (!vm.id || !isGpuSize(size)) return undefined;
  const region = vm.location.toLowerCase();
  const tags: Record<string, string> = { ...(vm.tags ?? {}) };
  // A VM of a scale set: its scale set is what a spot migration changes (unless a tag names another).
  if (vm.virtualMachineScaleSet?.id && !tags[LAUNCH_TEMPLATE_TAG]) tags[LAUNCH_TEMPLATE_TAG] = vm.virtualMachineScaleSet.id;
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
    ...catalogMachinePrice(context.catalog, { provider: 'azure', machineType: size!, region, spot: lifecycle === 'spot', noun: 'VM' }),
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
