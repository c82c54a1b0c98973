import type { ComputeManagementClient, VirtualMachineScaleSet } from '@azure/arm-compute';
import { BurnrateError } from '../../domain/errors.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { launchTemplateOf, type SpotChange, type SpotMigrationPort } from '../../ports/spot-port.js';
import { KeyedLock } from '../keyed-lock.js';
import { parseArmScaleSetId, type ArmVmId } from './arm-vm-id.js';
import { explainAzureError } from './azure-errors.js';
import { AZURE_VMSS_READ, AZURE_VMSS_WRITE } from './azure-permissions.js';

export interface AzureSpotPortOptions {
  /** The Compute client of a subscription (one per subscription, shared with the inventory and the stop port). */
  clientFor: (subscriptionId: string) => ComputeManagementClient;
  /** How often an update's operation is polled when ARM does not say (Retry-After). */
  pollIntervalMs?: number;
}

/** Where an Azure spot migration is recorded: one port serves every subscription. */
export const AZURE_SPOT_PLACE = 'azure';

/** A scale set's Spot Priority Mix, written as burnrate records it: `<base regular count>/<regular % above base>`. */
interface Mix {
  base: number;
  percent: number;
}
const ALL_SPOT: Mix = { base: 0, percent: 0 };
const mixText = (mix: Mix) => `${mix.base}/${mix.percent}`;

/**
 * Moves an Azure scale set's next VMs to Spot and back. Azure fixes a VM's priority, and a scale
 * set's, when it is created (changing Regular to Spot is refused), so what burnrate changes is a
 * Flexible scale set's Spot Priority Mix: a scale set made with Spot priority (evicted VMs
 * deallocated) and a mix of regular VMs; moving to Spot sets the mix to no regular VMs (and the
 * Spot price cap to -1: evicted for capacity only, never for price), the revert restores the mix
 * it had. The VMs running keep their priority; the scale set's next VMs follow the mix. A
 * standalone VM, or a scale set without a mix, is refused before anyone approves, with what to
 * change: burnrate never deletes and recreates a VM. Calls for one scale set are serialised in
 * this process; a dry run only reads.
 */
export class AzureSpotPort implements SpotMigrationPort {
  readonly provider = 'azure';
  readonly place = AZURE_SPOT_PLACE;
  private readonly locks = new KeyedLock();

  constructor(private readonly options: AzureSpotPortOptions) {}

  async unsupported(instance: GpuInstance): Promise<BurnrateError | undefined> {
    const ref = launchTemplateOf(instance.tags);
    const label = instance.name ?? instance.instanceId;
    if (!ref || !parseArmScaleSetId(ref))
      return new BurnrateError(
        'burnrate_azure_spot_standalone',
        `Not approved: ${label} is a standalone Azure VM, and Azure cannot change a VM's priority from Regular to Spot; burnrate would have to delete and recreate it, which it never does.`,
        'Run the workload in a Flexible scale set created with Spot priority and a Spot Priority Mix (docs/azure.md); burnrate then moves its next VMs to Spot.',
      );
    const set = await this.read(scaleSetOf(ref));
    return refusalOf(set, label);
  }

  moveToSpot(ref: string, options: { dryRun: boolean; description: string }): Promise<SpotChange> {
    return this.locks.run(ref.toLowerCase(), async () => {
      const id = scaleSetOf(ref);
      const set = await this.read(id);
      const refused = refusalOf(set, id.name);
      if (refused) throw refused;
      const previous = mixOf(set);
      if (mixText(previous) === mixText(ALL_SPOT) && set.virtualMachineProfile?.billingProfile?.maxPrice === -1)
        return unchanged('already-spot', ref, previous, `${id.name} already makes only Spot VMs; nothing changed.`);
      if (options.dryRun)
        return unchanged(
          'would-migrate',
          ref,
          previous,
          `${id.name} would make its next VMs Spot (its mix ${mixText(previous)} set to 0/0); nothing changed (dry run: Azure has none, so burnrate only read the scale set).`,
        );
      await this.update(id, ALL_SPOT, true);
      return {
        outcome: 'migrated',
        launchTemplate: ref,
        previousVersion: mixText(previous),
        currentVersion: mixText(ALL_SPOT),
        detail: `${id.name} makes its next VMs Spot now (evicted ones deallocated, never for price; its regular mix was ${mixText(previous)}); the VMs running keep going until the scale set replaces them.`,
      };
    });
  }

