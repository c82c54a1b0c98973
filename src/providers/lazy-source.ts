import type { BudgetSource } from '../ports/budget-source.js';
import type { SpendSource } from '../ports/spend-source.js';

// The cloud SDKs (AWS Cost Explorer and Budgets, BigQuery, Cloud Billing) take seconds to load.
// Sources built from burnrate.yml load theirs on first use, so that a CLI command that pulls
// nothing (help, spend, budgets) starts at once, and one without cloud sources never loads them.

/** A spend source whose module is imported on its first pull. */
export function lazySpendSource(id: string, type: string, load: () => Promise<SpendSource>): SpendSource {
  let loaded: Promise<SpendSource> | undefined;
  return { id, type, pull: async (ctx) => (await (loaded ??= load())).pull(ctx) };
}

/** A budget source whose module is imported on its first listing. */
export function lazyBudgetSource(id: string, origin: BudgetSource['origin'], load: () => Promise<BudgetSource>): BudgetSource {
  let loaded: Promise<BudgetSource> | undefined;
  return { id, origin, listBudgets: async (ctx) => (await (loaded ??= load())).listBudgets(ctx) };
}
