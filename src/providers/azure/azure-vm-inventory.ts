import type { ComputeManagementClient, VirtualMachine } from '@azure/arm-compute';
import { loadPriceCatalog } from '../../catalog/price-catalog.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { parseArmVmId } from './arm-vm-id.js';
import { explainAzureError } from './azure-errors.js';
import { AZURE_VM_INSTANCE_VIEW, AZURE_VM_READ } from './azure-permissions.js';
import { powerStateOf } from './azure-power-state.js';
import { azureVmOf, isGpuSize } from './azure-vm-of.js';

export interface AzureVmInventoryOptions {
  subscriptions: readonly string[];
  tagKeys: readonly string[];
  resolveTeam: (ownerTag: string | null | undefined) => string;
  /** The Compute client of a subscription (one per subscription, shared with the stop port). */
  clientFor: (subscriptionId: string) => ComputeManagementClient;
  catalog?: PriceCatalog;
}

/**
 * The N-series VMs of the configured subscriptions. ARM's list has no filter by size, so every VM
 * is listed (pages followed by `nextLink`) and the GPU sizes kept; only those have their power
 * state read (one instance view each), so a subscription of thousands of CPU VMs costs its list
 * pages and nothing more. Subscriptions are read in parallel.
 */
export class AzureVmInventory {
  readonly permissions = [AZURE_VM_READ, AZURE_VM_INSTANCE_VIEW] as const;
  private readonly catalog: PriceCatalog;

  constructor(private readonly options: AzureVmInventoryOptions) {
    this.catalog = options.catalog ?? loadPriceCatalog();
  }

  async list(): Promise<GpuInstance[]> {
    return (await Promise.all(this.options.subscriptions.map((s) => this.listSubscription(s)))).flat();
  }

  private async listSubscription(subscriptionId: string): Promise<GpuInstance[]> {
    const client = this.options.clientFor(subscriptionId);
    const gpuVms: VirtualMachine[] = [];
    try {
      for await (const vm of client.virtualMachines.listAll()) if (isGpuSize(vm.hardwareProfile?.vmSize)) gpuVms.push(vm);
    } catch (error) {
      throw explainAzureError(error, AZURE_VM_READ, `subscription ${subscriptionId}`);
    }
    const context = { catalog: this.catalog, tagKeys: this.options.tagKeys, resolveTeam: this.options.resolveTeam };
    const listed = await Promise.all(
      gpuVms.map(async (vm) => {
        const id = parseArmVmId(vm.id ?? '');
        if (!id) return undefined;
        try {
          const view = await client.virtualMachines.instanceView(id.resourceGroup, id.name);
          return azureVmOf({ ...vm, instanceView: view }, powerStateOf(view.statuses), context);
        } catch (error) {
          throw explainAzureError(error, AZURE_VM_INSTANCE_VIEW, vm.id!);
        }
      }),
    );
    return listed.filter((vm): vm is GpuInstance => vm !== undefined);
  }
}
