import type Database from 'better-sqlite3';
import type { Period } from '../../domain/period.js';
import type { CategoryDay, CostLine, UnitKind, UnitTotal } from '../../domain/cost-breakdown.js';
import { UNIT_COLUMN, type SpendBreakdownStore } from '../spend-breakdowns.js';

/** The slices of one team's month a cost review shows: by day and category, by cost line, by unit. */
export class SqliteSpendBreakdownStore implements SpendBreakdownStore {
  constructor(private readonly db: Database.Database) {}

  async dailyByCategory(period: Period, team: string): Promise<CategoryDay[]> {
    return this.db
      .prepare(
        `SELECT day, coalesce(service_category, 'Other') AS category, sum(effective) AS effective
         FROM spend_daily WHERE day >= ? AND day < ? AND team = ? GROUP BY day, category ORDER BY day, category`,
      )
      .all(period.start, period.end, team) as CategoryDay[];
  }

  async costLines(period: Period, team: string, limit: number): Promise<CostLine[]> {
    // A line is a resource, or a service where the bill names no resource (support, data transfer).
    return this.db
      .prepare(
        `SELECT coalesce(resource_id, service) AS key, max(resource_id) AS resourceId, max(resource_name) AS resourceName, max(service) AS service,
           max(coalesce(service_category, 'Other')) AS category, max(pricing_category) AS pricing, sum(effective) AS effective
         FROM spend_daily WHERE day >= ? AND day < ? AND team = ? AND charge_category = 'Usage'
         GROUP BY key HAVING sum(effective) > 0 ORDER BY sum(effective) DESC, key LIMIT ?`,
      )
      .all(period.start, period.end, team, limit) as CostLine[];
  }

  async unitTotals(period: Period, team: string, unit: UnitKind): Promise<UnitTotal[]> {
    const column = UNIT_COLUMN[unit];
    return this.db
      .prepare(
        `SELECT ${column} AS key, sum(effective) AS effective FROM spend_daily
         WHERE day >= ? AND day < ? AND team = ? AND ${column} IS NOT NULL GROUP BY key ORDER BY effective DESC, key`,
      )
      .all(period.start, period.end, team) as UnitTotal[];
  }
}
