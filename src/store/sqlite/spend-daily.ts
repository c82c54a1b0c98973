import { sqliteMoneySum } from '../dialect/money-sum.js';
import { KUBE_ATTRIBUTION_SOURCE } from '../kube-attribution.js';
import { WORKLOAD_ID_PREFIX } from '../../domain/kubernetes.js';
import type Database from 'better-sqlite3';
import type { Period } from '../../domain/period.js';
import type { ResourceCost, ResourceDay, ResourceHours, UnusedCommitment } from '../../domain/resource-cost.js';
import type { BillRate } from '../../domain/fx.js';
import { isExtensionDimension, type ExtensionDimension, type SpendDimension } from '../../domain/spend.js';
import type { CurrencyTotal, SpendFilter, TeamDay } from '../../domain/spend-totals.js';
import type { CostKind } from '../../domain/cost-kind.js';
import type { InvoiceLine } from '../../domain/invoice-line.js';
import type { Correction } from '../../domain/correction.js';
import { DIMENSION_COLUMN, nextMonthOf, totalsRange, type SpendStore } from '../spend-daily.js';

/** Team IN-lists of more members than this are prepared per call instead of kept. */
const MAX_CACHED_TEAM_ARITY = 64;

/**
 * Statements are prepared once: chat commands read this store on every request. The totals query
 * has one shape per dimension and team-list length, kept in a small map as they are first used.
 */
export class SqliteSpendStore implements SpendStore {
  private readonly totalsStatements = new Map<string, Database.Statement>();
  private readonly dailyByTeamStatement: Database.Statement<[string], [string, string, string, CostKind, number, number]>;

  constructor(private readonly db: Database.Database) {
    // Raw rows (arrays): building an object per row in better-sqlite3 costs more than the mapping below.
    this.dailyByTeamStatement = db
      .prepare<
        [string],
        [string, string, string, CostKind, number, number]
      >('SELECT team, day, currency, kind, billed, effective FROM spend_team_days WHERE day >= ?')
      .raw(true);
  }

  async totals(filter: SpendFilter, by: SpendDimension): Promise<CurrencyTotal[]> {
    const teams = filter.teams;
    const invoice = filter.basis === 'invoice';
    return this.totalsStatement(by, teams, invoice, filter.byPeriod === true).all(
      ...totalsRange(filter),
      ...(teams ?? []),
    ) as CurrencyTotal[];
  }

  async dailyByTeam(since: string): Promise<TeamDay[]> {
    return this.dailyByTeamStatement
      .all(since)
      .map(([team, day, currency, kind, billed, effective]) => ({ team, day, currency, kind, billed, effective }));
  }

  async committedResources(since: string): Promise<string[]> {
    return this.db
      .prepare<[string], string>(
        `SELECT DISTINCT resource_id FROM spend_daily
         WHERE day >= ? AND resource_id IS NOT NULL AND resource_id <> ''
           AND (pricing_category = 'Committed' OR lower(commitment_discount_status) = 'used')`,
      )
      .pluck()
      .all(since);
  }

  async resourceCosts(period: Period, resourceIds: readonly string[]): Promise<ResourceCost[]> {
    if (resourceIds.length === 0) return [];
    // The ids travel as one JSON array: a fleet of thousands would pass SQLite's variable limit.
    return this.db
      .prepare<[string, string, string], ResourceCost>(
        `SELECT resource_id AS resourceId, team, currency, billing_period AS period, commitment_discount_id AS commitmentId,
           ${sqliteMoneySum('effective')} AS effective, count(DISTINCT CASE WHEN effective <> 0 THEN day END) AS days,
           sum(usage_hours) AS hours, max(commitment_end) AS commitmentEnd,
           max(provider) AS provider, max(resource_name) AS resourceName
         FROM spend_daily
         WHERE day >= ? AND day < ? AND resource_id IN (SELECT value FROM json_each(?))
           AND (source <> '${KUBE_ATTRIBUTION_SOURCE}' OR resource_id LIKE '${WORKLOAD_ID_PREFIX}%')
         GROUP BY resource_id, team, currency, billing_period, commitment_discount_id`,
      )
      .all(period.start, period.end, JSON.stringify(resourceIds));
  }

  async resourceHours(since: string): Promise<ResourceHours[]> {
    return this.db
      .prepare<[string], ResourceHours>(
        `SELECT resource_id AS resourceId, currency, billing_period AS period, ${sqliteMoneySum('effective')} AS effective, sum(usage_hours) AS hours
         FROM spend_daily WHERE day >= ? AND usage_hours > 0 AND resource_id IS NOT NULL AND source <> '${KUBE_ATTRIBUTION_SOURCE}'
         GROUP BY resource_id, currency, billing_period`,
      )
      .all(since);
  }

  async resourceDays(period: Period, resourceIds: readonly string[]): Promise<ResourceDay[]> {
    if (resourceIds.length === 0) return [];
    return this.db
      .prepare<[string, string, string], ResourceDay>(
        `SELECT resource_id AS resourceId, day, currency, billing_period AS period, ${sqliteMoneySum('effective')} AS effective, sum(usage_hours) AS hours
         FROM spend_daily
         WHERE day >= ? AND day < ? AND resource_id IN (SELECT value FROM json_each(?)) AND source <> '${KUBE_ATTRIBUTION_SOURCE}'
         GROUP BY resource_id, day, currency, billing_period`,
      )
      .all(period.start, period.end, JSON.stringify(resourceIds));
  }

