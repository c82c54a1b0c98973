import { addDays, monthOf, type Period } from '../domain/period.js';
import type { ResourceCost, ResourceDay, ResourceHours, UnusedCommitment } from '../domain/resource-cost.js';
import type { BillRate } from '../domain/fx.js';
import type { ExtensionDimension, SpendDimension } from '../domain/spend.js';
import type { CurrencyTotal, SpendFilter, TeamDay } from '../domain/spend-totals.js';
import type { InvoiceLine } from '../domain/invoice-line.js';
import type { Correction } from '../domain/correction.js';
import type { CostKind } from '../domain/cost-kind.js';
import { WORKLOAD_ID_PREFIX } from '../domain/kubernetes.js';
import { isExtensionDimension } from '../domain/spend.js';
import { readBillRates } from './bill-rates.js';
import { KUBE_ATTRIBUTION_SOURCE } from './kube-attribution.js';
import type { Session } from './session.js';

/** Each dimension's key as SQL (provider columns aside: see extensionColumn). */
const DIMENSION_COLUMN: Record<Exclude<SpendDimension, ExtensionDimension>, string> = {
  team: 'team',
  service: 'service',
  // The resource's name beside its id when the bill gives one: "trainer-1 (i-0abc)".
  resource:
    "CASE WHEN resource_name IS NOT NULL AND resource_name <> '' AND resource_id IS NOT NULL THEN resource_name || ' (' || resource_id || ')' ELSE coalesce(resource_id, '(no resource id)') END",
  day: 'day',
  provider: 'provider',
  // The sub-account (AWS linked account, Google Cloud project, Azure subscription) and the region; null where the bill gives none.
  account: 'sub_account',
  region: 'region',
};

/**
 * The bounds the totals query compares with: [start, end) of charge days, or on the invoice basis
 * the billing periods from the period's first month to the month of its last day (both included).
 */
function totalsRange(filter: SpendFilter): [string, string] {
  return filter.basis === 'invoice'
    ? [filter.period.start.slice(0, 7), addDays(filter.period.end, -1).slice(0, 7)]
    : [filter.period.start, filter.period.end];
}

/**
 * Every reading of spend_daily. Grouped answers come sorted by their grouping columns, text in
 * SQLite's byte order, so both databases hand callers the same lists.
 */
export class SqlSpendStore {
  constructor(private readonly db: Session) {}

  /** Totals per key and currency (a key billed in two currencies is two rows). */
  async totals(filter: SpendFilter, by: SpendDimension): Promise<CurrencyTotal[]> {
    const d = this.db.dialect;
    const teams = filter.teams;
    const invoice = filter.basis === 'invoice';
    const key = isExtensionDimension(by) ? `coalesce(${d.jsonText('extensions', by)}, '(none)')` : DIMENSION_COLUMN[by];
    const byPeriod = filter.byPeriod === true;
    const order = `${by === 'day' ? 'key, currency' : 'effective DESC, key, currency'}${byPeriod ? ', period' : ''}`;
    return this.db.rows<CurrencyTotal>(
      `SELECT ${d.bytes(`(${key})`)} AS key, ${d.bytes('currency')} AS currency, ${byPeriod ? 'billing_period AS period, ' : ''}
         ${d.money('billed')} AS billed, ${d.money('effective')} AS effective${filter.countRows ? ', CAST(count(*) AS integer) AS "rowCount"' : ''}
       FROM spend_daily WHERE ${invoice ? 'billing_period >= ? AND billing_period <= ?' : 'day >= ? AND day < ?'}
         ${teams ? `AND ${d.inList('team')}` : ''}
       GROUP BY key, currency${byPeriod ? ', period' : ''} ORDER BY ${order}`,
      [...totalsRange(filter), ...(teams ? [d.list(teams)] : [])],
    );
  }

  /** Daily totals per team from `since` on: the snapshot budget checks run on. */
  async dailyByTeam(since: string): Promise<TeamDay[]> {
    // Rows as arrays, in the table's key order: the budget check reads every team's days at once.
    const rows = await this.db.tuples<[string, string, string, CostKind, number, number]>(
      `SELECT team, day, currency, kind, billed, effective FROM spend_team_days WHERE day >= ?
       ORDER BY day, ${this.db.dialect.order('team', 'currency', 'kind')}`,
      [since],
    );
    return rows.map(([team, day, currency, kind, billed, effective]) => ({ team, day, currency, kind, billed, effective }));
  }

