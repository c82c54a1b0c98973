import { sqliteMoneySum } from '../dialect/money-sum.js';
import type Database from 'better-sqlite3';
import type { Period } from '../../domain/period.js';
import type { CategoryDay, CostLine, Priced, UnitKind, UnitTotal } from '../../domain/cost-breakdown.js';
import { UNIT_COLUMN, type SpendBreakdownStore } from '../spend-breakdowns.js';

/** The slices of one team's month a cost review shows: by day and category, by cost line, by unit. */
export class SqliteSpendBreakdownStore implements SpendBreakdownStore {
  constructor(private readonly db: Database.Database) {}

  async dailyByCategory(period: Period, team: string): Promise<(CategoryDay & Priced)[]> {
    return this.db
      .prepare(
        `SELECT day, coalesce(service_category, 'Other') AS category, currency, billing_period AS period, ${sqliteMoneySum('effective')} AS effective
         FROM spend_daily WHERE day >= ? AND day < ? AND team = ? GROUP BY day, category, currency, period ORDER BY day, category, currency, period`,
      )
      .all(period.start, period.end, team) as (CategoryDay & Priced)[];
  }

  async costLines(period: Period, team: string): Promise<(CostLine & Priced)[]> {
    return this.db
      .prepare(
        `SELECT coalesce(resource_id, service) AS key, max(resource_id) AS resourceId, max(resource_name) AS resourceName, max(service) AS service,
           max(coalesce(service_category, 'Other')) AS category, max(pricing_category) AS pricing, currency, billing_period AS period,
           ${sqliteMoneySum('effective')} AS effective
         FROM spend_daily WHERE day >= ? AND day < ? AND team = ? AND charge_category = 'Usage'
         GROUP BY key, currency, period ORDER BY key, currency, period`,
      )
      .all(period.start, period.end, team) as (CostLine & Priced)[];
  }

  async unitTotals(period: Period, team: string, unit: UnitKind): Promise<(UnitTotal & Priced)[]> {
    const column = UNIT_COLUMN[unit];
    return this.db
      .prepare(
        `SELECT ${column} AS key, currency, billing_period AS period, ${sqliteMoneySum('effective')} AS effective FROM spend_daily
         WHERE day >= ? AND day < ? AND team = ? AND ${column} IS NOT NULL GROUP BY key, currency, period ORDER BY key, currency, period`,
      )
      .all(period.start, period.end, team) as (UnitTotal & Priced)[];
  }
}
