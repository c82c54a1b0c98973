import { UNOBSERVED, UNREQUESTED, type KubeCostBasis, type KubeUsageRow } from '../../domain/kube-usage.js';

/** What the bill says one node cost one day, and the hours it counted. */
export interface BilledNodeDay {
  nodeInstanceId: string;
  day: string;
  cost: number;
  hours: number | null;
}

/** What the bill's own pod split charged one pod on one node one day, in the node-day's currency. */
export interface BilledPodDay {
  nodeInstanceId: string;
  day: string;
  namespace: string;
  pod: string;
  cost: number;
}

/** One line's part of a node-day: a workload, a pod the bill names that no sample matched, or the node's unrequested GPUs or unobserved time. */
export interface NodeDayShare {
  /** `cluster|namespace|workload`: one line per workload across nodes and days. */
  key: string;
  cluster: string;
  namespace: string;
  workload: string;
  team: string | null;
  /** Its part of the node-day's cost, 0 to 1; a node-day's shares add up to 1. */
  fraction: number;
}

/** One node-day: its cost and how it is shared, by the bill's pod split or by burnrate's estimate. */
export interface NodeDaySplit {
  cluster: string;
  node: string;
  day: string;
  nodeInstanceId: string | null;
  /** What the bill charged the node that day (never less than its pods' split); where the bill does not cover it, list price × hours seen. */
  cost: number;
  shares: NodeDayShare[];
  basis: Exclude<KubeCostBasis, 'mixed'>;
}

/**
 * How each node-day's cost is shared between workloads: the one rule behind every Kubernetes cost
 * figure (the workload lines of `spend --by workload` and the moves of node cost to teams that
 * budgets, reviews and showback read).
 *   - Where the bill splits a node-day over its pods itself (AWS split cost allocation data:
 *     `pods`), that split: each pod's amount goes to the workload whose name its own begins with
 *     (a Deployment's pods are `<name>-<hash>-<id>`, a StatefulSet's `<name>-<n>`) among the
 *     workloads sampled in its namespace that day, else to a line of its own under its namespace's
 *     team; what the bill charged the node beyond its pods is UNREQUESTED.
 *   - Elsewhere burnrate's estimate: the node-day's cost (the bill's, else its list price × the
 *     hours the samples saw) by the GPU-hours sampled; where the bill counted more hours than the
 *     samples saw, the rest is UNOBSERVED, not anyone's.
 * Pure; `pods` must be in the currency of `billed`.
 */
export function shareNodeDays(
  usage: readonly KubeUsageRow[],
  billed: readonly BilledNodeDay[],
  pods: readonly BilledPodDay[] = [],
): NodeDaySplit[] {
  const bill = new Map(billed.map((b) => [`${b.nodeInstanceId}|${b.day}`, b]));
  const podSplits = new Map<string, BilledPodDay[]>();
  for (const p of pods) {
    const key = `${p.nodeInstanceId}|${p.day}`;
    podSplits.set(key, [...(podSplits.get(key) ?? []), p]);
  }
  const known = workloadsByNamespace(usage);
  const nodeDays = new Map<string, KubeUsageRow[]>();
  for (const row of usage) {
    const key = `${row.cluster}|${row.node}|${row.day}`;
    nodeDays.set(key, [...(nodeDays.get(key) ?? []), row]);
  }
  return [...nodeDays.values()].map((rows) => {
    const first = rows[0]!;
    const billedDay = first.nodeInstanceId ? bill.get(`${first.nodeInstanceId}|${first.day}`) : undefined;
    const split = first.nodeInstanceId ? podSplits.get(`${first.nodeInstanceId}|${first.day}`) : undefined;
    const { cost, shares, basis } = split ? billedPodSplit(first, split, billedDay, known) : estimatedSplit(rows, billedDay);
    return { cluster: first.cluster, node: first.node, day: first.day, nodeInstanceId: first.nodeInstanceId, cost, shares, basis };
  });
}

