import type { ComputeManagementClient } from '@azure/arm-compute';
import { BurnrateError } from '../../domain/errors.js';
import { decideStop, type InstanceActionPort, type InstanceState, type StopResult } from '../../ports/instance-port.js';
import { KeyedLock } from '../keyed-lock.js';
import { parseArmVmId, vmKey, type ArmVmId } from './arm-vm-id.js';
import { explainAzureError } from './azure-errors.js';
import { AZURE_VM_DEALLOCATE, AZURE_VM_READ } from './azure-permissions.js';
import { lifecycleOf, powerStateOf, type AzurePowerState } from './azure-power-state.js';

export interface AzureVmPortOptions {
  /** The Compute client of a subscription (one per subscription, shared with the inventory). */
  clientFor: (subscriptionId: string) => ComputeManagementClient;
  /** How often a deallocation's operation is polled when ARM does not say (Retry-After); the SDK's default otherwise. */
  pollIntervalMs?: number;
}

/** A VM as read for a stop: its state for the shared rules, and the power state behind it. */
interface ReadVm {
  state: InstanceState;
  power: AzurePowerState;
}

/**
 * The instance action port over Azure VMs: a Stop **deallocates** (a VM stopped but still
 * allocated keeps billing compute; only a deallocated one stops). A stop reads the VM and its power
 * state first and deallocates only a running (or stopped but allocated), unprotected one, so a
 * repeated stop sends nothing; stops of one VM are serialised in this process, so two concurrent
 * clicks send one deallocation. It waits for ARM's long-running operation to finish. Azure has no
 * dry run for deallocate: a dry run reads the VM (the read permission checked) and stops nothing.
 */
export class AzureVmPort implements InstanceActionPort {
  readonly provider = 'azure';
  private readonly stops = new KeyedLock();

  constructor(private readonly options: AzureVmPortOptions) {}

  async describe(ids: string[]): Promise<InstanceState[]> {
    const read = new Map<string, InstanceState>();
    for (const id of new Set(ids)) read.set(id, (await this.read(id)).state);
    return ids.map((id) => read.get(id)!);
  }

  stop(id: string, options: { dryRun: boolean }): Promise<StopResult> {
    return this.stops.run(vmKey(id), () => this.stopNow(id, options.dryRun));
  }

  private async stopNow(id: string, dryRun: boolean): Promise<StopResult> {
    const { state, power } = await this.read(id);
    const decided = decideStop(state);
    if (decided) return decided;
    const allocated =
      power === 'stopped' || power === 'stopping' ? ` (its OS was ${power} but the VM still allocated, billing compute)` : '';
    if (dryRun)
      return {
        id,
        outcome: 'would-stop',
        previousState: state.state,
        detail: `burnrate read ${id} and would deallocate it${allocated}; nothing was deallocated (dry run: Azure has no dry run of its own for deallocate).`,
      };
    const vm = this.vmOf(id);
    try {
      const poller = this.options
        .clientFor(vm.subscriptionId)
        .virtualMachines.deallocate(
          vm.resourceGroup,
          vm.name,
          this.options.pollIntervalMs ? { updateIntervalInMs: this.options.pollIntervalMs } : {},
        );
      await poller.pollUntilDone();
    } catch (error) {
      throw explainAzureError(error, AZURE_VM_DEALLOCATE, id);
    }
    return {
      id,
      outcome: 'stopped',
      previousState: state.state,
      detail: `Deallocated ${vm.name}${allocated}: it no longer bills compute; its disks stay (and bill) and it can be started again.`,
    };
  }

  private async read(id: string): Promise<ReadVm> {
    const vm = this.vmOf(id);
    try {
      const model = await this.options
        .clientFor(vm.subscriptionId)
        .virtualMachines.get(vm.resourceGroup, vm.name, { expand: 'instanceView' });
      const power = powerStateOf(model.instanceView?.statuses);
      return { state: { id, state: lifecycleOf(power), tags: { ...(model.tags ?? {}) } }, power };
    } catch (error) {
      throw explainAzureError(error, AZURE_VM_READ, id);
    }
  }

  private vmOf(id: string): ArmVmId {
    const vm = parseArmVmId(id);
    if (!vm)
      throw new BurnrateError(
        'burnrate_azure_vm_not_found',
        `Not an Azure VM resource id: ${id}`,
        'An Azure VM is named /subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Compute/virtualMachines/<name>.',
        1,
      );
    return vm;
  }
}
