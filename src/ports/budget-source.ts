import type { CloudBudget } from '../domain/cloud-budget.js';
import type { PullContext } from './pull-context.js';

/** Budgets defined in a cloud's own budget service. Each listing replaces the source's previous one. */
export interface BudgetSource {
  /** The id its freshness and failures are recorded under, e.g. `aws:budgets`. */
  readonly id: string;
  readonly origin: CloudBudget['origin'];
  listBudgets(ctx: PullContext): Promise<CloudBudget[]>;
}
