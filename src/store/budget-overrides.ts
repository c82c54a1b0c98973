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

export function overrideFromRow(row: OverrideRow): BudgetOverride {
  return { ...row, thresholds: row.thresholds ? (JSON.parse(row.thresholds) as number[]) : null, at: new Date(row.at) };
}
