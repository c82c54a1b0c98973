import type Database from 'better-sqlite3';
import type { BudgetOverride, BudgetOverrideStore } from './store.js';

/** Budgets set from chat (`/burnrate budget set`); they win over burnrate.yml. */
export class SqliteBudgetOverrideStore implements BudgetOverrideStore {
  constructor(private readonly db: Database.Database) {}

  async set(override: BudgetOverride): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO budget_overrides (team, cadence, amount, thresholds, by_user, at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (team, cadence) DO UPDATE SET amount = excluded.amount, thresholds = excluded.thresholds,
           by_user = excluded.by_user, at = excluded.at`,
      )
      .run(override.team, override.cadence, override.amount, override.thresholds ? JSON.stringify(override.thresholds) : null, override.byUser, override.at.toISOString());
  }

  async list(): Promise<BudgetOverride[]> {
    const rows = this.db.prepare('SELECT team, cadence, amount, thresholds, by_user AS byUser, at FROM budget_overrides ORDER BY team, cadence').all() as {
      team: string;
      cadence: BudgetOverride['cadence'];
      amount: number;
      thresholds: string | null;
      byUser: string;
      at: string;
    }[];
    return rows.map((r) => ({ ...r, thresholds: r.thresholds ? (JSON.parse(r.thresholds) as number[]) : null, at: new Date(r.at) }));
  }
}
