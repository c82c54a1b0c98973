import type { Period } from '../../domain/period.js';
import type { CategoryDay, CostLine, UnitKind, UnitTotal } from '../../domain/cost-breakdown.js';
import { UNIT_COLUMN, type SpendBreakdownStore } from '../spend-breakdowns.js';
import { bytes } from './pg-collation.js';
import type { PgDb } from './pg-db.js';

/** The slices of one team's month a cost review shows (SpendBreakdownStore), names compared as SQLite compares them. */
export class PgSpendBreakdownStore implements SpendBreakdownStore {
  constructor(private readonly db: PgDb) {}

  async dailyByCategory(period: Period, team: string): Promise<CategoryDay[]> {
    return this.db.rows<CategoryDay>(
      `SELECT day, ${bytes("coalesce(service_category, 'Other')")} AS category, sum(effective) AS effective
       FROM spend_daily WHERE day >= $1 AND day < $2 AND team = $3 GROUP BY day, category ORDER BY day, category`,
      [period.start, period.end, team],
    );
  }

  async costLines(period: Period, team: string, limit: number): Promise<CostLine[]> {
    // A line is a resource, or a service where the bill names no resource (support, data transfer).
    return this.db.rows<CostLine>(
      `SELECT ${bytes('coalesce(resource_id, service)')} AS key, max(${bytes('resource_id')}) AS "resourceId",
         max(${bytes('resource_name')}) AS "resourceName", max(${bytes('service')}) AS service,
         max(${bytes("coalesce(service_category, 'Other')")}) AS category, max(${bytes('pricing_category')}) AS pricing,
         sum(effective) AS effective
       FROM spend_daily WHERE day >= $1 AND day < $2 AND team = $3 AND charge_category = 'Usage'
       GROUP BY key HAVING sum(effective) > 0 ORDER BY sum(effective) DESC, key LIMIT $4`,
      [period.start, period.end, team, limit],
    );
  }

  async unitTotals(period: Period, team: string, unit: UnitKind): Promise<UnitTotal[]> {
    const column = UNIT_COLUMN[unit];
    return this.db.rows<UnitTotal>(
      `SELECT ${bytes(column)} AS key, sum(effective) AS effective FROM spend_daily
       WHERE day >= $1 AND day < $2 AND team = $3 AND ${column} IS NOT NULL GROUP BY key ORDER BY effective DESC, key`,
      [period.start, period.end, team],
    );
  }
}
