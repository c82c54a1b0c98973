import type { KubeCostBasis, KubeCostLine, KubeUsageRow } from '../../domain/kube-usage.js';
import { roundCents } from '../review/allocate.js';
import { shareNodeDays, type BilledNodeDay, type BilledPodDay } from './node-day-shares.js';

export type { BilledNodeDay, BilledPodDay } from './node-day-shares.js';

/**
 * Each workload's cost over the period, from the sampled usage and the bill:
 *   1. each node-day's cost is shared between workloads by shareNodeDays (the bill's own pod split
 *      where it has one, else burnrate's estimate by the GPU-hours sampled);
 *   2. a workload's exact amounts add up over days and nodes; the GPUs no pod requested are
 *      UNREQUESTED, the node's idle capacity;
 *   3. only then are the lines rounded to whole cents, once, by the largest remainder: rounding
 *      each node-day first would let a month of sub-cent roundings drift from the node bills.
 * Lines sum to the nodes' costs to the cent: each node's cost over the period rounded once (a
 * node's bill, or its list price × hours seen), then added. Each line says its basis. Pure.
 */
export function splitNodeCosts(
  usage: readonly KubeUsageRow[],
  billed: readonly BilledNodeDay[],
  pods: readonly BilledPodDay[] = [],
): { lines: KubeCostLine[]; total: number } {
  const bases = new Map<string, KubeCostBasis>();
  const lines = new Map<string, KubeCostLine>();
  const exact = new Map<string, number>();
  const nodeCosts = new Map<string, number>();
  for (const { cluster, node, cost, shares, basis } of shareNodeDays(usage, billed, pods)) {
    for (const share of shares) {
      if (!lines.has(share.key))
        lines.set(share.key, {
          cluster: share.cluster,
          namespace: share.namespace,
          workload: share.workload,
          team: share.team,
          cost: 0,
          basis,
        });
      exact.set(share.key, (exact.get(share.key) ?? 0) + cost * share.fraction);
      const was = bases.get(share.key);
      bases.set(share.key, was === undefined || was === basis ? basis : 'mixed');
    }
    nodeCosts.set(`${cluster}|${node}`, (nodeCosts.get(`${cluster}|${node}`) ?? 0) + cost);
  }
  let totalCents = 0;
  for (const cost of nodeCosts.values()) totalCents += Math.round(Number((cost * 100).toPrecision(12)));
  for (const [key, amount] of roundCents(exact, totalCents)) Object.assign(lines.get(key)!, { cost: amount, basis: bases.get(key)! });
  return { lines: [...lines.values()].sort((a, b) => b.cost - a.cost || a.workload.localeCompare(b.workload)), total: totalCents / 100 };
}
