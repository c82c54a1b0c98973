import { splitNodeCosts, type BilledNodeDay } from '../checks/kubernetes/split-node-cost.js';
import type { Deps } from '../deps.js';
import { convert } from '../domain/fx.js';
import type { KubeCostLine } from '../domain/kube-usage.js';
import type { Period } from '../domain/period.js';
import { loadFxRates } from './fx-rates.js';

export interface KubeCost {
  period: Period;
  currency: 'USD';
  lines: KubeCostLine[];
  /** The nodes' cost over the period: the lines add up to it to the cent. */
  total: number;
  /** Node-days the bill priced, and those at list price (not on the bill yet). */
  billedNodeDays: number;
  listNodeDays: number;
}

/**
 * The Kubernetes GPU nodes' cost over a period, split over the workloads that held their GPUs
 * (src/checks/kubernetes/split-node-cost.ts): from the usage samples and the bill's charges for
 * each node's instance, in USD.
 */
export async function loadKubeCost(deps: Pick<Deps, 'store' | 'config' | 'clock'>, period: Period): Promise<KubeCost> {
  const usage = await deps.store.kubeUsage.rows(period);
  const ids = [...new Set(usage.flatMap((r) => (r.nodeInstanceId ? [r.nodeInstanceId] : [])))];
  const [days, fx] = await Promise.all([deps.store.spend.resourceDays(period, ids), loadFxRates(deps)]);
  const billed = new Map<string, BilledNodeDay>();
  for (const row of days) {
    const usd = convert(row.effective, row.currency, 'USD', fx, row.day.slice(0, 7));
    if (usd === null) continue;
    const key = `${row.resourceId}|${row.day}`;
    const day = billed.get(key) ?? { nodeInstanceId: row.resourceId, day: row.day, cost: 0, hours: null };
    day.cost += usd;
    if (row.hours !== null) day.hours = (day.hours ?? 0) + row.hours;
    billed.set(key, day);
  }
  const { lines, total } = splitNodeCosts(usage, [...billed.values()]);
  const nodeDays = new Map<string, boolean>();
  for (const r of usage)
    nodeDays.set(`${r.cluster}|${r.node}|${r.day}`, r.nodeInstanceId !== null && billed.has(`${r.nodeInstanceId}|${r.day}`));
  const billedNodeDays = [...nodeDays.values()].filter(Boolean).length;
  return { period, currency: 'USD', lines, total, billedNodeDays, listNodeDays: nodeDays.size - billedNodeDays };
}
