import type { Provider } from '../provider.js';
import {
  AZURE_INVENTORY_PERMISSIONS,
  AZURE_METRICS_PERMISSIONS,
  AZURE_SPOT_PERMISSIONS,
  AZURE_STOP_PERMISSIONS,
} from './azure-permissions.js';
import { azureConsoleLink, azureStopWording, isAzureVm } from './azure-vm-face.js';

/** Azure: the N-series VM inventory, its stops (deallocation), spot migrations of scale sets and the GPU metrics VMs publish to Azure Monitor. */
export const azure: Provider = {
  id: 'azure',
  configTypes: { inventory: ['azure'], metrics: ['azure-monitor'] },
  permissions: [...AZURE_INVENTORY_PERMISSIONS, ...AZURE_METRICS_PERMISSIONS],
  portPermissions: { instances: AZURE_STOP_PERMISSIONS, spot: AZURE_SPOT_PERMISSIONS },
  consoleLink: azureConsoleLink,
  ownsMachine: isAzureVm,
  stopWording: azureStopWording,
  gpu: async (config) => (await import('./azure-gpu.js')).azureGpu(config),
};
