import type Database from 'better-sqlite3';
import type { BudgetOverride } from '../../domain/budget-override.js';
import { overrideFromRow, overrideValues, SET_OVERRIDE, type BudgetOverrideStore, type OverrideRow } from '../budget-overrides.js';
import { forSqlite } from './sql-params.js';

/** Budgets set from chat (`/burnrate budget set`); they win over burnrate.yml. */
export class SqliteBudgetOverrideStore implements BudgetOverrideStore {
  private readonly setStatement: Database.Statement<[string, string, number, string | null, string, string]>;
  private readonly listStatement: Database.Statement<[], OverrideRow>;

  constructor(db: Database.Database) {
    // Prepared once: every budget command lists them.
    this.setStatement = db.prepare(forSqlite(SET_OVERRIDE));
    this.listStatement = db.prepare<[], OverrideRow>(
      'SELECT team, cadence, amount, thresholds, by_user AS byUser, at FROM budget_overrides ORDER BY team, cadence',
    );
  }

  async set(override: BudgetOverride): Promise<void> {
    this.setStatement.run(...overrideValues(override));
  }

  async list(): Promise<BudgetOverride[]> {
    return this.listStatement.all().map(overrideFromRow);
  }
}
