import { convert, type FxRates } from '../../domain/fx.js';
import type { BilledNodeDay, BilledPodDay } from './node-day-shares.js';

/** An amount of a node-day's bill: in its own currency, of the billing period whose rate converts it. */
interface NodeDayAmount {
  nodeInstanceId: string;
  day: string;
  currency: string;
  period: string;
  cost: number;
}

/** One of a node's bill lines one day, with the hours of use the bill counted (null where it counts none). */
export interface NodeBillAmount extends NodeDayAmount {
  hours: number | null;
}

/** One pod's amount of the bill's own pod split (AWS split cost allocation data) one day. */
export interface PodBillAmount extends NodeDayAmount {
  namespace: string;
  pod: string;
}

/** A node-day the bill split over its pods that keeps burnrate's estimate: these of its currencies had no rate. */
export interface UnratedNodeDay {
  nodeInstanceId: string;
  day: string;
  currencies: string[];
}

/** The bill of each node-day in one currency, ready for shareNodeDays. */
export interface PricedNodeDays {
  billed: BilledNodeDay[];
  /** The pod splits that are used: those of node-days whose every amount converts. */
  pods: BilledPodDay[];
  unrated: UnratedNodeDay[];
  /** Currencies of bill lines left out of `billed` for want of a rate (pods' are named in `unrated`). */
  missing: string[];
}

/**
 * The one rule for a node-day's bill in several currencies, read by the moves of node cost to
 * teams and by `spend --by workload` alike. Each amount is converted at its own billing period's
 * rate into `to`, or, without `to`, into the node-day's own currency (its one currency, else the
 * base of `fx`): the shares, fractions of one amount, are the same in any. A node-day's pod split is
 * used only where every amount of that node-day (bill lines and pods) converts: one without a
 * rate keeps burnrate's estimate, as a fraction of part of its cost would move the wrong amount,
 * and is named in `unrated`. The rule looks at one node-day: a rate missing one day never sets
 * aside the split of another. A bill line without a rate is left out of the node-day's cost (its
 * hours still count: they are not money). Pure.
 */
export function priceNodeDays(lines: readonly NodeBillAmount[], pods: readonly PodBillAmount[], fx: FxRates, to?: string): PricedNodeDays {
  const nodeDays = new Map<string, { lines: NodeBillAmount[]; pods: PodBillAmount[] }>();
  const of = (a: NodeDayAmount) => {
    const key = `${a.nodeInstanceId}|${a.day}`;
    const found = nodeDays.get(key) ?? { lines: [], pods: [] };
    nodeDays.set(key, found);
    return found;
  };
  for (const line of lines) of(line).lines.push(line);
  for (const pod of pods) of(pod).pods.push(pod);
  const priced: PricedNodeDays = { billed: [], pods: [], unrated: [], missing: [] };
  const missing = new Set<string>();
  for (const { lines: ofDay, pods: ofPods } of nodeDays.values()) {
    const { nodeInstanceId, day, currency } = ofDay[0] ?? ofPods[0]!;
    const amounts = [...ofDay, ...ofPods];
    const into = to ?? (amounts.every((a) => a.currency === currency) ? currency : fx.base);
    const inTarget = (a: NodeDayAmount) => convert(a.cost, a.currency, into, fx, a.period);
    const lineCosts = ofDay.map(inTarget).filter((c): c is number => c !== null);
    for (const l of ofDay) if (inTarget(l) === null) missing.add(l.currency);
    if (lineCosts.length > 0) {
      const counted = ofDay.filter((l) => l.hours !== null);
      const hours = counted.length ? counted.reduce((sum, l) => sum + l.hours!, 0) : null;
      priced.billed.push({ nodeInstanceId, day, cost: lineCosts.reduce((sum, c) => sum + c, 0), hours });
    }
    if (ofPods.length === 0) continue;
    const unrated = [...new Set(amounts.filter((a) => inTarget(a) === null).map((a) => a.currency))].sort();
    if (unrated.length > 0) priced.unrated.push({ nodeInstanceId, day, currencies: unrated });
    else for (const p of ofPods) priced.pods.push({ nodeInstanceId, day, namespace: p.namespace, pod: p.pod, cost: inTarget(p)! });
  }
  priced.missing = [...missing].sort();
  return priced;
}

/**
 * What an answer says of the node-days that kept burnrate's estimate though the bill split them:
 * which currencies lack a rate, and the nodes and days, a few nodes named and the rest counted.
 * Null when there are none.
 */
export function unratedSplitNote(unrated: readonly UnratedNodeDay[], to: string): string | null {
  if (unrated.length === 0) return null;
  const currencies = [...new Set(unrated.flatMap((u) => u.currencies))].sort();
  const days = new Map<string, string[]>();
  for (const u of unrated) days.set(u.nodeInstanceId, [...(days.get(u.nodeInstanceId) ?? []), u.day]);
  const named = [...days.keys()].sort().slice(0, 3);
  const where = named.map((node) => {
    const sorted = days.get(node)!.sort();
    return sorted.length === 1 ? `${node} on ${sorted[0]}` : `${node} on ${sorted.length} days from ${sorted[0]} to ${sorted.at(-1)}`;
  });
  const more = days.size - named.length;
  return (
    `${unrated.length} node-day(s) split over pods by the bill keep burnrate's estimate: amounts in ${currencies.join(', ')} ` +
    `have no rate to ${to} (${where.join('; ')}${more > 0 ? `; ${more} more node(s)` : ''}). Add it under fx in burnrate.yml.`
  );
}
