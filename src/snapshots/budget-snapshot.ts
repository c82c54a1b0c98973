import type { BudgetSnapshot } from '../checks/budget/check-budgets.js';
import type { CalendarDay } from '../domain/cost-kind.js';
import { convert, rateSource, type FxRates } from '../domain/fx.js';
import { loadFxRates } from './fx-rates.js';
import type { TeamDay } from '../domain/spend-totals.js';
import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { CloudBudget } from '../domain/cloud-budget.js';
import { applyCloudBudgets } from '../domain/cloud-team-budgets.js';
import { workingDataThrough } from '../domain/data-through.js';
import { applyBudgetOverrides } from '../domain/effective-budgets.js';
import { addDays, dayInZone } from '../domain/period.js';
import type { ConvertedCurrency } from '../domain/budget-listing.js';
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
  /**
   * Team id -> the currencies of its spend that burnrate.yml gives no rate for to its budget
   * currency: those teams' checks are held too, since amounts in two currencies are never added.
   */
  unconvertible: Map<string, string[]>;
  /** Team id -> the currencies converted into its budget currency, with the rate used. */
  converted: Map<string, ConvertedCurrency[]>;
  /** The currency of teams without a budget (fx.base). */
  baseCurrency: string;
}

/** A currency converted into a team's budget currency: `rate` units of the budget currency per unit. */
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
  const [rows, freshness, overrides, cloudBudgets, failures, fx] = await Promise.all([
    deps.store.spend.dailyByTeam(since),
    deps.store.freshness.list(),
    deps.store.budgets.list(),
    deps.store.cloudBudgets.list(),
    deps.store.freshness.failures(),
    loadFxRates(deps),
  ]);
  const stale = staleSources(deps.config, freshness, failures, now);
  const staleTeams = new Map<string, StaleSource[]>();
  for (const source of stale.filter((s) => s.kind === 'spend')) {
    const fed = source.ageHours === null ? teams.map((t) => t.id) : await deps.store.spend.teamsOf(source.source, since);
    for (const team of fed) staleTeams.set(team, [...(staleTeams.get(team) ?? []), source]);
  }
  const configured = applyBudgetOverrides(teams, overrides);
  const withBudgets = applyCloudBudgets(configured, cloudBudgets);
  return {
    teams: withBudgets,
    configured,
    cloudBudgets,
    ...inBudgetCurrencies(rows, withBudgets, fx),
    baseCurrency: deps.config.fx.base,
    // How far the sources that work reach: a failing one holds its own teams, not everyone's data end.
    dataThrough: workingDataThrough(freshness, stale),
    stale,
    staleTeams,
  };
}

/**
 * Each team's days in its budget currency (teams without a budget: the fx base currency): every
 * day's total in `daily`, its recurring and one-time part in `calendar`. A currency without a rate
 * is left out and named in `unconvertible`, so the team's checks are held instead of adding it as is.
 */
function inBudgetCurrencies(rows: readonly TeamDay[], teams: readonly TeamConfig[], fx: FxRates) {
  const currencyOf = new Map(teams.map((t) => [t.id, t.budget?.currency ?? fx.base]));
  const daily = new Map<string, Map<string, number>>();
  const calendar = new Map<string, Map<string, CalendarDay>>();
  const unconvertible = new Map<string, string[]>();
  const converted = new Map<string, ConvertedCurrency[]>();
  for (const row of rows) {
    const to = currencyOf.get(row.team) ?? fx.base;
    const amount = convert(row.effective, row.currency, to, fx, row.day.slice(0, 7));
    if (amount === null) {
      const missing = unconvertible.get(row.team) ?? [];
      if (!missing.includes(row.currency)) unconvertible.set(row.team, [...missing, row.currency].sort());
      continue;
    }
    if (row.currency !== to) {
      const used = converted.get(row.team) ?? [];
      if (!used.some((c) => c.currency === row.currency))
        converted.set(row.team, [
          ...used,
          { currency: row.currency, rate: convert(1, row.currency, to, fx)!, asOf: rateSource(fx, row.currency) },
        ]);
    }
    const days = daily.get(row.team) ?? new Map<string, number>();
    daily.set(row.team, days.set(row.day, (days.get(row.day) ?? 0) + amount));
    if (row.kind === 'usage') continue;
    const items = calendar.get(row.team) ?? new Map<string, CalendarDay>();
    const day = items.get(row.day) ?? { recurring: 0, oneTime: 0 };
    if (row.kind === 'recurring') day.recurring += amount;
    else day.oneTime += amount;
    calendar.set(row.team, items.set(row.day, day));
  }
  return { daily, calendar, unconvertible, converted };
}
