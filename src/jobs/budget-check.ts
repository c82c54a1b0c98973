import type { Deps } from '../deps.js';
import { budgetCheck, type BudgetCheckOptions, type BudgetCheckResult } from '../checks/budget/definition.js';
import { runCheck } from './run-check.js';

/** The budget check now (the command line, a budget change): the check is defined in checks/budget/. */
export function runBudgetCheck(deps: Deps, options: BudgetCheckOptions = {}): Promise<BudgetCheckResult> {
  return runCheck(deps, budgetCheck(options), options);
}