  /** Resources billed under a commitment (Savings Plan, reservation, CUD) on a day from `since` on. */
  async committedResources(since: string): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>(
      `SELECT DISTINCT resource_id AS id FROM spend_daily
       WHERE day >= ? AND resource_id IS NOT NULL AND resource_id <> ''
         AND (pricing_category = 'Committed' OR lower(commitment_discount_status) = 'used')`,
      [since],
    );
    return rows.map((r) => r.id);
  }

  // The three below read what the bill charged a machine, before Kubernetes node costs move to
  // workloads' teams (kube-attribution.ts): a node's rate is its instance's, whoever used it. A
  // workload's cost (resourceCosts) is its share of its nodes' bill; it has no rate of its own.
  /** What the bill charged each of these resources over [start, end): the bill's own rate, not a list price. */
  async resourceCosts(period: Period, resourceIds: readonly string[]): Promise<ResourceCost[]> {
    if (resourceIds.length === 0) return [];
    const d = this.db.dialect;
    // The ids travel as one list parameter: a fleet of thousands would pass SQLite's variable limit.
    return this.db.rows<ResourceCost>(
      `SELECT resource_id AS "resourceId", team, currency, billing_period AS period, commitment_discount_id AS "commitmentId",
         ${d.money('effective')} AS effective, count(DISTINCT CASE WHEN effective <> 0 THEN day END) AS days,
         sum(usage_hours) AS hours, max(commitment_end) AS "commitmentEnd",
         max(provider) AS provider, max(resource_name) AS "resourceName", max(region) AS region
       FROM spend_daily
       WHERE day >= ? AND day < ? AND ${d.inList('resource_id')}
         AND (source <> '${KUBE_ATTRIBUTION_SOURCE}' OR lower(resource_id) LIKE '${WORKLOAD_ID_PREFIX}%')
       GROUP BY resource_id, team, currency, billing_period, commitment_discount_id
       ORDER BY ${d.order('resource_id', 'team', 'currency')}, billing_period, ${d.order('commitment_discount_id')}`,
      [period.start, period.end, d.list(resourceIds)],
    );
  }

  /** Effective cost and hours of use of every resource the bill counts in hours from `since` on, per currency. */
  async resourceHours(since: string): Promise<ResourceHours[]> {
    const d = this.db.dialect;
    return this.db.rows<ResourceHours>(
      `SELECT resource_id AS "resourceId", currency, billing_period AS period, ${d.money('effective')} AS effective, sum(usage_hours) AS hours
       FROM spend_daily WHERE day >= ? AND usage_hours > 0 AND resource_id IS NOT NULL AND source <> '${KUBE_ATTRIBUTION_SOURCE}'
       GROUP BY resource_id, currency, billing_period ORDER BY ${d.order('resource_id', 'currency')}, billing_period`,
      [since],
    );
  }

  /** Each of these resources' charges a day over [start, end), per currency. */
  async resourceDays(period: Period, resourceIds: readonly string[]): Promise<ResourceDay[]> {
    if (resourceIds.length === 0) return [];
    const d = this.db.dialect;
    return this.db.rows<ResourceDay>(
      `SELECT resource_id AS "resourceId", day, currency, billing_period AS period, ${d.money('effective')} AS effective, sum(usage_hours) AS hours
       FROM spend_daily
       WHERE day >= ? AND day < ? AND ${d.inList('resource_id')} AND source <> '${KUBE_ATTRIBUTION_SOURCE}'
       GROUP BY resource_id, day, currency, billing_period
       ORDER BY ${d.order('resource_id')}, day, ${d.order('currency')}, billing_period`,
      [period.start, period.end, d.list(resourceIds)],
    );
  }

  /** Unused commitment over [start, end), by commitment. */
  async unusedCommitments(period: Period): Promise<UnusedCommitment[]> {
    const d = this.db.dialect;
    return this.db.rows<UnusedCommitment>(
      `SELECT commitment_discount_id AS "commitmentId", currency, billing_period AS period, ${d.money('effective')} AS effective,
         max(commitment_end) AS "commitmentEnd"
       FROM spend_daily
       WHERE day >= ? AND day < ? AND lower(commitment_discount_status) = 'unused' AND commitment_discount_id IS NOT NULL
       GROUP BY commitment_discount_id, currency, billing_period
       ORDER BY ${d.order('commitment_discount_id', 'currency')}, billing_period`,
      [period.start, period.end],
    );
  }

  /** The exchange rates bills used: their effective cost beside the same in the pricing currency. */
  async billRates(): Promise<BillRate[]> {
    return readBillRates(this.db);
  }

  /** A billing period's spend (what its invoices say), grouped for showback. */
  async invoiceLines(billingPeriod: string): Promise<InvoiceLine[]> {
    const d = this.db.dialect;
    const rows = await this.db.rows<Omit<InvoiceLine, 'hasResource'> & { hasResource: boolean | number }>(
      `SELECT team, owner_tag AS "ownerTag", provider, charge_category AS "chargeCategory", cost_kind AS kind,
         resource_id IS NOT NULL AND resource_id <> '' AS "hasResource", commitment_discount_id AS "commitmentId",
         commitment_discount_status AS "commitmentStatus", currency, ${d.money('billed')} AS billed, ${d.money('effective')} AS effective
       FROM spend_daily WHERE billing_period = ?
       GROUP BY team, owner_tag, provider, charge_category, cost_kind, "hasResource", commitment_discount_id, commitment_discount_status, currency
       ORDER BY ${d.order('team', 'owner_tag', 'provider', 'charge_category', 'cost_kind')}, "hasResource",
         ${d.order('commitment_discount_id', 'commitment_discount_status', 'currency')}`,
      [billingPeriod],
    );
    // SQLite answers 1 or 0 for a truth.
    return rows.map((r) => ({ ...r, hasResource: Boolean(r.hasResource) }));
  }

  /** A team's corrections (ChargeClass 'Correction') of charges incurred in a month. */
  async corrections(team: string, month: string): Promise<Correction[]> {
    const d = this.db.dialect;
    const { start, end } = monthOf(`${month}-01`);
    return this.db.rows<Correction>(
      `SELECT billing_period AS "billingPeriod", service, resource_id AS "resourceId", max(${d.bytes('resource_name')}) AS "resourceName",
         currency, ${d.money('billed')} AS billed, ${d.money('effective')} AS effective
       FROM spend_daily WHERE team = ? AND charge_class = 'Correction' AND day >= ? AND day < ?
       GROUP BY billing_period, service, resource_id, currency
       ORDER BY billing_period, ${d.order('service', 'resource_id', 'currency')}`,
      [team, start, end],
    );
  }

  /** Teams with spend from `source` from `since` on: whose numbers a failing source leaves short. */
  async teamsOf(source: string, since: string): Promise<string[]> {
    const rows = await this.db.rows<{ team: string }>(
      `SELECT DISTINCT ${this.db.dialect.bytes('team')} AS team FROM spend_daily WHERE source = ? AND day >= ? ORDER BY team`,
      [source, since],
    );
    return rows.map((r) => r.team);
  }
}
