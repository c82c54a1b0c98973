import type { Provider } from '../provider.js';
import { KUBE_ACTION_RULES, KUBE_READ_RULES } from './kube-permissions.js';

/** Kubernetes: clusters' GPU workloads priced at their share of their nodes; Stop, Resume and Keep of workloads. */
export const kubernetes: Provider = {
  id: 'kubernetes',
  configTypes: { inventory: ['kubernetes'] },
  workloads: true,
  kubeRules: [...KUBE_READ_RULES, ...KUBE_ACTION_RULES],
  gpu: async (config) => (await import('./kubernetes-gpu.js')).kubernetesGpu(config),
};
