import type { UnratedNodeDay } from '../checks/kubernetes/priced-node-days.js';
import { splitNodeCosts } from '../checks/kubernetes/split-node-cost.js';
import type { Deps } from '../deps.js';
import type { KubeCostLine } from '../domain/kube-usage.js';
import type { Period } from '../domain/period.js';
import { loadNodeDayBills } from './resource-lines.js';

export interface KubeCost {
  period: Period;
  currency: 'USD';
  lines: KubeCostLine[];
  /** The nodes' cost over the period: the lines add up to it to the cent. */
  total: number;
  /** Node-days the bill priced, and those at list price (not on the bill yet). */
  billedNodeDays: number;
  listNodeDays: number;
  /** Of the node-days, those the bill split over its pods itself (AWS split cost allocation data): their lines are the bill's. */
  podSplitNodeDays: number;
  /** Node-days the bill split that keep burnrate's estimate for want of a rate (unratedSplitNote says so). */
  unrated: UnratedNodeDay[];
  /** Currencies of the nodes' charges with no rate to USD: not in the lines, for the reader to be told. */
  missing: string[];
}

/**
 * The Kubernetes GPU nodes' cost over a period, split over the workloads that held their GPUs
 * (src/checks/kubernetes/split-node-cost.ts): from the usage samples and the bill's charges for
 * each node's instance, in USD; where the bill split a node-day over its pods itself, that split
 * (unless an amount of that node-day has no rate: loadNodeDayBills).
 */
export async function loadKubeCost(deps: Pick<Deps, 'store' | 'config' | 'clock'>, period: Period): Promise<KubeCost> {
  const usage = await deps.store.kubeUsage.rows(period);
  const ids = [...new Set(usage.flatMap((r) => (r.nodeInstanceId ? [r.nodeInstanceId] : [])))];
  const { billed: days, pods, unrated, missing } = await loadNodeDayBills(deps, period, ids, { currency: 'USD' });
  const billed = new Map(days.map((d) => [`${d.nodeInstanceId}|${d.day}`, d]));
  const { lines, total } = splitNodeCosts(usage, days, pods);
  const nodeDays = new Map<string, boolean>();
  for (const r of usage)
    nodeDays.set(`${r.cluster}|${r.node}|${r.day}`, r.nodeInstanceId !== null && billed.has(`${r.nodeInstanceId}|${r.day}`));
  const billedNodeDays = [...nodeDays.values()].filter(Boolean).length;
  const sampled = new Set(usage.map((r) => `${r.nodeInstanceId}|${r.day}`));
  const splitDays = new Set(pods.map((p) => `${p.nodeInstanceId}|${p.day}`));
  const podSplitNodeDays = new Set(
    usage.filter((r) => r.nodeInstanceId && splitDays.has(`${r.nodeInstanceId}|${r.day}`)).map((r) => `${r.cluster}|${r.node}|${r.day}`),
  ).size;
  return {
    period,
    currency: 'USD',
    lines,
    total,
    billedNodeDays,
    listNodeDays: nodeDays.size - billedNodeDays,
    podSplitNodeDays,
    unrated: unrated.filter((u) => sampled.has(`${u.nodeInstanceId}|${u.day}`)),
    missing,
  };
}
