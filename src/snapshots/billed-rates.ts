import type { Deps } from '../deps.js';
import type { GpuInstance, KubernetesPlacement } from '../domain/gpu-inventory.js';
import { formatMoney } from '../domain/money.js';
import { unpriced } from '../domain/gpu-finding.js';
import { leftOutNote } from '../domain/left-out-currencies.js';
import { addDays, toDay } from '../domain/period.js';
import { billMemo } from './bill-memo.js';
import { loadResourceHours } from './resource-lines.js';

/** Days of bill an instance's rate is averaged over: long enough to hold a whole week, short enough to follow a new discount. */
export const RATE_DAYS = 14;

/** The catalog's currency, which billed rates are said in. */
const RATE_CURRENCY = 'USD';

/**
 * An instance's billed rate: its effective cost per hour of use on the bill, in USD (the catalog's
 * currency); `leftOut`, per instance, the currencies of its charges that had no rate to USD (their
 * cost and hours are not in the rate, and its price note names them).
 */
export type BilledRates = ReadonlyMap<string, number> & { readonly leftOut: ReadonlyMap<string, readonly string[]> };

const memo = billMemo<BilledRates>();

/**
 * Every resource's billed rate over the last RATE_DAYS days: its effective cost per hour of use
 * where the bill counts use in hours (FOCUS ConsumedQuantity, CUR usage amount). Read again only
 * when a source has refreshed: the idle check asks every few minutes, the bill changes daily.
 */
export async function loadBilledRates(deps: Pick<Deps, 'config' | 'store' | 'clock'>): Promise<BilledRates> {
  const since = addDays(toDay(deps.clock()), -RATE_DAYS);
  return memo(deps, since, '', () => readRates(deps, since));
}

async function readRates(deps: Pick<Deps, 'config' | 'store'>, since: string): Promise<BilledRates> {
  // Each billing period's part at its own rate; a currency without a rate leaves its hours out too.
  const { lines, missingOf } = await loadResourceHours(deps, since, { currency: RATE_CURRENCY });
  const rates = new Map(lines.filter((t) => t.hours > 0 && t.cost > 0).map((t) => [t.resourceId, t.cost / t.hours]));
  return Object.assign(rates, { leftOut: missingOf });
}

/**
 * The instance priced at its billed rate where the bill has one (what a committed node really
 * costs, not its on-demand list price), said in its price note; else as the catalog lists it.
 */
export function withBilledRate(instance: GpuInstance, rates: BilledRates): GpuInstance {
  const rate = instance.kubernetes ? workloadRate(instance.kubernetes, rates) : rates.get(instance.instanceId);
  // Charges in a currency without a rate are in neither the rate nor the hours: named, never guessed.
  const leftOut = leftOutNote(leftOutOf(instance, rates), RATE_CURRENCY);
  const also = leftOut ? ` ${leftOut}` : '';
  // Neither the bill nor the catalog prices it: its note says so, with no list price of $0.00 before it.
  if (rate === undefined && unpriced(instance) && instance.priceNote)
    return { ...instance, priceBasis: 'list', priceNote: `${instance.priceNote}${also}` };
  if (rate === undefined)
    return {
      ...instance,
      priceBasis: 'list',
      priceNote: `at list price, ${formatMoney(instance.hourlyPrice, RATE_CURRENCY)}/h${instance.priceNote ? `, ${instance.priceNote}` : leftOut ? ':' : ': not on the bill yet'}${also}`,
    };
  return {
    ...instance,
    hourlyPrice: rate,
    priceBasis: 'billed',
    priceNote: `at its billed rate, ${formatMoney(rate, RATE_CURRENCY)}/h: the bill's effective cost per hour over the last ${RATE_DAYS} days${leftOut ? '.' : ''}${also}`,
  };
}

/** The currencies without a rate among the charges of the instance (or of the nodes a workload runs on). */
function leftOutOf(instance: GpuInstance, rates: BilledRates): string[] {
  const ids = instance.kubernetes
    ? instance.kubernetes.nodes.flatMap((n) => (n.instanceId === null ? [] : [n.instanceId]))
    : [instance.instanceId];
  return ids.flatMap((id) => rates.leftOut.get(id) ?? []);
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
