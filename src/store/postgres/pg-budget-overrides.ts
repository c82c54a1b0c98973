import type { BudgetOverride } from '../../domain/budget-override.js';
import { overrideFromRow, type BudgetOverrideStore, type OverrideRow } from '../budget-overrides.js';
import type { PgDb } from './pg-db.js';

/** Budgets set from chat (budget-overrides.ts). */
export class PgBudgetOverrideStore implements BudgetOverrideStore {
  constructor(private readonly db: PgDb) {}

  async set(override: BudgetOverride): Promise<void> {
    await this.db.run(
      `INSERT INTO budget_overrides (team, cadence, amount, thresholds, by_user, at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (team, cadence) DO UPDATE SET amount = excluded.amount, thresholds = excluded.thresholds,
         by_user = excluded.by_user, at = excluded.at`,
      [
        override.team,
        override.cadence,
        override.amount,
        override.thresholds ? JSON.stringify(override.thresholds) : null,
        override.byUser,
        override.at.toISOString(),
      ],
    );
  }

  async list(): Promise<BudgetOverride[]> {
    const rows = await this.db.rows<OverrideRow>(
      'SELECT team, cadence, amount, thresholds, by_user AS "byUser", at FROM budget_overrides ORDER BY team COLLATE "C", cadence COLLATE "C"',
    );
    return rows.map(overrideFromRow);
  }
}
