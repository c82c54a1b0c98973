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
    // A cluster whose layout is known to have run for days (the demo's) is counted back over them on its first sample.
    const since = counts ? last : last === null && cluster.historyDays ? new Date(now.getTime() - cluster.historyDays * 86_400_000) : null;
    const rows = since ? usageRows({ ...cluster, from: since.getTime() / 1000, to: now.getTime() / 1000 }) : [];
    const pools = since
      ? hourlySteps(since, now).flatMap(({ at, hours }) => poolSamples(cluster.inventory, at, hours, cluster.nodeHourly))
      : poolSamples(cluster.inventory, now, 0, cluster.nodeHourly);
    await deps.store.kubeUsage.record(name, now, rows, pools);
    recorded += rows.length;
  }
  return recorded;
}

/** [from, to) in steps of at most an hour, each ending at `at`: one pool sample each. */
function hourlySteps(from: Date, to: Date): { at: Date; hours: number }[] {
  const steps: { at: Date; hours: number }[] = [];
  for (let start = from.getTime(); start < to.getTime(); start += 3_600_000) {
    const end = Math.min(to.getTime(), start + 3_600_000);
    steps.push({ at: new Date(end), hours: (end - start) / 3_600_000 });
  }
  return steps;
}
