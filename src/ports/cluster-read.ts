import type { ClusterInventory, GpuNode } from '../domain/kubernetes.js';

/** One read of a configured cluster, with what pricing and team mapping need to know of it. */
export interface ClusterRead {
  inventory: ClusterInventory;
  /** False when the cluster did not answer and `inventory` is the last good read. */
  fresh: boolean;
  /** Why it is not fresh: the last attempt's error, and when `inventory` was read (null: never, so it is empty). */
  unanswered?: { error: string; lastGoodAt: Date | null };
  /** The team of a namespace (teams[].gpu.namespaces, else its team label), or null. */
  teamOf(namespace: string): string | null;
  /** The node's list price an hour (spot or on demand as it runs); null when unpriced. */
  nodeHourly(node: GpuNode): number | null;
  /** Days its present layout has run (the demo cluster): its first sample counts them, hour by hour. */
  historyDays?: number;
}
