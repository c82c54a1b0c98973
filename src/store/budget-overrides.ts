import type { BudgetOverride } from '../domain/budget-override.js';

export interface BudgetOverrideStore {
  set(override: BudgetOverride): Promise<void>;
  list(): Promise<BudgetOverride[]>;
}

export interface OverrideRow {
  team: string;
  cadence: BudgetOverride['cadence'];
  amount: number;
  thresholds: string | null;
  byUser: string;
  at: string;
}

/** Sets (or replaces) a team's budget of one cadence; the same statement on both stores. */
export const SET_OVERRIDE = `INSERT INTO budget_overrides (team, cadence, amount, thresholds, by_user, at) VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (team, cadence) DO UPDATE SET amount = excluded.amount, thresholds = excluded.thresholds,
    by_user = excluded.by_user, at = excluded.at`;

export function overrideValues(o: BudgetOverride): [string, string, number, string | null, string, string] {
  return [o.team, o.cadence, o.amount, o.thresholds ? JSON.stringify(o.thresholds) : null, o.byUser, o.at.toISOString()];
}

export function overrideFromRow(row: OverrideRow): BudgetOverride {
  return { ...row, thresholds: row.thresholds ? (JSON.parse(row.thresholds) as number[]) : null, at: new Date(row.at) };
}
