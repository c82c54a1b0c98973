import { splitNodeCosts, type BilledNodeDay } from '../checks/kubernetes/split-node-cost.js';
import type { Deps } from '../deps.js';
import type { KubeCostLine } from '../domain/kube-usage.js';
import type { Period } from '../domain/period.js';
import { loadResourceDays } from './resource-lines.js';

export interface KubeCost {
  period: Period;
  currency: 'USD';
  lines: KubeCostLine[];
  /** The nodes' cost over the period: the lines add up to it to the cent. */
  total: number;
  /** Node-days the bill priced, and those at list price (not on the bill yet). */
  billedNodeDays: number;
  listNodeDays: number;
  /** Currencies of the nodes' charges with no rate to USD: not in the lines, for the reader to be told. */
  missing: string[];
}

/**
 * The Kubernetes GPU nodes' cost over a period, split over the workloads that held their GPUs
 * (src/checks/kubernetes/split-node-cost.ts): from the usage samples and the bill's charges for
 * each node's instance, in USD.
 */
export async function loadKubeCost(deps: Pick<Deps, 'store' | 'config' | 'clock'>, period: Period): Promise<KubeCost> {
  const usage = await deps.store.kubeUsage.rows(period);
  const ids = [...new Set(usage.flatMap((r) => (r.nodeInstanceId ? [r.nodeInstanceId] : [])))];
  const { lines: days, missing } = await loadResourceDays(deps, period, ids, { currency: 'USD' });
  const billed = new Map<string, BilledNodeDay>(
    days.map((d) => [`${d.resourceId}|${d.day}`, { nodeInstanceId: d.resourceId, day: d.day, cost: d.cost, hours: d.hours }]),
  );
  const { lines, total } = splitNodeCosts(usage, [...billed.values()]);
  const nodeDays = new Map<string, boolean>();
  for (const r of usage)
    nodeDays.set(`${r.cluster}|${r.node}|${r.day}`, r.nodeInstanceId !== null && billed.has(`${r.nodeInstanceId}|${r.day}`));
  const billedNodeDays = [...nodeDays.values()].filter(Boolean).length;
  return { period, currency: 'USD', lines, total, billedNodeDays, listNodeDays: nodeDays.size - billedNodeDays, missing };
}
