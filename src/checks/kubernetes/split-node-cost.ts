import { UNOBSERVED, UNREQUESTED, type KubeCostLine, type KubeUsageRow } from '../../domain/kube-usage.js';
import { allocateCents, cents } from '../review/allocate.js';

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
 *   2. the cost is split over the node-day's rows by their node-hours, in whole cents by the
 *      largest remainder, so the parts add up to the node's cost exactly; where the bill counted
 *      more hours than the samples saw, the rest is UNOBSERVED, not anyone's;
 *   3. a workload's lines add up over days and nodes; the GPUs no pod requested are UNREQUESTED,
 *      the node's idle capacity.
 * Lines sum to the nodes' costs to the cent. Pure.
 */
export function splitNodeCosts(usage: readonly KubeUsageRow[], billed: readonly BilledNodeDay[]): { lines: KubeCostLine[]; total: number } {
  const bill = new Map(billed.map((b) => [`${b.nodeInstanceId}|${b.day}`, b]));
  const nodeDays = new Map<string, KubeUsageRow[]>();
  for (const row of usage) {
    const key = `${row.cluster}|${row.node}|${row.day}`;
    nodeDays.set(key, [...(nodeDays.get(key) ?? []), row]);
  }
  const lines = new Map<string, KubeCostLine>();
  let total = 0;
  for (const rows of nodeDays.values()) {
    const first = rows[0]!;
    const seen = rows.reduce((sum, r) => sum + r.nodeHours, 0);
    const billedDay = first.nodeInstanceId ? bill.get(`${first.nodeInstanceId}|${first.day}`) : undefined;
    const cost = cents(billedDay ? billedDay.cost : first.nodeHourly * seen);
    const weights = new Map(rows.map((r) => [keyOf(r), r.nodeHours]));
    const teams = new Map(rows.map((r) => [keyOf(r), r.team]));
    const unobserved = billedDay?.hours ? Math.max(0, billedDay.hours - seen) : 0;
    if (unobserved > 0) weights.set(`${first.cluster}|${UNOBSERVED}|${UNOBSERVED}`, unobserved);
    for (const [key, amount] of allocateCents(cost, weights)) {
      const [cluster, namespace, workload] = key.split('|') as [string, string, string];
      const line = lines.get(key) ?? { cluster, namespace, workload, team: teams.get(key) ?? null, cost: 0 };
      line.cost = cents(line.cost + amount);
      lines.set(key, line);
    }
    total = cents(total + cost);
  }
  return { lines: [...lines.values()].sort((a, b) => b.cost - a.cost || a.workload.localeCompare(b.workload)), total };
}

/** Rows of one workload across nodes and days share a line; a node's unrequested GPUs are their own line per cluster. */
function keyOf(row: KubeUsageRow): string {
  return row.workload === '' ? `${row.cluster}|${UNREQUESTED}|${UNREQUESTED}` : `${row.cluster}|${row.namespace}|${row.workload}`;
}
