import { priceNodeDays, type PricedNodeDays } from '../checks/kubernetes/priced-node-days.js';
import type { Deps } from '../deps.js';
import { convert, type FxRates } from '../domain/fx.js';
import type { Period } from '../domain/period.js';
import { loadFxRates } from './fx-rates.js';
import type { InCurrency } from './team-breakdowns.js';

/**
 * The one read of what the bill charged single resources (machines, Kubernetes nodes and
 * workloads, commitments), in one currency. The store keeps each part in its own currency and
 * billing period; each part is converted here at its own period's rate (October's yen at
 * October's rate, never at the latest) and the parts of one line are added. Every snapshot that
 * shows a resource's money reads it here, so no surface converts on its own path.
 */

/** Lines in one currency, and the currencies left out for want of a rate (for the caller to name, never to add as they are). */
export interface ResourceLines<T> {
  lines: T[];
  missing: string[];
  /** The same per resource (or commitment) id: what a surface about one resource names. */
  missingOf: ReadonlyMap<string, string[]>;
}

/** What the bill charged a resource over a period, per team and covering commitment: BilledResource of the waste diagnosis. */
export interface ResourceCostLine {
  resourceId: string;
  team: string;
  commitmentId: string | null;
  /** Effective cost in the asked currency. */
  cost: number;
  /** Days with a charge. */
  days: number;
  /** Hours of use the bill counted (null where it counts use otherwise). */
  hours: number | null;
  commitmentEnd: string | null;
  provider: string | null;
  resourceName: string | null;
  /** The bill's region, where it gives one. */
  region: string | null;
}

/** What the bill charged a resource on one day, in the asked currency. */
export interface ResourceDayLine {
  resourceId: string;
  day: string;
  cost: number;
  hours: number | null;
}

/** A resource's cost and hours of use over some days, in the asked currency: its billed rate is cost / hours. */
export interface ResourceHoursLine {
  resourceId: string;
  cost: number;
  hours: number;
}

/** A commitment's unused part over a period, in the asked currency. */
export interface UnusedCommitmentLine {
  commitmentId: string;
  amount: number;
  commitmentEnd: string | null;
}

type ReadDeps = Pick<Deps, 'config' | 'store'>;

/** What the bill charged each of these resources over a period, per team and commitment. */
export async function loadResourceCosts(
  deps: ReadDeps,
  period: Period,
  resourceIds: readonly string[],
  to: InCurrency,
): Promise<ResourceLines<ResourceCostLine>> {
  const [parts, fx] = await Promise.all([deps.store.spend.resourceCosts(period, resourceIds), ratesFor(deps, to)]);
  // Days are counted per part: within a billing period a day charged in two currencies is one day
  // (the larger count), across periods the days add up.
  const daysOf = new Map<string, Map<string, number>>();
  return mergeConverted(
    parts,
    to.currency,
    fx,
    (p) => p.resourceId,
    (p) => `${p.resourceId}\u0000${p.team}\u0000${p.commitmentId ?? ''}`,
    (p, cost, sum, key) => {
      const periods = daysOf.get(key) ?? new Map<string, number>();
      periods.set(p.period, Math.max(periods.get(p.period) ?? 0, p.days));
      daysOf.set(key, periods);
      return {
        resourceId: p.resourceId,
        team: p.team,
        commitmentId: p.commitmentId,
        cost: (sum?.cost ?? 0) + cost,
        days: [...periods.values()].reduce((a, b) => a + b, 0),
        hours: addHours(sum?.hours ?? null, p.hours),
        commitmentEnd: later(sum?.commitmentEnd ?? null, p.commitmentEnd),
        provider: sum?.provider ?? p.provider ?? null,
        resourceName: sum?.resourceName ?? p.resourceName ?? null,
        region: sum?.region ?? p.region ?? null,
      };
    },
  );
}

/** Each of these resources' charges a day over a period. */
export async function loadResourceDays(
  deps: ReadDeps,
  period: Period,
  resourceIds: readonly string[],
  to: InCurrency,
): Promise<ResourceLines<ResourceDayLine>> {
  const [parts, fx] = await Promise.all([deps.store.spend.resourceDays(period, resourceIds), ratesFor(deps, to)]);
  return mergeConverted(
    parts,
    to.currency,
    fx,
    (p) => p.resourceId,
    (p) => `${p.resourceId}\u0000${p.day}`,
    (p, cost, sum) => ({
      resourceId: p.resourceId,
      day: p.day,
      cost: (sum?.cost ?? 0) + cost,
      hours: addHours(sum?.hours ?? null, p.hours),
    }),
  );
}

