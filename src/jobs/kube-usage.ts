import { poolSamples } from '../checks/kubernetes/pool-samples.js';
import { usageRows } from '../checks/kubernetes/usage-rows.js';
import type { Deps } from '../deps.js';

/** A gap between two samples longer than this was not seen (burnrate down, a cluster unreachable): it is not counted. */
export const MAX_SAMPLE_GAP_MS = 60 * 60_000;

/**
 * One usage sample of each configured cluster: what each workload held of each GPU node since the
 * previous sample, and each node pool's nodes and GPUs now, recorded with the sample time in one
 * transaction. The first sample of a
 * cluster, and one after a gap, only sets the clock. A cluster served from its last good read is
 * not sampled (its time stays unseen). Returns the rows recorded.
 */
export async function sampleKubeUsage(deps: Deps): Promise<number> {
  const clusters = (await deps.gpu?.clusters?.()) ?? [];
  const now = deps.clock();
  let recorded = 0;
  for (const cluster of clusters.filter((c) => c.fresh)) {
    const name = cluster.inventory.cluster;
    const last = await deps.store.kubeUsage.lastSample(name);
    const counts = last !== null && now > last && now.getTime() - last.getTime() <= MAX_SAMPLE_GAP_MS;
    const rows = counts ? usageRows({ ...cluster, from: last.getTime() / 1000, to: now.getTime() / 1000 }) : [];
    const hours = counts ? (now.getTime() - last.getTime()) / 3_600_000 : 0;
    await deps.store.kubeUsage.record(name, now, rows, poolSamples(cluster.inventory, now, hours, cluster.nodeHourly));
    recorded += rows.length;
  }
  return recorded;
}
