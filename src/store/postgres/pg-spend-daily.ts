import { postgresMoneySum } from '../dialect/money-sum.js';
import { WORKLOAD_ID_PREFIX } from '../../domain/kubernetes.js';
import type { Period } from '../../domain/period.js';
import type { ResourceCost, ResourceDay, ResourceHours, UnusedCommitment } from '../../domain/resource-cost.js';
import type { BillRate } from '../../domain/fx.js';
import { isExtensionDimension, type ExtensionDimension, type SpendDimension } from '../../domain/spend.js';
import type { CurrencyTotal, SpendFilter, TeamDay } from '../../domain/spend-totals.js';
import type { InvoiceLine } from '../../domain/invoice-line.js';
import type { Correction } from '../../domain/correction.js';
import { KUBE_ATTRIBUTION_SOURCE } from '../kube-attribution.js';
import { DIMENSION_COLUMN, nextMonthOf, totalsRange, type SpendStore } from '../spend-daily.js';
import { bytes, sqliteOrder } from './pg-collation.js';
import type { PgDb } from './pg-db.js';

// The contract is SpendStore (spend-daily.ts). Grouped answers come in the order SQLite's GROUP BY
// gives them (sorted by the grouping columns), so both stores hand callers the same lists.

export class PgSpendStore implements SpendStore {
  constructor(private readonly db: PgDb) {}

  async totals(filter: SpendFilter, by: SpendDimension): Promise<CurrencyTotal[]> {
    const teams = filter.teams;
    const invoice = filter.basis === 'invoice';
    const key = isExtensionDimension(by) ? extensionColumn(by) : DIMENSION_COLUMN[by];
    const byPeriod = filter.byPeriod === true;
    const order = `${by === 'day' ? 'key, currency' : 'effective DESC, key, currency'}${byPeriod ? ', period' : ''}`;
    return this.db.rows<CurrencyTotal>(
      `SELECT ${bytes(`(${key})`)} AS key, ${bytes('currency')} AS currency, ${byPeriod ? 'billing_period AS period, ' : ''}${postgresMoneySum('billed')} AS billed, ${postgresMoneySum('effective')} AS effective
       FROM spend_daily WHERE ${invoice ? 'billing_period >= $1 AND billing_period <= $2' : 'day >= $1 AND day < $2'}
         ${teams ? 'AND team = ANY($3::text[])' : ''}
       GROUP BY key, currency${byPeriod ? ', period' : ''} ORDER BY ${order}`,
      [...totalsRange(filter), ...(teams ? [teams] : [])],
    );
  }

  async dailyByTeam(since: string): Promise<TeamDay[]> {
    // In the table's key order, as SQLite reads its rows.
    return this.db.rows<TeamDay>(
      `SELECT team, day, currency, kind, billed, effective FROM spend_team_days WHERE day >= $1
       ORDER BY day, ${sqliteOrder('team', 'currency', 'kind')}`,
      [since],
    );
  }

