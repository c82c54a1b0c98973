import type { Provider } from '../provider.js';
import { GCP_SOURCE_PERMISSIONS } from './gcp-permissions.js';
import { gcpSources } from './gcp-sources.js';

/** Google Cloud: the BigQuery billing export and Cloud Billing budgets. */
export const gcp: Provider = {
  id: 'gcp',
  configTypes: { sources: ['gcp'] },
  permissions: GCP_SOURCE_PERMISSIONS,
  sources: (entry, context) => {
    if (entry.type !== 'gcp') throw new Error(`not a Google Cloud source: ${entry.type}`);
    return gcpSources(entry, context);
  },
};
