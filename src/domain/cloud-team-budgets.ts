import type { Team } from './team.js';
import type { CloudBudget } from './cloud-budget.js';

/**
 * The cloud budget that stands in for each team without a monthly budget in burnrate.yml (or set
 * from chat): a mapped, monthly budget of a source with `alerts` on. Of several, the smallest (the
 * first to be crossed).
 */
export function cloudBudgetsInForce(teams: readonly Team[], budgets: readonly CloudBudget[]): Map<string, CloudBudget> {
  const inForce = new Map<string, CloudBudget>();
  for (const team of teams) {
    if (team.budget?.monthly !== undefined) continue;
    const candidates = budgets
      .filter((b) => b.drivesAlerts && b.team === team.id && b.period === 'monthly' && b.amount > 0)
      .sort((a, b) => a.amount - b.amount);
    if (candidates[0]) inForce.set(team.id, candidates[0]);
  }
  return inForce;
}

/**
 * Teams with their cloud budget in force applied: the budget people already keep in the AWS or
 * Google console then drives the same alerts, at its notification thresholds.
 */
export function applyCloudBudgets<T extends Team>(teams: readonly T[], budgets: readonly CloudBudget[]): T[] {
  const inForce = cloudBudgetsInForce(teams, budgets);
  return teams.map((team) => {
    const cloud = inForce.get(team.id);
    if (!cloud) return team;
    const thresholds = cloud.thresholds.length > 0 ? cloud.thresholds : (team.budget?.thresholds ?? [50, 80, 100]);
    const forecast =
      cloud.notifications.length === 0 ? (team.budget?.forecast ?? true) : cloud.notifications.some((n) => n.on === 'forecast');
    return { ...team, budget: { ...team.budget, monthly: cloud.amount, currency: cloud.currency, thresholds, forecast } };
  });
}
