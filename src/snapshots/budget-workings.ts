import { budgetStatus } from '../checks/budget/budget-status.js';
import type { ForecastWorkings } from '../checks/forecast/forecast-workings.js';
import type { Deps } from '../deps.js';
import type { BudgetLine } from '../domain/budget-listing.js';
import type { Cadence } from '../domain/finding.js';
import type { Period } from '../domain/period.js';
import { budgetListing } from './budget-listing.js';
import { loadBudgetSnapshot } from './budget-snapshot.js';

/** How one budget's spent figure and forecast were computed: the budget listing's figures, from the same forecast. */
export interface BudgetWorkings {
  team: string;
  cadence: Cadence;
  period: Period;
  budget: number;
  currency: string;
  /** The line `burnrate budgets` shows for it: burnrate's own, or the cloud budget in force for the team. */
  listedAs: Pick<BudgetLine, 'origin' | 'name' | 'actualFrom'>;
  /** Spent so far: the figure (null when a currency has no rate), the days read and each day's spend in the budget's currency. */
  spent: {
    value: number | null;
    read: Period;
    days: ForecastWorkings['spent']['days'];
    converted: { currency: string; rate: number }[];
    missing: string[];
  };
  /** The forecast as the budget alert makes it; null when the team's budget has forecasts off. */
  forecast:
    | ({ value: number; method: string; range: { low: number; high: number } | null } & Omit<ForecastWorkings, 'spent' | 'parts'> & {
          parts: ForecastWorkings['parts'];
        })
    | null;
}

/**
 * The workings of `teams`' budgets (burnrate's own periods, a cloud budget in force included) from
 * one budget snapshot and the statuses the listing shows: the figures are the listing's own.
 */
export async function explainBudgets(
  deps: Pick<Deps, 'config' | 'store'>,
  now: Date,
  teams: readonly string[],
): Promise<{ budgets: BudgetWorkings[]; dataThrough: string | null }> {
  const configured = deps.config.teams.filter((t) => teams.includes(t.id));
  const snapshot = await loadBudgetSnapshot(deps, configured, now);
  const statuses = budgetStatus(snapshot, { lookbackDays: deps.config.forecast.lookbackDays }, now);
  const listing = budgetListing(snapshot, statuses, { teams });
  const budgets = statuses.map((s): BudgetWorkings => {
    const line =
      listing.budgets.find((l) => l.origin === 'config' && l.team === s.team && l.name === s.cadence) ??
      listing.budgets.find((l) => l.team === s.team && l.drivesAlerts)!;
    const workings = s.explain!();
    const currencies = listing.currencies?.find((c) => c.team === s.team);
    const { spent, parts, ...fit } = workings;
    return {
      team: s.team,
      cadence: s.cadence,
      period: s.period,
      budget: s.budget,
      currency: s.currency,
      listedAs: { origin: line.origin, name: line.name, actualFrom: line.actualFrom },
      spent: {
        value: snapshot.unconvertible.has(s.team) ? null : s.actual,
        read: spent.read,
        days: spent.days,
        converted: (currencies?.converted ?? []).map((c) => ({ currency: c.currency, rate: c.rate })),
        missing: currencies?.missing ?? [],
      },
      forecast:
        s.forecast === null || snapshot.unconvertible.has(s.team)
          ? null
          : { value: s.forecast, method: s.forecastMethod!, range: s.forecastRange ?? null, ...fit, parts },
    };
  });
  return { budgets, dataThrough: listing.dataThrough };
}
