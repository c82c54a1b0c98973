import type { BudgetSnapshot } from '../checks/budget.js';
import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { CloudBudget } from '../domain/cloud-budget.js';
import { applyCloudBudgets } from '../domain/cloud-team-budgets.js';
import { combinedDataThrough } from '../domain/data-through.js';
import { applyBudgetOverrides } from '../domain/effective-budgets.js';
import { addDays, dayInZone } from '../domain/period.js';
import { staleSources, type StaleSource } from '../domain/staleness.js';

export interface LoadedBudgetSnapshot extends BudgetSnapshot<TeamConfig> {
  /** The teams with the budgets set from chat applied, before the clouds' budgets stand in. */
  configured: TeamConfig[];
  /** The clouds' budgets as last listed, mapped to teams or not. */
  cloudBudgets: CloudBudget[];
  /** Sources whose last refresh failed: the numbers behind the snapshot are older than they look. */
  stale: StaleSource[];
  /**
   * Team id -> the failing spend sources it has spend from (a source that never loaded counts for
   * every team): those teams' checks are held.
   */
  staleTeams: Map<string, StaleSource[]>;
}

/**
 * Daily spend per team with the budgets in force (burnrate.yml, then those set from chat, then the
 * clouds' own budgets for teams with none): what budget checks and budget status run on.
 */
export async function loadBudgetSnapshot(
  deps: Pick<Deps, 'config' | 'store'>,
  teams: readonly TeamConfig[],
  now: Date,
): Promise<LoadedBudgetSnapshot> {
  // Enough history for the longest period plus the forecast's lookback window.
  const since = addDays(dayInZone(now, 'UTC'), -(deps.config.forecast.lookbackDays + 40));
  const [rows, freshness, overrides, cloudBudgets, failures] = await Promise.all([
    deps.store.spend.dailyByTeam(since),
    deps.store.freshness.list(),
    deps.store.budgets.list(),
    deps.store.cloudBudgets.list(),
    deps.store.freshness.failures(),
  ]);
  const daily = new Map<string, Map<string, number>>();
  for (const row of rows) {
    let days = daily.get(row.team);
    if (!days) daily.set(row.team, (days = new Map()));
    days.set(row.day, (days.get(row.day) ?? 0) + row.effective);
  }
  const stale = staleSources(deps.config, freshness, failures, now);
  const staleTeams = new Map<string, StaleSource[]>();
  for (const source of stale.filter((s) => s.kind === 'spend')) {
    const fed = source.ageHours === null ? teams.map((t) => t.id) : await deps.store.spend.teamsOf(source.source, since);
    for (const team of fed) staleTeams.set(team, [...(staleTeams.get(team) ?? []), source]);
  }
  const configured = applyBudgetOverrides(teams, overrides);
  return {
    teams: applyCloudBudgets(configured, cloudBudgets),
    configured,
    cloudBudgets,
    daily,
    // How far the sources that work reach: a failing one holds its own teams, not everyone's data end.
    dataThrough: combinedDataThrough(freshness.filter((f) => !stale.some((s) => s.source === f.source))) ?? combinedDataThrough(freshness),
    stale,
    staleTeams,
  };
}
