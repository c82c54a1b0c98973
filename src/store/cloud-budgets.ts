import type { CloudBudget } from '../domain/cloud-budget.js';

export interface CloudBudgetStore {
  /** Replaces everything `source` listed before, and records its freshness, in one transaction. */
  replace(source: string, budgets: readonly CloudBudget[], now: Date): Promise<void>;
  list(): Promise<CloudBudget[]>;
}