  async unusedCommitments(period: Period): Promise<UnusedCommitment[]> {
    return this.db
      .prepare<[string, string], UnusedCommitment>(
        `SELECT commitment_discount_id AS commitmentId, currency, billing_period AS period, ${sqliteMoneySum('effective')} AS effective,
           max(commitment_end) AS commitmentEnd
         FROM spend_daily
         WHERE day >= ? AND day < ? AND lower(commitment_discount_status) = 'unused' AND commitment_discount_id IS NOT NULL
         GROUP BY commitment_discount_id, currency, billing_period`,
      )
      .all(period.start, period.end);
  }

  async billRates(): Promise<BillRate[]> {
    return this.db
      .prepare<[], BillRate>(
        `SELECT billing_period AS billingPeriod, currency, pricing_currency AS pricingCurrency,
           ${sqliteMoneySum('effective')} AS effective, ${sqliteMoneySum('pricing_currency_effective_cost')} AS pricingEffective
         FROM spend_daily
         WHERE pricing_currency IS NOT NULL AND pricing_currency <> currency AND pricing_currency_effective_cost IS NOT NULL
         GROUP BY billing_period, currency, pricing_currency`,
      )
      .all();
  }

  async invoiceLines(billingPeriod: string): Promise<InvoiceLine[]> {
    const rows = this.db
      .prepare<[string], Omit<InvoiceLine, 'hasResource'> & { hasResource: number }>(
        `SELECT team, owner_tag AS ownerTag, provider, charge_category AS chargeCategory, cost_kind AS kind,
           resource_id IS NOT NULL AND resource_id <> '' AS hasResource, commitment_discount_id AS commitmentId,
           commitment_discount_status AS commitmentStatus, currency, ${sqliteMoneySum('billed')} AS billed, ${sqliteMoneySum('effective')} AS effective
         FROM spend_daily WHERE billing_period = ?
         GROUP BY team, owner_tag, provider, charge_category, cost_kind, hasResource, commitment_discount_id, commitment_discount_status, currency`,
      )
      .all(billingPeriod);
    return rows.map((r) => ({ ...r, hasResource: r.hasResource === 1 }));
  }

  async corrections(team: string, month: string): Promise<Correction[]> {
    return this.db
      .prepare<[string, string, string], Correction>(
        `SELECT billing_period AS billingPeriod, service, resource_id AS resourceId, max(resource_name) AS resourceName, currency,
           ${sqliteMoneySum('billed')} AS billed, ${sqliteMoneySum('effective')} AS effective
         FROM spend_daily WHERE team = ? AND charge_class = 'Correction' AND day >= ? AND day < ?
         GROUP BY billing_period, service, resource_id, currency ORDER BY billing_period, service, resource_id`,
      )
      .all(team, `${month}-01`, `${nextMonthOf(month)}-01`);
  }

  async teamsOf(source: string, since: string): Promise<string[]> {
    return this.db
      .prepare<[string, string], string>('SELECT DISTINCT team FROM spend_daily WHERE source = ? AND day >= ? ORDER BY team')
      .pluck()
      .all(source, since);
  }

  /** The totals query for a dimension and a team filter of this many teams (none: every team). */
  private totalsStatement(
    by: SpendDimension,
    teams: readonly string[] | undefined,
    invoice: boolean,
    byPeriod: boolean,
  ): Database.Statement {
    const arity = teams === undefined ? -1 : teams.length;
    const cacheKey = `${by}:${arity}:${invoice ? 'invoice' : 'charge'}:${byPeriod}`;
    const cached = this.totalsStatements.get(cacheKey);
    if (cached) return cached;
    const key = isExtensionDimension(by) ? extensionColumn(by) : DIMENSION_COLUMN[by];
    const order = by === 'day' ? 'key' : 'effective DESC, key';
    const statement = this.db.prepare(
      `SELECT ${key} AS key, currency, ${byPeriod ? 'billing_period AS period, ' : ''}${sqliteMoneySum('billed')} AS billed, ${sqliteMoneySum('effective')} AS effective
       FROM spend_daily WHERE ${invoice ? 'billing_period >= ? AND billing_period <= ?' : 'day >= ? AND day < ?'} ${teamClause(arity)}
       GROUP BY key, currency${byPeriod ? ', period' : ''} ORDER BY ${order}${byPeriod ? ', period' : ''}`,
    );
    if (arity <= MAX_CACHED_TEAM_ARITY) this.totalsStatements.set(cacheKey, statement);
    return statement;
  }
}

/** A provider column kept in the rows' extensions; rows of sources that do not keep it say "(none)". */
function extensionColumn(by: ExtensionDimension): string {
  // The name is checked (x_ then letters, digits, underscores): safe to put in the SQL as it is.
  if (!isExtensionDimension(by)) throw new Error(`not a provider column: ${by}`);
  return `coalesce(json_extract(extensions, '$.${by}'), '(none)')`;
}

/** The team filter for a list of `arity` teams, bound as parameters; -1: no filter. */
function teamClause(arity: number): string {
  if (arity < 0) return '';
  if (arity === 0) return 'AND 0';
  return `AND team IN (${Array.from({ length: arity }, () => '?').join(',')})`;
}
