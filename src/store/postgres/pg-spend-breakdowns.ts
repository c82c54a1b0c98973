import { postgresMoneySum } from '../dialect/money-sum.js';
import type { Period } from '../../domain/period.js';
import type { CategoryDay, CostLine, Priced, UnitKind, UnitTotal } from '../../domain/cost-breakdown.js';
import { UNIT_COLUMN, type SpendBreakdownStore } from '../spend-breakdowns.js';
import { bytes } from './pg-collation.js';
import type { PgDb } from './pg-db.js';

/** The slices of one team's month a cost review shows (SpendBreakdownStore), names compared as SQLite compares them. */
export class PgSpendBreakdownStore implements SpendBreakdownStore {
  constructor(private readonly db: PgDb) {}

  async dailyByCategory(period: Period, team: string): Promise<(CategoryDay & Priced)[]> {
    return this.db.rows<CategoryDay & Priced>(
      `SELECT day, ${bytes("coalesce(service_category, 'Other')")} AS category, ${bytes('currency')} AS currency, billing_period AS period,
         ${postgresMoneySum('effective')} AS effective
       FROM spend_daily WHERE day >= $1 AND day < $2 AND team = $3
       GROUP BY day, category, currency, period ORDER BY day, category, currency, period`,
      [period.start, period.end, team],
    );
  }

  async costLines(period: Period, team: string): Promise<(CostLine & Priced)[]> {
    return this.db.rows<CostLine & Priced>(
      `SELECT ${bytes('coalesce(resource_id, service)')} AS key, max(${bytes('resource_id')}) AS "resourceId",
         max(${bytes('resource_name')}) AS "resourceName", max(${bytes('service')}) AS service,
         max(${bytes("coalesce(service_category, 'Other')")}) AS category, max(${bytes('pricing_category')}) AS pricing,
         ${bytes('currency')} AS currency, billing_period AS period, ${postgresMoneySum('effective')} AS effective
       FROM spend_daily WHERE day >= $1 AND day < $2 AND team = $3 AND charge_category = 'Usage'
       GROUP BY key, currency, period ORDER BY key, currency, period`,
      [period.start, period.end, team],
    );
  }

  async unitTotals(period: Period, team: string, unit: UnitKind): Promise<(UnitTotal & Priced)[]> {
    const column = UNIT_COLUMN[unit];
    return this.db.rows<UnitTotal & Priced>(
      `SELECT ${bytes(column)} AS key, ${bytes('currency')} AS currency, billing_period AS period, ${postgresMoneySum('effective')} AS effective FROM spend_daily
       WHERE day >= $1 AND day < $2 AND team = $3 AND ${column} IS NOT NULL GROUP BY key, currency, period ORDER BY key, currency, period`,
      [period.start, period.end, team],
    );
  }
}