  async committedResources(since: string): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>(
      `SELECT DISTINCT resource_id AS id FROM spend_daily
       WHERE day >= $1 AND resource_id IS NOT NULL AND resource_id <> ''
         AND (pricing_category = 'Committed' OR lower(commitment_discount_status) = 'used')`,
      [since],
    );
    return rows.map((r) => r.id);
  }

  async resourceCosts(period: Period, resourceIds: readonly string[]): Promise<ResourceCost[]> {
    if (resourceIds.length === 0) return [];
    // ILIKE: SQLite's LIKE ignores the case of ASCII letters.
    return this.db.rows<ResourceCost>(
      `SELECT resource_id AS "resourceId", team, currency, billing_period AS period, commitment_discount_id AS "commitmentId",
         ${postgresMoneySum('effective')} AS effective, count(DISTINCT CASE WHEN effective <> 0 THEN day END) AS days,
         sum(usage_hours) AS hours, max(commitment_end) AS "commitmentEnd",
         max(provider) AS provider, max(resource_name) AS "resourceName"
       FROM spend_daily
       WHERE day >= $1 AND day < $2 AND resource_id = ANY($3::text[])
         AND (source <> '${KUBE_ATTRIBUTION_SOURCE}' OR resource_id ILIKE '${WORKLOAD_ID_PREFIX}%')
       GROUP BY resource_id, team, currency, billing_period, commitment_discount_id
       ORDER BY ${sqliteOrder('resource_id', 'team', 'currency')}, billing_period, ${sqliteOrder('commitment_discount_id')}`,
      [period.start, period.end, resourceIds],
    );
  }

  async resourceHours(since: string): Promise<ResourceHours[]> {
    return this.db.rows<ResourceHours>(
      `SELECT resource_id AS "resourceId", currency, billing_period AS period, ${postgresMoneySum('effective')} AS effective, sum(usage_hours) AS hours
       FROM spend_daily WHERE day >= $1 AND usage_hours > 0 AND resource_id IS NOT NULL AND source <> '${KUBE_ATTRIBUTION_SOURCE}'
       GROUP BY resource_id, currency, billing_period ORDER BY ${sqliteOrder('resource_id', 'currency')}, billing_period`,
      [since],
    );
  }

  async resourceDays(period: Period, resourceIds: readonly string[]): Promise<ResourceDay[]> {
    if (resourceIds.length === 0) return [];
    return this.db.rows<ResourceDay>(
      `SELECT resource_id AS "resourceId", day, currency, billing_period AS period, ${postgresMoneySum('effective')} AS effective, sum(usage_hours) AS hours
       FROM spend_daily
       WHERE day >= $1 AND day < $2 AND resource_id = ANY($3::text[]) AND source <> '${KUBE_ATTRIBUTION_SOURCE}'
       GROUP BY resource_id, day, currency, billing_period
       ORDER BY ${sqliteOrder('resource_id')}, day, ${sqliteOrder('currency')}, billing_period`,
      [period.start, period.end, resourceIds],
    );
  }

  async unusedCommitments(period: Period): Promise<UnusedCommitment[]> {
    return this.db.rows<UnusedCommitment>(
      `SELECT commitment_discount_id AS "commitmentId", currency, billing_period AS period, ${postgresMoneySum('effective')} AS effective,
         max(commitment_end) AS "commitmentEnd"
       FROM spend_daily
       WHERE day >= $1 AND day < $2 AND lower(commitment_discount_status) = 'unused' AND commitment_discount_id IS NOT NULL
       GROUP BY commitment_discount_id, currency, billing_period
       ORDER BY ${sqliteOrder('commitment_discount_id', 'currency')}, billing_period`,
      [period.start, period.end],
    );
  }

  async billRates(): Promise<BillRate[]> {
    return this.db.rows<BillRate>(
      `SELECT billing_period AS "billingPeriod", currency, pricing_currency AS "pricingCurrency",
         ${postgresMoneySum('effective')} AS effective, ${postgresMoneySum('pricing_currency_effective_cost')} AS "pricingEffective"
       FROM spend_daily
       WHERE pricing_currency IS NOT NULL AND pricing_currency <> currency AND pricing_currency_effective_cost IS NOT NULL
       GROUP BY billing_period, currency, pricing_currency ORDER BY billing_period, ${sqliteOrder('currency', 'pricing_currency')}`,
    );
  }

  async invoiceLines(billingPeriod: string): Promise<InvoiceLine[]> {
    return this.db.rows<InvoiceLine>(
      `SELECT team, owner_tag AS "ownerTag", provider, charge_category AS "chargeCategory", cost_kind AS kind,
         resource_id IS NOT NULL AND resource_id <> '' AS "hasResource", commitment_discount_id AS "commitmentId",
         commitment_discount_status AS "commitmentStatus", currency, ${postgresMoneySum('billed')} AS billed, ${postgresMoneySum('effective')} AS effective
       FROM spend_daily WHERE billing_period = $1
       GROUP BY team, owner_tag, provider, charge_category, cost_kind, "hasResource", commitment_discount_id, commitment_discount_status, currency
       ORDER BY ${sqliteOrder('team', 'owner_tag', 'provider', 'charge_category', 'cost_kind')}, "hasResource",
         ${sqliteOrder('commitment_discount_id', 'commitment_discount_status', 'currency')}`,
      [billingPeriod],
    );
  }

  async corrections(team: string, month: string): Promise<Correction[]> {
    return this.db.rows<Correction>(
      `SELECT billing_period AS "billingPeriod", service, resource_id AS "resourceId", max(${bytes('resource_name')}) AS "resourceName",
         currency, ${postgresMoneySum('billed')} AS billed, ${postgresMoneySum('effective')} AS effective
       FROM spend_daily WHERE team = $1 AND charge_class = 'Correction' AND day >= $2 AND day < $3
       GROUP BY billing_period, service, resource_id, currency
       ORDER BY billing_period, ${sqliteOrder('service', 'resource_id', 'currency')}`,
      [team, `${month}-01`, `${nextMonthOf(month)}-01`],
    );
  }

  async teamsOf(source: string, since: string): Promise<string[]> {
    const rows = await this.db.rows<{ team: string }>(
      `SELECT DISTINCT ${bytes('team')} AS team FROM spend_daily WHERE source = $1 AND day >= $2 ORDER BY team`,
      [source, since],
    );
    return rows.map((r) => r.team);
  }
}

/** A provider column kept in the rows' extensions (a JSON object); rows of sources that do not keep it say "(none)". */
function extensionColumn(by: ExtensionDimension): string {
  // The name is checked (x_ then letters, digits, underscores): safe to put in the SQL as it is.
  if (!isExtensionDimension(by)) throw new Error(`not a provider column: ${by}`);
  return `coalesce(extensions::jsonb ->> '${by}', '(none)')`;
}
