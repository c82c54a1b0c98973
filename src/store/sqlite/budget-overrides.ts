import type Database from 'better-sqlite3';
import type { BudgetOverride } from '../../domain/budget-override.js';
import { overrideFromRow, type BudgetOverrideStore, type OverrideRow } from '../budget-overrides.js';

/** Budgets set from chat (`/burnrate budget set`); they win over burnrate.yml. */
export class SqliteBudgetOverrideStore implements BudgetOverrideStore {
  private readonly setStatement: Database.Statement<[string, string, number, string | null, string, string]>;
  private readonly listStatement: Database.Statement<[], OverrideRow>;

  constructor(db: Database.Database) {
    // Prepared once: every budget command lists them.
    this.setStatement = db.prepare(
      `INSERT INTO budget_overrides (team, cadence, amount, thresholds, by_user, at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (team, cadence) DO UPDATE SET amount = excluded.amount, thresholds = excluded.thresholds,
         by_user = excluded.by_user, at = excluded.at`,
    );
    this.listStatement = db.prepare<[], OverrideRow>(
      'SELECT team, cadence, amount, thresholds, by_user AS byUser, at FROM budget_overrides ORDER BY team, cadence',
    );
  }

  async set(override: BudgetOverride): Promise<void> {
    this.setStatement.run(
      override.team,
      override.cadence,
      override.amount,
      override.thresholds ? JSON.stringify(override.thresholds) : null,
      override.byUser,
      override.at.toISOString(),
    );
  }

  async list(): Promise<BudgetOverride[]> {
    return this.listStatement.all().map(overrideFromRow);
  }
}
