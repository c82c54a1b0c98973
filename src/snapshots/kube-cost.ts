import { splitNodeCosts, type BilledNodeDay } from '../checks/kubernetes/split-node-cost.js';
import type { Deps } from '../deps.js';
import type { KubeCostLine } from '../domain/kube-usage.js';
import type { Period } from '../domain/period.js';
import { loadPodSplitDays, loadResourceDays } from './resource-lines.js';

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
  /** Currencies of the nodes' charges with no rate to USD: not in the lines, for the reader to be told. */
  missing: string[];
}

/**
 * The Kubernetes GPU nodes' cost over a period, split over the workloads that held their GPUs
 * (src/checks/kubernetes/split-node-cost.ts): from the usage samples and the bill's charges for
 * each node's instance, in USD; where the bill split a node-day over its pods itself, that split.
 */
export async function loadKubeCost(deps: Pick<Deps, 'store' | 'config' | 'clock'>, period: Period): Promise<KubeCost> {
  const usage = await deps.store.kubeUsage.rows(period);
  const ids = [...new Set(usage.flatMap((r) => (r.nodeInstanceId ? [r.nodeInstanceId] : [])))];
  const [{ lines: days, missing }, split] = await Promise.all([
    loadResourceDays(deps, period, ids, { currency: 'USD' }),
    loadPodSplitDays(deps, period, { currency: 'USD' }),
  ]);
  const billed = new Map<string, BilledNodeDay>(
    days.map((d) => [`${d.resourceId}|${d.day}`, { nodeInstanceId: d.resourceId, day: d.day, cost: d.cost, hours: d.hours }]),
  );
  // A node whose pod split has a currency without a rate is not split from part of it: the estimate stands for it.
  const whole = split.lines.filter((p) => !split.missingOf.has(p.nodeInstanceId));
  const { lines, total } = splitNodeCosts(usage, [...billed.values()], whole);
  const nodeDays = new Map<string, boolean>();
  for (const r of usage)
    nodeDays.set(`${r.cluster}|${r.node}|${r.day}`, r.nodeInstanceId !== null && billed.has(`${r.nodeInstanceId}|${r.day}`));
  const billedNodeDays = [...nodeDays.values()].filter(Boolean).length;
  const splitDays = new Set(whole.map((p) => `${p.nodeInstanceId}|${p.day}`));
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
    missing,
  };
}
