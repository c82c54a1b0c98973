import { addDays, type Period } from '../domain/period.js';
import type { ResourceCost, ResourceDay, ResourceHours, UnusedCommitment } from '../domain/resource-cost.js';
import type { BillRate } from '../domain/fx.js';
import type { ExtensionDimension, SpendDimension } from '../domain/spend.js';
import type { CurrencyTotal, SpendFilter, TeamDay } from '../domain/spend-totals.js';
import type { InvoiceLine } from '../domain/invoice-line.js';
import type { Correction } from '../domain/correction.js';

export interface SpendStore {
  /** Totals per key and currency (a key billed in two currencies is two rows). */
  totals(filter: SpendFilter, by: SpendDimension): Promise<CurrencyTotal[]>;
  /** Daily totals per team from `since` on: the snapshot budget checks run on. */
  dailyByTeam(since: string): Promise<TeamDay[]>;
  /** Resources billed under a commitment (Savings Plan, reservation, CUD) on a day from `since` on. */
  committedResources(since: string): Promise<string[]>;
  // The three below read what the bill charged a machine, before Kubernetes node costs move to
  // workloads' teams (kube-attribution.ts): a node's rate is its instance's, whoever used it. A
  // workload's cost (resourceCosts) is its share of its nodes' bill; it has no rate of its own.
  /** What the bill charged each of these resources over [start, end): the bill's own rate, not a list price. */
  resourceCosts(period: Period, resourceIds: readonly string[]): Promise<ResourceCost[]>;
  /** Effective cost and hours of use of every resource the bill counts in hours from `since` on, per currency. */
  resourceHours(since: string): Promise<ResourceHours[]>;
  /** Each of these resources' charges a day over [start, end), per currency. */
  resourceDays(period: Period, resourceIds: readonly string[]): Promise<ResourceDay[]>;
  /** Unused commitment over [start, end), by commitment. */
  unusedCommitments(period: Period): Promise<UnusedCommitment[]>;
  /** The exchange rates bills used: their effective cost beside the same in the pricing currency. */
  billRates(): Promise<BillRate[]>;
  /** A billing period's spend (what its invoices say), grouped for showback. */
  invoiceLines(billingPeriod: string): Promise<InvoiceLine[]>;
  /** A team's corrections (ChargeClass 'Correction') of charges incurred in a month. */
  corrections(team: string, month: string): Promise<Correction[]>;
  /** Teams with spend from `source` from `since` on: whose numbers a failing source leaves short. */
  teamsOf(source: string, since: string): Promise<string[]>;
}

/** Each dimension's key as SQL, the same in both dialects (provider columns aside: see extensionColumn in sqlite/ and postgres/). */
export const DIMENSION_COLUMN: Record<Exclude<SpendDimension, ExtensionDimension>, string> = {
  team: 'team',
  service: 'service',
  // The resource's name beside its id when the bill gives one: "trainer-1 (i-0abc)".
  resource:
    "CASE WHEN resource_name IS NOT NULL AND resource_name <> '' AND resource_id IS NOT NULL THEN resource_name || ' (' || resource_id || ')' ELSE coalesce(resource_id, '(no resource id)') END",
  day: 'day',
  provider: 'provider',
};

/**
 * The bounds the totals query compares with: [start, end) of charge days, or on the invoice basis
 * the billing periods from the period's first month to the month of its last day (both included).
 */
export function totalsRange(filter: SpendFilter): [string, string] {
  return filter.basis === 'invoice'
    ? [filter.period.start.slice(0, 7), addDays(filter.period.end, -1).slice(0, 7)]
    : [filter.period.start, filter.period.end];
}

export function nextMonthOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
