import { capacityOf, workloadKey, type ClusterInventory, type GpuNode } from '../../domain/kubernetes.js';
import type { KubeUsageRow } from '../../domain/kube-usage.js';

export interface UsageSample {
  inventory: ClusterInventory;
  /** The interval the sample stands for: from the previous sample (capped) to now, seconds since the epoch. */
  from: number;
  to: number;
  /** The node's list price an hour (null: unpriced, its time is still counted). */
  nodeHourly(node: GpuNode): number | null;
  /** The team of a namespace, or null. */
  teamOf(namespace: string): string | null;
}

/**
 * What one sample of a cluster adds: for each GPU node, each workload's share of its GPUs (GPUs
 * requested by its running pods there over the node's GPUs, MIG slices at their share) and the
 * unrequested rest, times the hours of the interval, split at UTC midnight. A node's rows for an
 * interval add up to the interval's hours exactly: the node's cost is split with nothing left over.
 * Pure.
 */
export function usageRows(sample: UsageSample): KubeUsageRow[] {
  const rows: KubeUsageRow[] = [];
  const days = splitByDay(sample.from, sample.to);
  for (const node of sample.inventory.nodes) {
    const capacity = capacityOf(node);
    if (capacity <= 0) continue;
    const held = new Map<string, { namespace: string; gpus: number }>();
    for (const pod of sample.inventory.pods) {
      if (pod.node !== node.name) continue;
      const key = workloadKey(pod.workload);
      const entry = held.get(key) ?? { namespace: pod.namespace, gpus: 0 };
      entry.gpus += pod.gpus;
      held.set(key, entry);
    }
    const requested = Math.min(
      capacity,
      [...held.values()].reduce((sum, h) => sum + h.gpus, 0),
    );
    const shares = [
      ...[...held].map(([workload, h]) => ({ workload, namespace: h.namespace, share: h.gpus / capacity })),
      ...(requested < capacity ? [{ workload: '', namespace: '', share: (capacity - requested) / capacity }] : []),
    ];
    for (const { day, hours } of days)
      for (const { workload, namespace, share } of shares)
        rows.push({
          day,
          cluster: sample.inventory.cluster,
          node: node.name,
          nodeInstanceId: node.instanceId,
          nodeHourly: sample.nodeHourly(node) ?? 0,
          namespace,
          workload,
          team: namespace ? sample.teamOf(namespace) : null,
          nodeHours: share * hours,
        });
  }
  return rows;
}

/** [from, to) as hours per UTC day. */
function splitByDay(from: number, to: number): { day: string; hours: number }[] {
  const out: { day: string; hours: number }[] = [];
  for (let start = from; start < to; ) {
    const midnight = (Math.floor(start / 86_400) + 1) * 86_400;
    const end = Math.min(to, midnight);
    out.push({ day: new Date(start * 1000).toISOString().slice(0, 10), hours: (end - start) / 3600 });
    start = end;
  }
  return out;
}
