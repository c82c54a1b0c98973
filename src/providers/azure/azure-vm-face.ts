import type { ConsoleTarget, InstanceLink } from '../../domain/instance-links.js';
import type { StopWording } from '../../domain/stop-wording.js';

const VM_ID = /^\/subscriptions\/[^/?#]+\/resourcegroups\/[^/?#]+\/providers\/microsoft\.compute\/virtualmachines\/[^/?#.]+$/i;

/** An Azure VM by its resource id's shape: what the bill and the inventory name one by. */
export function isAzureVm(id: string): boolean {
  return VM_ID.test(id);
}

/** An Azure VM is named by its resource id, which is also the portal's address of it. */
export function azureConsoleLink(target: ConsoleTarget): InstanceLink | undefined {
  return isAzureVm(target.id)
    ? { label: 'Open in Azure portal', url: `https://portal.azure.com/#resource${target.id}/overview` }
    : undefined;
}

/** Stop deallocates an Azure VM (azure-vm-port.ts): only a deallocated VM stops billing compute. */
export function azureStopWording(instanceId: string): StopWording | undefined {
  return isAzureVm(instanceId)
    ? { verb: 'deallocates Azure VM', why: 'a VM stopped but still allocated keeps billing compute' }
    : undefined;
}