/** Cost and hours of use of every resource the bill counts in hours from `since` on. */
export async function loadResourceHours(deps: ReadDeps, since: string, to: InCurrency): Promise<ResourceLines<ResourceHoursLine>> {
  const [parts, fx] = await Promise.all([deps.store.spend.resourceHours(since), ratesFor(deps, to)]);
  return mergeConverted(
    parts,
    to.currency,
    fx,
    (p) => p.resourceId,
    (p) => p.resourceId,
    (p, cost, sum) => ({
      resourceId: p.resourceId,
      cost: (sum?.cost ?? 0) + cost,
      hours: (sum?.hours ?? 0) + p.hours,
    }),
  );
}

/** Unused commitment over a period, by commitment. */
export async function loadUnusedCommitments(deps: ReadDeps, period: Period, to: InCurrency): Promise<ResourceLines<UnusedCommitmentLine>> {
  const [parts, fx] = await Promise.all([deps.store.spend.unusedCommitments(period), ratesFor(deps, to)]);
  return mergeConverted(
    parts,
    to.currency,
    fx,
    (p) => p.commitmentId,
    (p) => p.commitmentId,
    (p, amount, sum) => ({
      commitmentId: p.commitmentId,
      amount: (sum?.amount ?? 0) + amount,
      commitmentEnd: later(sum?.commitmentEnd ?? null, p.commitmentEnd),
    }),
  );
}

/**
 * What the bill charged each of these Kubernetes nodes a day and how its own pod split (AWS split
 * cost allocation data) shared it, by the one rule the moves of node cost to teams follow too
 * (priceNodeDays): a node-day with an amount no rate converts keeps burnrate's estimate, named.
 */
export async function loadNodeDayBills(
  deps: ReadDeps,
  period: Period,
  nodeIds: readonly string[],
  to: InCurrency,
): Promise<PricedNodeDays> {
  const [days, split, fx] = await Promise.all([
    deps.store.spend.resourceDays(period, nodeIds),
    deps.store.kubeUsage.splitCosts(period),
    ratesFor(deps, to),
  ]);
  return priceNodeDays(
    days.map((d) => ({
      nodeInstanceId: d.resourceId,
      day: d.day,
      currency: d.currency,
      period: d.period,
      cost: d.effective,
      hours: d.hours,
    })),
    split.map((p) => ({ ...p, period: p.billingPeriod, cost: p.splitCost })),
    fx,
    to.currency,
  );
}

function ratesFor(deps: ReadDeps, to: InCurrency): Promise<FxRates> {
  return to.fx ? Promise.resolve(to.fx) : loadFxRates(deps);
}

/**
 * Parts in several currencies and billing periods, each converted at its period's rate and merged
 * into the line of its key (in the order keys first appear). A part without a rate is left out
 * whole (its hours too: a rate over half the cost would be wrong) and its currency reported, in
 * all and per resource (`idOf`).
 */
function mergeConverted<P extends { currency: string; period: string; effective: number }, L>(
  parts: readonly P[],
  to: string,
  fx: FxRates,
  idOf: (part: P) => string,
  keyOf: (part: P) => string,
  add: (part: P, converted: number, sum: L | undefined, key: string) => L,
): ResourceLines<L> {
  const lines = new Map<string, L>();
  const missing = new Set<string>();
  const missingOf = new Map<string, Set<string>>();
  for (const part of parts) {
    const amount = convert(part.effective, part.currency, to, fx, part.period);
    if (amount === null) {
      missing.add(part.currency);
      const id = idOf(part);
      missingOf.set(id, (missingOf.get(id) ?? new Set<string>()).add(part.currency));
      continue;
    }
    const key = keyOf(part);
    lines.set(key, add(part, amount, lines.get(key), key));
  }
  return {
    lines: [...lines.values()],
    missing: [...missing].sort(),
    missingOf: new Map([...missingOf].map(([id, currencies]) => [id, [...currencies].sort()])),
  };
}

function addHours(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

function later(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a >= b ? a : b;
}