/** True for a share that is a workload's or a pod's, not the node's unrequested GPUs or unobserved time. */
export function isWorkloadShare(share: NodeDayShare): boolean {
  return share.namespace !== UNREQUESTED && share.namespace !== UNOBSERVED;
}

type Shared = Pick<NodeDaySplit, 'cost' | 'shares' | 'basis'>;

const nodeLine = (cluster: string, label: string, fraction: number): NodeDayShare => ({
  key: `${cluster}|${label}|${label}`,
  cluster,
  namespace: label,
  workload: label,
  team: null,
  fraction,
});

/** burnrate's own split: the node-day's cost (the bill's, else list price × hours seen) by the GPU-hours sampled. */
function estimatedSplit(rows: readonly KubeUsageRow[], billedDay: BilledNodeDay | undefined): Shared {
  const first = rows[0]!;
  const seen = rows.reduce((sum, r) => sum + r.nodeHours, 0);
  const cost = billedDay ? billedDay.cost : first.nodeHourly * seen;
  const lines = new Map<string, { share: NodeDayShare; hours: number }>();
  for (const r of rows) {
    const share =
      r.workload === ''
        ? nodeLine(r.cluster, UNREQUESTED, 0)
        : {
            key: `${r.cluster}|${r.namespace}|${r.workload}`,
            cluster: r.cluster,
            namespace: r.namespace,
            workload: r.workload,
            team: r.team,
            fraction: 0,
          };
    const line = lines.get(share.key) ?? { share, hours: 0 };
    line.hours += r.nodeHours;
    lines.set(share.key, line);
  }
  const unobserved = billedDay?.hours ? Math.max(0, billedDay.hours - seen) : 0;
  if (unobserved > 0) lines.set(UNOBSERVED, { share: nodeLine(first.cluster, UNOBSERVED, 0), hours: unobserved });
  const hours = seen + unobserved;
  const shares = [...lines.values()].map(({ share, hours: h }) => ({ ...share, fraction: hours > 0 ? h / hours : 1 / lines.size }));
  return { cost, shares, basis: 'estimate' };
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
): Shared {
  const amounts = new Map<string, { share: NodeDayShare; amount: number }>();
  let podsCost = 0;
  for (const p of pods) {
    const candidates = known.get(`${first.day}|${first.cluster}|${p.namespace}`) ?? [];
    const owner = ownerOf(p.pod, candidates);
    const workload = owner?.workload ?? `${first.cluster}/${p.namespace}/Pod/${p.pod}`;
    const key = `${first.cluster}|${p.namespace}|${workload}`;
    // A pod no sample matched still belongs to its namespace's team.
    const share = {
      key,
      cluster: first.cluster,
      namespace: p.namespace,
      workload,
      team: owner?.team ?? candidates[0]?.team ?? null,
      fraction: 0,
    };
    const line = amounts.get(key) ?? { share, amount: 0 };
    line.amount += p.cost;
    amounts.set(key, line);
    podsCost += p.cost;
  }
  const cost = Math.max(billedDay?.cost ?? podsCost, podsCost);
  const shares = [...amounts.values()].map(({ share, amount }) => ({ ...share, fraction: cost > 0 ? amount / cost : 0 }));
  if (cost > podsCost) shares.push(nodeLine(first.cluster, UNREQUESTED, (cost - podsCost) / cost));
  return { cost, shares, basis: 'bill' };
}

interface KnownWorkload {
  workload: string;
  name: string;
  team: string | null;
}

/** The workloads sampled each day in each cluster and namespace, the longest names first (the most specific owner wins). */
function workloadsByNamespace(usage: readonly KubeUsageRow[]): Map<string, KnownWorkload[]> {
  const byNamespace = new Map<string, Map<string, KnownWorkload>>();
  for (const r of usage) {
    if (r.workload === '') continue;
    const key = `${r.day}|${r.cluster}|${r.namespace}`;
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
