import { postgresMoneySum } from '../dialect/money-sum.js';
import { WORKLOAD_ID_PREFIX } from '../../domain/kubernetes.js';
import type { Period } from '../../domain/period.js';
import type { ResourceCost, ResourceDay, ResourceHours, UnusedCommitment } from '../../domain/resource-cost.js';
import type { BillRate } from '../../domain/fx.js';
import { costKindOf } from '../../domain/cost-kind.js';
import {
  isExtensionDimension,
  type ExportPart,
  type ExtensionDimension,
  type SpendBatch,
  type SpendDimension,
  type SpendRow,
  type SpendScope,
} from '../../domain/spend.js';
import type { CurrencyTotal, SpendFilter, TeamDay } from '../../domain/spend-totals.js';
import type { InvoiceLine } from '../../domain/invoice-line.js';
import type { Correction } from '../../domain/correction.js';
import { KUBE_ATTRIBUTION_SOURCE } from '../kube-attribution.js';
import { DIMENSION_COLUMN, nextMonthOf, totalsRange, type SpendStore } from '../spend-daily.js';
import { bytes, sqliteOrder } from './pg-collation.js';
import type { PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';

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

/** Deletes the whole billing periods (or days) a batch covers, in its source and accounts. Runs inside the caller's transaction. */
export async function deleteSpendScope(tx: PgSession, scope: SpendScope): Promise<number> {
  if (scope.days) {
    return tx.run('DELETE FROM spend_daily WHERE source = $1 AND day >= $2 AND day < $3', [scope.source, scope.days.start, scope.days.end]);
  }
  const accounts = scope.billingAccounts;
  return tx.run(
    `DELETE FROM spend_daily WHERE source = $1 AND billing_period = ANY($2::text[]) ${accounts ? 'AND billing_account = ANY($3::text[])' : ''}`,
    [scope.source, scope.billingPeriods, ...(accounts ? [accounts] : [])],
  );
}

/** A spend_daily column a batch fills: its name, its type, and its value for a row (and the row's export part). */
type SpendColumn = readonly [name: string, type: 'text' | 'float8', value: (row: SpendRow, part: ExportPart | undefined) => unknown];

const SPEND_COLUMNS: readonly SpendColumn[] = [
  ['billing_period', 'text', (r) => r.billingPeriod],
  ['billing_account', 'text', (r) => r.billingAccount ?? ''],
  ['day', 'text', (r) => r.day],
  ['team', 'text', (r) => r.team],
  ['owner_tag', 'text', (r) => r.ownerTag],
  ['provider', 'text', (r) => r.provider],
  ['sub_account', 'text', (r) => r.subAccount],
  ['service', 'text', (r) => r.service],
  ['service_category', 'text', (r) => r.serviceCategory],
  ['resource_id', 'text', (r) => r.resourceId],
  ['charge_category', 'text', (r) => r.chargeCategory],
  ['pricing_category', 'text', (r) => r.pricingCategory],
  ['currency', 'text', (r) => r.currency],
  ['billed', 'float8', (r) => r.billed],
  ['effective', 'float8', (r) => r.effective],
  ['experiment', 'text', (r) => r.experiment],
  ['run_id', 'text', (r) => r.run],
  ['sweep', 'text', (r) => r.sweep],
  ['export_id', 'text', (_, p) => p?.exportId],
  ['part', 'text', (_, p) => p?.name],
  ['content_hash', 'text', (_, p) => p?.contentHash],
  ['charge_frequency', 'text', (r) => r.chargeFrequency],
  ['charge_class', 'text', (r) => r.chargeClass],
  ['commitment_discount_id', 'text', (r) => r.commitmentDiscountId],
  ['commitment_discount_type', 'text', (r) => r.commitmentDiscountType],
  ['commitment_discount_category', 'text', (r) => r.commitmentDiscountCategory],
  ['commitment_discount_status', 'text', (r) => r.commitmentDiscountStatus],
  ['list_cost', 'float8', (r) => r.listCost],
  ['contracted_cost', 'float8', (r) => r.contractedCost],
  ['publisher', 'text', (r) => r.publisher],
  ['invoice_issuer', 'text', (r) => r.invoiceIssuer],
  ['resource_name', 'text', (r) => r.resourceName],
  ['region', 'text', (r) => r.region],
  ['cost_kind', 'text', (r) => costKindOf(r.chargeCategory, r.chargeFrequency)],
  ['pricing_currency', 'text', (r) => r.pricingCurrency],
  ['pricing_currency_effective_cost', 'float8', (r) => r.pricingCurrencyEffectiveCost],
  ['host_provider', 'text', (r) => r.hostProvider],
  ['extensions', 'text', (r) => r.extensions],
  ['usage_hours', 'float8', (r) => r.usageHours],
  ['commitment_end', 'text', (r) => r.commitmentDiscountEnd],
];

/** Rows sent per statement: a month of a large bill is a few hundred thousand. */
const INSERT_CHUNK = 5000;

// One array per column, unnested into rows: a chunk is one statement of a fixed number of parameters.
const INSERT_SPEND = `INSERT INTO spend_daily (source, ${SPEND_COLUMNS.map(([name]) => name).join(', ')})
  SELECT $1, * FROM unnest(${SPEND_COLUMNS.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')})`;

/** Inserts a batch's rows, each with the export part it came from (if any). Runs inside the caller's transaction. */
export async function insertSpendRows(tx: PgSession, batch: SpendBatch): Promise<number> {
  const parts = batch.scope.parts ?? [];
  for (let start = 0; start < batch.rows.length; start += INSERT_CHUNK) {
    const chunk = batch.rows.slice(start, start + INSERT_CHUNK);
    const columns = SPEND_COLUMNS.map(([, , value]) =>
      chunk.map((row) => value(row, row.part === undefined ? undefined : parts[row.part]) ?? null),
    );
    await tx.run(INSERT_SPEND, [batch.scope.source, ...columns]);
  }
  return batch.rows.length;
}
