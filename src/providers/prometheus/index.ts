import type { Provider } from '../provider.js';

/** Prometheus: DCGM GPU metrics and node_exporter host peaks. */
export const prometheus: Provider = {
  id: 'prometheus',
  configTypes: { metrics: ['prometheus'] },
  gpu: async (_config, tokens) => (await import('./prometheus-gpu.js')).prometheusGpu(tokens),
};
