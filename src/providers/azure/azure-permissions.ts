import type { PermissionNeed } from '../../ports/permission-need.js';

/** Azure RBAC actions: reading VMs (their model and their power state), deallocating one, reading its GPU metrics. */
export const AZURE_VM_READ = 'Microsoft.Compute/virtualMachines/read';
export const AZURE_VM_INSTANCE_VIEW = 'Microsoft.Compute/virtualMachines/instanceView/read';
export const AZURE_VM_DEALLOCATE = 'Microsoft.Compute/virtualMachines/deallocate/action';
export const AZURE_METRICS_READ = 'Microsoft.Insights/metrics/read';
export const AZURE_VMSS_READ = 'Microsoft.Compute/virtualMachineScaleSets/read';
export const AZURE_VMSS_WRITE = 'Microsoft.Compute/virtualMachineScaleSets/write';

/** What a spot migration and its revert call with: a scale set's Spot Priority Mix read, then changed. */
export const AZURE_SPOT_PERMISSIONS = [AZURE_VMSS_READ, AZURE_VMSS_WRITE] as const;

/** What a Stop calls with: it reads the VM and its power state first, then deallocates it. */
export const AZURE_STOP_PERMISSIONS = [AZURE_VM_READ, AZURE_VM_INSTANCE_VIEW, AZURE_VM_DEALLOCATE] as const;

const inventory = (permission: string, usedBy: string): PermissionNeed => ({
  cloud: 'azure',
  permission,
  resource: '/subscriptions/SUBSCRIPTION_ID',
  usedBy,
  when: 'with an azure GPU inventory',
});

/** What the inventory reads with, on each subscription it lists. */
export const AZURE_INVENTORY_PERMISSIONS: readonly PermissionNeed[] = [
  inventory(AZURE_VM_READ, 'GPU inventory (Azure VMs: size, region, tags, priority)'),
  inventory(AZURE_VM_INSTANCE_VIEW, 'GPU inventory (Azure VMs: power state)'),
];

/** What the Azure Monitor GPU metrics read with: the metrics of each subscription's GPU VMs, which it lists as the inventory does. */
export const AZURE_METRICS_PERMISSIONS: readonly PermissionNeed[] = [AZURE_METRICS_READ, AZURE_VM_READ, AZURE_VM_INSTANCE_VIEW].map(
  (permission) => ({
    cloud: 'azure',
    permission,
    resource: '/subscriptions/SUBSCRIPTION_ID',
    usedBy:
      permission === AZURE_METRICS_READ ? 'GPU metrics (Azure Monitor custom metrics of each GPU VM)' : 'GPU metrics (which VMs to read)',
    when: 'with azure-monitor GPU metrics',
  }),
);
