import type { Provider } from '../provider.js';
import { GCE_OPERATION, GCE_GET, GCE_GPU_PERMISSIONS, GCE_SPOT_PERMISSIONS, GCE_STOP } from './compute/gce-permissions.js';
import { gceConsoleLink, isGceVm } from './compute/gce-console-link.js';
import { GCP_SOURCE_PERMISSIONS } from './gcp-permissions.js';
import { gcpSources } from './gcp-sources.js';

/** Google Cloud: the BigQuery billing export and Cloud Billing budgets; the Compute Engine GPU inventory, its stops and spot migrations; the Ops Agent's GPU metrics in Cloud Monitoring. */
export const gcp: Provider = {
  id: 'gcp',
  configTypes: { sources: ['gcp'], metrics: ['cloud-monitoring'], inventory: ['gce'] },
  // A stop's and a spot migration's permissions are declared here with the roles that grant them (Google's grant commands need a role).
  permissions: [...GCP_SOURCE_PERMISSIONS, ...GCE_GPU_PERMISSIONS, GCE_GET, GCE_STOP, GCE_OPERATION, ...GCE_SPOT_PERMISSIONS],
  sources: (entry, context) => {
    if (entry.type !== 'gcp') throw new Error(`not a Google Cloud source: ${entry.type}`);
    return gcpSources(entry, context);
  },
  consoleLink: gceConsoleLink,
  ownsMachine: isGceVm,
  gpu: async (config) => (await import('./gcp-gpu.js')).gcpGpu(config),
};
