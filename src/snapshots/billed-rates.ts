import type { Deps } from '../deps.js';
import type { GpuInstance, KubernetesPlacement } from '../domain/gpu-inventory.js';
import { formatMoney } from '../domain/money.js';
import { addDays, toDay } from '../domain/period.js';
import type { Store } from '../store/store.js';
import { loadResourceHours } from './resource-lines.js';

/** Days of bill an instance's rate is averaged over: long enough to hold a whole week, short enough to follow a new discount. */
const RATE_DAYS = 14;

/** An instance's billed rate: its effective cost per hour of use on the bill, in USD (the catalog's currency). */
export type BilledRates = ReadonlyMap<string, number>;

const cache = new WeakMap<Store, { key: string; rates: Promise<BilledRates> }>();

/**
 * Every resource's billed rate over the last RATE_DAYS days: its effective cost per hour of use
 * where the bill counts use in hours (FOCUS ConsumedQuantity, CUR usage amount). Read again only
 * when a source has refreshed: the idle check asks every few minutes, the bill changes daily.
 */
export async function loadBilledRates(deps: Pick<Deps, 'config' | 'store' | 'clock'>): Promise<BilledRates> {
  const since = addDays(toDay(deps.clock()), -RATE_DAYS);
  const key = `${since}|${JSON.stringify(await deps.store.freshness.list())}`;
  const cached = cache.get(deps.store);
  if (cached?.key === key) return cached.rates;
  const rates = readRates(deps, since);
  cache.set(deps.store, { key, rates });
  rates.catch(() => cache.delete(deps.store));
  return rates;
}

async function readRates(deps: Pick<Deps, 'config' | 'store'>, since: string): Promise<BilledRates> {
  // Each billing period's part at its own rate; a currency without a rate leaves its hours out too.
  const { lines } = await loadResourceHours(deps, since, { currency: 'USD' });
  return new Map(lines.filter((t) => t.hours > 0 && t.cost > 0).map((t) => [t.resourceId, t.cost / t.hours]));
}

/**
 * The instance priced at its billed rate where the bill has one (what a committed node really
 * costs, not its on-demand list price), said in its price note; else as the catalog lists it.
 */
export function withBilledRate(instance: GpuInstance, rates: BilledRates): GpuInstance {
  const rate = instance.kubernetes ? workloadRate(instance.kubernetes, rates) : rates.get(instance.instanceId);
  if (rate === undefined)
    return {
      ...instance,
      priceBasis: 'list',
      priceNote: `at list price, ${formatMoney(instance.hourlyPrice, 'USD')}/h${instance.priceNote ? `, ${instance.priceNote}` : ': not on the bill yet'}`,
    };
  return {
    ...instance,
    hourlyPrice: rate,
    priceBasis: 'billed',
    priceNote: `at its billed rate, ${formatMoney(rate, 'USD')}/h: the bill's effective cost per hour over the last ${RATE_DAYS} days`,
  };
}

/**
 * A workload's share of its nodes' billed rates (a node not on the bill at its list price); the
 * bill's rate only where every node it runs on is on the bill, else undefined (list price).
 */
function workloadRate(placement: KubernetesPlacement, rates: BilledRates): number | undefined {
  let total = 0;
  for (const node of placement.nodes) {
    const rate = node.instanceId === null ? undefined : rates.get(node.instanceId);
    if (rate === undefined) return undefined;
    total += rate * node.share;
  }
  return total;
}
