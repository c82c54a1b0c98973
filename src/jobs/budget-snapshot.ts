import type { BudgetSnapshot } from '../checks/budget.js';
import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import { combinedDataThrough } from '../domain/data-through.js';
import { applyBudgetOverrides } from '../domain/effective-budgets.js';
import { addDays, dayInZone } from '../domain/period.js';

/**
 * Daily spend per team with the budgets in force (burnrate.yml plus those set from chat): what
 * budget checks and budget status run on.
 */
export async function loadBudgetSnapshot(deps: Pick<Deps, 'config' | 'store'>, teams: readonly TeamConfig[], now: Date): Promise<BudgetSnapshot> {
  // Enough history for the longest period plus the forecast's lookback window.
  const since = addDays(dayInZone(now, 'UTC'), -(deps.config.forecast.lookbackDays + 40));
  const [rows, freshness, overrides] = await Promise.all([deps.store.spend.dailyByTeam(since), deps.store.freshness.list(), deps.store.budgets.list()]);
  const daily = new Map<string, Map<string, number>>();
  for (const row of rows) {
    let days = daily.get(row.team);
    if (!days) daily.set(row.team, (days = new Map()));
    days.set(row.day, row.effective);
  }
  return { teams: applyBudgetOverrides(teams, overrides), daily, dataThrough: combinedDataThrough(freshness) };
}
