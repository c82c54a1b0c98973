import type { BudgetOverride } from '../domain/budget-override.js';
import type { Session } from './session.js';

type OverrideRow = Omit<BudgetOverride, 'thresholds' | 'at'> & { thresholds: string | null; at: string };

/** Budgets set from chat (`/burnrate budget set`); they win over burnrate.yml. */
export class SqlBudgetOverrideStore {
  constructor(private readonly db: Session) {}

  /** Sets (or replaces) a team's budget of one cadence. */
  async set(o: BudgetOverride): Promise<void> {
    await this.db.run(
      `INSERT INTO budget_overrides (team, cadence, amount, thresholds, by_user, at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (team, cadence) DO UPDATE SET amount = excluded.amount, thresholds = excluded.thresholds,
         by_user = excluded.by_user, at = excluded.at`,
      [o.team, o.cadence, o.amount, o.thresholds ? JSON.stringify(o.thresholds) : null, o.byUser, o.at.toISOString()],
    );
  }

  async list(): Promise<BudgetOverride[]> {
    const rows = await this.db.rows<OverrideRow>(
      `SELECT team, cadence, amount, thresholds, by_user AS "byUser", at FROM budget_overrides ORDER BY ${this.db.dialect.order('team', 'cadence')}`,
    );
    return rows.map((row) => ({
      ...row,
      thresholds: row.thresholds ? (JSON.parse(row.thresholds) as number[]) : null,
      at: new Date(row.at),
    }));
  }
}
