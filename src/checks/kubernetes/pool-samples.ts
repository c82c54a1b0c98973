import { capacityOf, type ClusterInventory, type GpuNode } from '../../domain/kubernetes.js';
import type { PoolManager, PoolSample } from '../../domain/kube-usage.js';

/** The pool of a node outside any node pool (a hand-joined node: nothing scales it). */
export const NO_POOL = '(no node pool)';

/**
 * Each GPU node pool of a cluster at one sample: its nodes, the GPUs they offer and the GPUs
 * running pods request there, and the nodes' list price an hour together. Pure.
 */
export function poolSamples(
  inventory: ClusterInventory,
  at: Date,
  hours: number,
  nodeHourly: (node: GpuNode) => number | null,
): PoolSample[] {
  const requestedOn = new Map<string, number>();
  for (const pod of inventory.pods) if (pod.node) requestedOn.set(pod.node, (requestedOn.get(pod.node) ?? 0) + pod.gpus);
  const pools = new Map<string, PoolSample>();
  for (const node of inventory.nodes) {
    const pool = node.nodePool ?? NO_POOL;
    const sample = pools.get(pool) ?? {
      cluster: inventory.cluster,
      pool,
      manager: managerOf(node),
      at,
      hours,
      nodes: 0,
      gpus: 0,
      requested: 0,
      hourly: 0,
    };
    const capacity = capacityOf(node);
    sample.nodes += 1;
    sample.gpus += capacity;
    sample.requested += Math.min(capacity, requestedOn.get(node.name) ?? 0);
    sample.hourly += nodeHourly(node) ?? 0;
    pools.set(pool, sample);
  }
  return [...pools.values()];
}

function managerOf(node: GpuNode): PoolManager | null {
  const labels = node.labels;
  if (labels['karpenter.sh/nodepool'] || labels['karpenter.sh/provisioner-name']) return 'karpenter';
  if (labels['eks.amazonaws.com/nodegroup']) return 'eks';
  if (labels['cloud.google.com/gke-nodepool']) return 'gke';
  if (labels['kubernetes.azure.com/agentpool'] || labels.agentpool) return 'aks';
  return null;
}
