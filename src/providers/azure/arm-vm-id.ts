/**
 * An Azure VM's resource id, `/subscriptions/<sub>/resourceGroups/<group>/providers/Microsoft.Compute/virtualMachines/<name>`.
 * Azure compares resource ids without case, and the bill writes them in lower case where ARM keeps
 * the case a group was created with: burnrate keys a VM by its id in lower case, so the inventory,
 * the bill and a button's payload name it alike.
 */
export interface ArmVmId {
  subscriptionId: string;
  resourceGroup: string;
  name: string;
}

const VM_ID = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachines\/([^/]+)$/i;

/** The parts of a VM's resource id; undefined when the text is not one. */
export function parseArmVmId(id: string): ArmVmId | undefined {
  const match = VM_ID.exec(id.trim());
  if (!match) return undefined;
  return { subscriptionId: match[1]!.toLowerCase(), resourceGroup: match[2]!, name: match[3]! };
}

/** The key burnrate knows a VM by: its resource id in lower case. */
export function vmKey(id: string): string {
  return id.trim().toLowerCase();
}

const SCALE_SET_ID =
  /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/virtualMachineScaleSets\/([^/]+)$/i;

/** The parts of a scale set's resource id (`.../providers/Microsoft.Compute/virtualMachineScaleSets/<name>`); undefined when the text is not one. */
export function parseArmScaleSetId(id: string): ArmVmId | undefined {
  const match = SCALE_SET_ID.exec(id.trim());
  if (!match) return undefined;
  return { subscriptionId: match[1]!.toLowerCase(), resourceGroup: match[2]!, name: match[3]! };
}