  revertToOnDemand(ref: string, restore: string, options: { dryRun: boolean }): Promise<SpotChange> {
    return this.locks.run(ref.toLowerCase(), async () => {
      const id = scaleSetOf(ref);
      const wanted = parseMix(restore);
      const current = mixOf(await this.read(id));
      if (mixText(current) === mixText(wanted))
        return unchanged('already-on-demand', ref, current, `${id.name} already has the regular mix ${restore}; nothing changed.`);
      if (options.dryRun)
        return unchanged(
          'would-revert',
          ref,
          current,
          `${id.name} would have its regular mix ${restore} again; nothing changed (dry run).`,
        );
      await this.update(id, wanted, false);
      return {
        outcome: 'reverted',
        launchTemplate: ref,
        previousVersion: mixText(current),
        currentVersion: restore,
        detail: `${id.name} makes its next VMs with its regular mix ${restore} again (was ${mixText(current)}).`,
      };
    });
  }

  private async read(id: ArmVmId): Promise<VirtualMachineScaleSet> {
    try {
      return await this.options.clientFor(id.subscriptionId).virtualMachineScaleSets.get(id.resourceGroup, id.name);
    } catch (error) {
      throw explainAzureError(error, AZURE_VMSS_READ, `scale set ${id.name}`);
    }
  }

  private async update(id: ArmVmId, mix: Mix, uncapped: boolean): Promise<void> {
    try {
      await this.options
        .clientFor(id.subscriptionId)
        .virtualMachineScaleSets.update(
          id.resourceGroup,
          id.name,
          {
            priorityMixPolicy: { baseRegularPriorityCount: mix.base, regularPriorityPercentageAboveBase: mix.percent },
            ...(uncapped ? { virtualMachineProfile: { billingProfile: { maxPrice: -1 } } } : {}),
          },
          this.options.pollIntervalMs ? { updateIntervalInMs: this.options.pollIntervalMs } : {},
        )
        .pollUntilDone();
    } catch (error) {
      throw explainAzureError(error, AZURE_VMSS_WRITE, `scale set ${id.name}`);
    }
  }
}

/** Why burnrate cannot move this scale set's next VMs to Spot; undefined when it can. */
function refusalOf(set: VirtualMachineScaleSet, label: string): BurnrateError | undefined {
  const profile = set.virtualMachineProfile;
  const hint =
    'Create the scale set with Flexible orchestration, Spot priority, eviction policy Deallocate and a Spot Priority Mix (docs/azure.md): Azure fixes a scale set’s priority when it is created.';
  if (set.orchestrationMode !== 'Flexible' || profile?.priority !== 'Spot' || !set.priorityMixPolicy)
    return new BurnrateError(
      'burnrate_azure_spot_no_mix',
      `Not approved: ${label}'s scale set ${set.name ?? ''} has no Spot Priority Mix to change (${set.orchestrationMode ?? 'Uniform'} orchestration, ${profile?.priority ?? 'Regular'} priority), and Azure cannot change a scale set's priority after it is made.`,
      hint,
    );
  if (profile.evictionPolicy !== 'Deallocate')
    return new BurnrateError(
      'burnrate_azure_spot_evicts_by_delete',
      `Not approved: ${label}'s scale set ${set.name ?? ''} deletes its Spot VMs when Azure evicts them (eviction policy ${profile.evictionPolicy ?? 'unset'}), disks and all.`,
      hint,
    );
  return undefined;
}

function scaleSetOf(ref: string): ArmVmId {
  const id = parseArmScaleSetId(ref);
  if (!id)
    throw new BurnrateError(
      'burnrate_azure_scale_set_invalid',
      `Not an Azure scale set: ${ref}`,
      'A scale set is named /subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Compute/virtualMachineScaleSets/<name>.',
      2,
    );
  return id;
}

function mixOf(set: VirtualMachineScaleSet): Mix {
  return {
    base: set.priorityMixPolicy?.baseRegularPriorityCount ?? 0,
    percent: set.priorityMixPolicy?.regularPriorityPercentageAboveBase ?? 0,
  };
}

function parseMix(text: string): Mix {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match)
    throw new BurnrateError(
      'burnrate_azure_spot_record_invalid',
      `The recorded Spot Priority Mix ${text} is not <base>/<percent>.`,
      'Set the scale set’s mix in the portal.',
      1,
    );
  return { base: Number(match[1]), percent: Number(match[2]) };
}

function unchanged(outcome: SpotChange['outcome'], ref: string, mix: Mix, detail: string): SpotChange {
  return { outcome, launchTemplate: ref, previousVersion: mixText(mix), currentVersion: mixText(mix), detail };
}
