import type { BudgetOverride } from '../../domain/budget-override.js';
import { overrideFromRow, overrideValues, SET_OVERRIDE, type BudgetOverrideStore, type OverrideRow } from '../budget-overrides.js';
import type { PgDb } from './pg-db.js';

/** Budgets set from chat (budget-overrides.ts). */
export class PgBudgetOverrideStore implements BudgetOverrideStore {
  constructor(private readonly db: PgDb) {}

  async set(override: BudgetOverride): Promise<void> {
    await this.db.run(SET_OVERRIDE, overrideValues(override));
  }

  async list(): Promise<BudgetOverride[]> {
    const rows = await this.db.rows<OverrideRow>(
      'SELECT team, cadence, amount, thresholds, by_user AS "byUser", at FROM budget_overrides ORDER BY team COLLATE "C", cadence COLLATE "C"',
    );
    return rows.map(overrideFromRow);
  }
}
