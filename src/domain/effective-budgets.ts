import type { Team } from './team.js';
import type { BudgetOverride } from './budget-override.js';

/** Teams with the budgets set from chat applied over those of burnrate.yml. */
export function applyBudgetOverrides<T extends Team>(teams: readonly T[], overrides: readonly BudgetOverride[]): T[] {
  return teams.map((team) => {
    const mine = overrides.filter((o) => o.team === team.id);
    if (mine.length === 0) return team;
    const budget = { currency: 'USD', thresholds: [50, 80, 100], forecast: true, ...team.budget };
    for (const o of mine) {
      budget[o.cadence] = o.amount;
      if (o.thresholds) budget.thresholds = o.thresholds;
    }
    return { ...team, budget };
  });
}
