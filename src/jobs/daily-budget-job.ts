import type { Deps } from '../deps.js';
import type { BudgetCheckResult } from '../checks/budget/definition.js';
import { runBudgetCheck } from './budget-check.js';
import { handOverAlerts } from '../outbox/delivery-loop.js';
import { refreshSources, type RefreshResult } from './refresh-sources.js';

/**
 * The scheduled budget run, step by step:
 *   1. refresh every source (incremental for cloud APIs; a failure marks the source stale)
 *   2. check budgets of the given teams (teams fed by a stale source are held and told why)
 *   3. hand what was queued to delivery
 */
export async function runDailyBudgetJob(
  deps: Deps,
  teams?: readonly string[],
): Promise<{ refreshed: RefreshResult[]; check: BudgetCheckResult }> {
  const refreshed = await refreshSources(deps);
  const check = await runBudgetCheck(deps, teams ? { teams } : {});
  await handOverAlerts(deps);
  return { refreshed, check };
}
