import { UNOBSERVED, UNREQUESTED, type KubeCostBasis, type KubeCostLine, type KubeUsageRow } from '../../domain/kube-usage.js';
import { roundCents } from '../review/allocate.js';

/** What the bill says one node cost one day (USD), and the hours it counted. */
export interface BilledNodeDay {
  nodeInstanceId: string;
  day: string;
  cost: number;
  hours: number | null;
}

/** What the bill's own pod split charged one pod on one node one day (USD). */
export interface BilledPodDay {
  nodeInstanceId: string;
  day: string;
  namespace: string;
  pod: string;
  cost: number;
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
 * Where the bill splits a node-day over its pods itself (AWS split cost allocation data: `pods`),
 * that split is the workloads' cost instead of steps 1-2: each pod's amount goes to the workload
 * whose name its own begins with (a Deployment's pods are `<name>-<hash>-<id>`, a StatefulSet's
 * `<name>-<n>`), and what the bill charged the node beyond its pods is UNREQUESTED.
 * Lines sum to the nodes' costs to the cent: each node's cost over the period rounded once (a
 * node's bill, or its list price × hours seen), then added. Each line says its basis. Pure.
 */
export function splitNodeCosts(
  usage: readonly KubeUsageRow[],
  billed: readonly BilledNodeDay[],
  pods: readonly BilledPodDay[] = [],
): { lines: KubeCostLine[]; total: number } {
  const bill = new Map(billed.map((b) => [`${b.nodeInstanceId}|${b.day}`, b]));
  const podSplits = new Map<string, BilledPodDay[]>();
  for (const p of pods) podSplits.set(`${p.nodeInstanceId}|${p.day}`, [...(podSplits.get(`${p.nodeInstanceId}|${p.day}`) ?? []), p]);
  const known = workloadsByNamespace(usage);
  const bases = new Map<string, KubeCostBasis>();
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
    const billedDay = first.nodeInstanceId ? bill.get(`${first.nodeInstanceId}|${first.day}`) : undefined;
    const split = first.nodeInstanceId ? podSplits.get(`${first.nodeInstanceId}|${first.day}`) : undefined;
    const { cost, amounts, teams, basis } = split ? billedPodSplit(first, split, billedDay, known) : estimatedSplit(rows, billedDay);
    for (const [key, amount] of amounts) {
      if (!lines.has(key)) {
        const [cluster, namespace, workload] = key.split('|') as [string, string, string];
        lines.set(key, { cluster, namespace, workload, team: teams.get(key) ?? null, cost: 0, basis });
      }
      exact.set(key, (exact.get(key) ?? 0) + amount);
      const was = bases.get(key);
      bases.set(key, was === undefined || was === basis ? basis : 'mixed');
    }
    const node = `${first.cluster}|${first.node}`;
    nodeCosts.set(node, (nodeCosts.get(node) ?? 0) + cost);
  }
  let totalCents = 0;
  for (const cost of nodeCosts.values()) totalCents += Math.round(Number((cost * 100).toPrecision(12)));
  for (const [key, amount] of roundCents(exact, totalCents)) Object.assign(lines.get(key)!, { cost: amount, basis: bases.get(key)! });
  return { lines: [...lines.values()].sort((a, b) => b.cost - a.cost || a.workload.localeCompare(b.workload)), total: totalCents / 100 };
}

/** Rows of one workload across nodes and days share a line; a node's unrequested GPUs are their own line per cluster. */
function keyOf(row: KubeUsageRow): string {
  return row.workload === '' ? `${row.cluster}|${UNREQUESTED}|${UNREQUESTED}` : `${row.cluster}|${row.namespace}|${row.workload}`;
}

/** One node-day's cost and its exact amounts per line. */
interface NodeDaySplit {
  cost: number;
  amounts: Map<string, number>;
  teams: Map<string, string | null>;
  basis: KubeCostBasis;
}

/** burnrate's own split: the node-day's cost (the bill's, else list price × hours seen) by the GPU-hours sampled. */
function estimatedSplit(rows: readonly KubeUsageRow[], billedDay: BilledNodeDay | undefined): NodeDaySplit {
  const first = rows[0]!;
  const seen = rows.reduce((sum, r) => sum + r.nodeHours, 0);
  const cost = billedDay ? billedDay.cost : first.nodeHourly * seen;
  const weights = new Map<string, number>();
  for (const r of rows) weights.set(keyOf(r), (weights.get(keyOf(r)) ?? 0) + r.nodeHours);
  const teams = new Map(rows.map((r) => [keyOf(r), r.team]));
  const unobserved = billedDay?.hours ? Math.max(0, billedDay.hours - seen) : 0;
  if (unobserved > 0) weights.set(`${first.cluster}|${UNOBSERVED}|${UNOBSERVED}`, unobserved);
  const hours = [...weights.values()].reduce((a, b) => a + b, 0);
  const amounts = new Map([...weights].map(([key, weight]) => [key, hours > 0 ? (cost * weight) / hours : cost / weights.size]));
  return { cost, amounts, teams, basis: 'estimate' };
}

/**
 * The bill's own split: each pod's amount to its workload; the node's charge beyond its pods
 * (GPUs and time no pod used) to UNREQUESTED. The node-day costs at least what its pods do.
 */
function billedPodSplit(
  first: KubeUsageRow,
  pods: readonly BilledPodDay[],
  billedDay: BilledNodeDay | undefined,
  known: ReadonlyMap<string, readonly KnownWorkload[]>,
): NodeDaySplit {
  const amounts = new Map<string, number>();
  const teams = new Map<string, string | null>();
  let podsCost = 0;
  for (const p of pods) {
    const candidates = known.get(`${first.cluster}|${p.namespace}`) ?? [];
    const owner = ownerOf(p.pod, candidates);
    const key = `${first.cluster}|${p.namespace}|${owner?.workload ?? `${first.cluster}/${p.namespace}/Pod/${p.pod}`}`;
    amounts.set(key, (amounts.get(key) ?? 0) + p.cost);
    // A pod no sample matched still belongs to its namespace's team.
    teams.set(key, owner?.team ?? candidates[0]?.team ?? null);
    podsCost += p.cost;
  }
  const cost = Math.max(billedDay?.cost ?? podsCost, podsCost);
  if (cost > podsCost) amounts.set(`${first.cluster}|${UNREQUESTED}|${UNREQUESTED}`, cost - podsCost);
  return { cost, amounts, teams, basis: 'bill' };
}

interface KnownWorkload {
  workload: string;
  name: string;
  team: string | null;
}

/** The sampled workloads of each cluster and namespace, the longest names first (the most specific owner wins). */
function workloadsByNamespace(usage: readonly KubeUsageRow[]): Map<string, KnownWorkload[]> {
  const byNamespace = new Map<string, Map<string, KnownWorkload>>();
  for (const r of usage) {
    if (r.workload === '') continue;
    const key = `${r.cluster}|${r.namespace}`;
    const workloads = byNamespace.get(key) ?? new Map<string, KnownWorkload>();
    workloads.set(r.workload, { workload: r.workload, name: r.workload.slice(r.workload.lastIndexOf('/') + 1), team: r.team });
    byNamespace.set(key, workloads);
  }
  return new Map([...byNamespace].map(([key, w]) => [key, [...w.values()].sort((a, b) => b.name.length - a.name.length)]));
}

/** The workload a pod belongs to: the one its name is, or begins with followed by a dash (controllers name their pods so). */
function ownerOf(pod: string, candidates: readonly KnownWorkload[]): KnownWorkload | undefined {
  return candidates.find((w) => pod === w.name || pod.startsWith(`${w.name}-`));
}
