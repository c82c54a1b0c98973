import { UNOBSERVED, UNREQUESTED, type KubeCostLine, type KubeUsageRow } from '../../domain/kube-usage.js';
import { roundCents } from '../review/allocate.js';

/** What the bill says one node cost one day (USD), and the hours it counted. */
export interface BilledNodeDay {
  nodeInstanceId: string;
  day: string;
  cost: number;
  hours: number | null;
}

/**
 * Each workload's cost over the period, from the sampled usage and the bill:
 *   1. a node-day's cost is what the bill charged its instance that day; where the bill does not
 *      cover it (yet), its list price × the hours the samples saw it;
 *   2. the cost is split over the node-day's rows by their node-hours; where the bill counted
 *      more hours than the samples saw, the rest is UNOBSERVED, not anyone's;
 *   3. a workload's exact shares add up over days and nodes; the GPUs no pod requested are
 *      UNREQUESTED, the node's idle capacity;
 *   4. only then are the lines rounded to whole cents, once, by the largest remainder: rounding
 *      each node-day first would let a month of sub-cent roundings drift from the node bills.
 * Lines sum to the nodes' costs to the cent: each node's cost over the period rounded once (a
 * node's bill, or its list price × hours seen), then added. Pure.
 */
export function splitNodeCosts(usage: readonly KubeUsageRow[], billed: readonly BilledNodeDay[]): { lines: KubeCostLine[]; total: number } {
  const bill = new Map(billed.map((b) => [`${b.nodeInstanceId}|${b.day}`, b]));
  const nodeDays = new Map<string, KubeUsageRow[]>();
  for (const row of usage) {
    const key = `${row.cluster}|${row.node}|${row.day}`;
    nodeDays.set(key, [...(nodeDays.get(key) ?? []), row]);
  }
  const lines = new Map<string, KubeCostLine>();
  const exact = new Map<string, number>();
  const nodeCosts = new Map<string, number>();
  for (const rows of nodeDays.values()) {
    const first = rows[0]!;
    const seen = rows.reduce((sum, r) => sum + r.nodeHours, 0);
    const billedDay = first.nodeInstanceId ? bill.get(`${first.nodeInstanceId}|${first.day}`) : undefined;
    const cost = billedDay ? billedDay.cost : first.nodeHourly * seen;
    const weights = new Map<string, number>();
    for (const r of rows) weights.set(keyOf(r), (weights.get(keyOf(r)) ?? 0) + r.nodeHours);
    const teams = new Map(rows.map((r) => [keyOf(r), r.team]));
    const unobserved = billedDay?.hours ? Math.max(0, billedDay.hours - seen) : 0;
    if (unobserved > 0) weights.set(`${first.cluster}|${UNOBSERVED}|${UNOBSERVED}`, unobserved);
    const hours = [...weights.values()].reduce((a, b) => a + b, 0);
    for (const [key, weight] of weights) {
      if (!lines.has(key)) {
        const [cluster, namespace, workload] = key.split('|') as [string, string, string];
        lines.set(key, { cluster, namespace, workload, team: teams.get(key) ?? null, cost: 0 });
      }
      exact.set(key, (exact.get(key) ?? 0) + (hours > 0 ? (cost * weight) / hours : cost / weights.size));
    }
    const node = `${first.cluster}|${first.node}`;
    nodeCosts.set(node, (nodeCosts.get(node) ?? 0) + cost);
  }
  let totalCents = 0;
  for (const cost of nodeCosts.values()) totalCents += Math.round(Number((cost * 100).toPrecision(12)));
  for (const [key, amount] of roundCents(exact, totalCents)) lines.get(key)!.cost = amount;
  return { lines: [...lines.values()].sort((a, b) => b.cost - a.cost || a.workload.localeCompare(b.workload)), total: totalCents / 100 };
}

/** Rows of one workload across nodes and days share a line; a node's unrequested GPUs are their own line per cluster. */
function keyOf(row: KubeUsageRow): string {
  return row.workload === '' ? `${row.cluster}|${UNREQUESTED}|${UNREQUESTED}` : `${row.cluster}|${row.namespace}|${row.workload}`;
}
