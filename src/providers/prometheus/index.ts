import type { Provider } from '../provider.js';

/** Prometheus: DCGM GPU metrics and node_exporter host peaks. */
export const prometheus: Provider = {
  id: 'prometheus',
  configTypes: { metrics: ['prometheus'] },
  permissions: [
    {
      cloud: 'aws',
      permission: 'aps:QueryMetrics',
      resource: '*',
      usedBy: 'GPU metrics (Amazon Managed Service for Prometheus)',
      when: 'with a prometheus source signed with sigv4',
    },
    {
      cloud: 'gcp',
      permission: 'monitoring.timeSeries.list',
      role: 'roles/monitoring.viewer',
      resource: 'the project in the source url',
      scope: 'project',
      usedBy: 'GPU metrics (Google Cloud Managed Service for Prometheus)',
      when: 'with a prometheus source with google: true',
    },
  ],
  gpu: async (_config, tokens) => (await import('./prometheus-gpu.js')).prometheusGpu(tokens),
};
