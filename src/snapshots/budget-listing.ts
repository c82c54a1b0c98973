import { budgetStatus, type BudgetStatus } from '../checks/budget/budget-status.js';
import type { Deps } from '../deps.js';
import type { BudgetLine, BudgetListing, TeamCurrencies } from '../domain/budget-listing.js';
import type { BudgetOrigin } from '../domain/cloud-budget.js';
import { cloudBudgetsInForce } from '../domain/cloud-team-budgets.js';
import { loadBudgetSnapshot, type LoadedBudgetSnapshot } from './budget-snapshot.js';

/**
 * burnrate's budgets (burnrate.yml and chat) and the clouds' (as last listed) side by side, for
 * `burnrate budgets` and `/burnrate budget`. `teams` limits it to those teams (and drops unmapped
 * cloud budgets); `origins` to some origins.
 */
export async function listBudgets(
  deps: Pick<Deps, 'config' | 'store'>,
  now: Date,
  options: BudgetListingOptions = {},
): Promise<BudgetListing> {
  const teams = deps.config.teams.filter((t) => !options.teams || options.teams.includes(t.id));
  const snapshot = await loadBudgetSnapshot(deps, teams, now);
  return budgetListing(snapshot, budgetStatus(snapshot, { lookbackDays: deps.config.forecast.lookbackDays }, now), options);
}

export interface BudgetListingOptions {
  teams?: readonly string[];
  origins?: readonly BudgetOrigin[];
}

/**
 * The listing from a snapshot and its statuses already computed: `/burnrate budget` shows the
 * statuses and the clouds' budgets of one snapshot instead of loading it twice.
 */
export function budgetListing(
  snapshot: LoadedBudgetSnapshot,
  statuses: readonly BudgetStatus[],
  options: BudgetListingOptions = {},
): BudgetListing {
  const inForce = cloudBudgetsInForce(snapshot.configured, snapshot.cloudBudgets);
  const lines: BudgetLine[] = [];
  for (const s of statuses) {
    const cloudBudget = s.cadence === 'monthly' ? inForce.get(s.team) : undefined;
    if (cloudBudget) continue; // listed below, as the cloud budget it is
    const thresholds = snapshot.configured.find((t) => t.id === s.team)?.budget?.thresholds ?? [];
    // Spend in a currency without a rate is not added as is: burnrate's figure is unknown.
    const unknown = snapshot.unconvertible.has(s.team);
    lines.push({
      origin: 'config',
      name: s.cadence,
      team: s.team,
      period: s.cadence,
      amount: s.budget,
      currency: s.currency,
      actual: unknown ? null : s.actual,
      actualFrom: unknown ? null : 'burnrate',
      forecast: unknown ? null : s.forecast,
      thresholds,
      drivesAlerts: true,
    });
  }
  const monthly = new Map(statuses.filter((s) => s.cadence === 'monthly').map((s) => [s.team, s]));
  for (const b of snapshot.cloudBudgets) {
    if (options.teams && (!b.team || !options.teams.includes(b.team))) continue;
    const ours = b.team && b.period === 'monthly' && !snapshot.unconvertible.has(b.team) ? monthly.get(b.team) : undefined;
    const actual = b.actual ?? ours?.actual ?? null;
    lines.push({
      origin: b.origin,
      name: b.name,
      team: b.team,
      period: b.period,
      amount: b.amount,
      currency: b.currency,
      actual,
      actualFrom: b.actual !== null ? 'cloud' : actual !== null ? 'burnrate' : null,
      forecast: b.forecast ?? ours?.forecast ?? null,
      thresholds: b.thresholds,
      drivesAlerts: b.team !== null && inForce.get(b.team) === b,
    });
  }
  const wanted = options.origins;
  return {
    budgets: wanted ? lines.filter((l) => wanted.includes(l.origin)) : lines,
    dataThrough: snapshot.dataThrough,
    stale: snapshot.stale,
    currencies: teamCurrencies(snapshot, options.teams),
  };
}

function teamCurrencies(snapshot: LoadedBudgetSnapshot, only: readonly string[] | undefined): TeamCurrencies[] {
  const ids = [...new Set([...snapshot.converted.keys(), ...snapshot.unconvertible.keys()])]
    .filter((t) => !only || only.includes(t))
    .sort();
  return ids.map((team) => ({
    team,
    budgetCurrency: snapshot.teams.find((t) => t.id === team)?.budget?.currency ?? snapshot.baseCurrency,
    converted: snapshot.converted.get(team) ?? [],
    missing: snapshot.unconvertible.get(team) ?? [],
  }));
}
