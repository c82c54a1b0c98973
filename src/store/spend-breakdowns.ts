import type { Period } from '../domain/period.js';
import type { CategoryDay, CostLine, Priced, UnitKind, UnitTotal } from '../domain/cost-breakdown.js';
import type { Session } from './session.js';

// Each slice comes in parts, one per currency and billing period, never summed across them: the
// read model (snapshots/team-breakdowns.ts) converts each part at its period's rate, then adds,
// ranks and cuts. Ranking yen beside dollars before converting would put every yen line first.
const UNIT_COLUMN: Record<UnitKind, string> = { experiment: 'experiment', run: 'run_id', sweep: 'sweep' };

/** The slices of one team's month a cost review shows, names compared as SQLite compares them. */
export class SqlSpendBreakdownStore {
  constructor(private readonly db: Session) {}

  /** A team's effective spend per day and service category: the review's chart. */
  async dailyByCategory(period: Period, team: string): Promise<(CategoryDay & Priced)[]> {
    const d = this.db.dialect;
    return this.db.rows<CategoryDay & Priced>(
      `SELECT day, ${d.bytes("coalesce(service_category, 'Other')")} AS category, ${d.bytes('currency')} AS currency, billing_period AS period,
         ${d.money('effective')} AS effective
       FROM spend_daily WHERE day >= ? AND day < ? AND team = ?
       GROUP BY day, category, currency, period ORDER BY day, category, currency, period`,
      [period.start, period.end, team],
    );
  }

  /** A team's usage lines: a resource, or a service where the bill names no resource. */
  async costLines(period: Period, team: string): Promise<(CostLine & Priced)[]> {
    const d = this.db.dialect;
    return this.db.rows<CostLine & Priced>(
      `SELECT ${d.bytes('coalesce(resource_id, service)')} AS key, max(${d.bytes('resource_id')}) AS "resourceId",
         max(${d.bytes('resource_name')}) AS "resourceName", max(${d.bytes('service')}) AS service,
         max(${d.bytes("coalesce(service_category, 'Other')")}) AS category, max(${d.bytes('pricing_category')}) AS pricing,
         ${d.bytes('currency')} AS currency, billing_period AS period, ${d.money('effective')} AS effective
       FROM spend_daily WHERE day >= ? AND day < ? AND team = ? AND charge_category = 'Usage'
       GROUP BY key, currency, period ORDER BY key, currency, period`,
      [period.start, period.end, team],
    );
  }

  /** A team's spend per experiment, run or sweep tag value (untagged lines left out). */
  async unitTotals(period: Period, team: string, unit: UnitKind): Promise<(UnitTotal & Priced)[]> {
    const d = this.db.dialect;
    const column = UNIT_COLUMN[unit];
    return this.db.rows<UnitTotal & Priced>(
      `SELECT ${d.bytes(column)} AS key, ${d.bytes('currency')} AS currency, billing_period AS period, ${d.money('effective')} AS effective
       FROM spend_daily WHERE day >= ? AND day < ? AND team = ? AND ${column} IS NOT NULL
       GROUP BY key, currency, period ORDER BY key, currency, period`,
      [period.start, period.end, team],
    );
  }
}
