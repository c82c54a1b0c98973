import type { TeamConfig } from '../config/schema.js';
import type { CloudBudget } from './cloud-budget.js';

/**
 * Teams with a cloud budget standing in where burnrate.yml (and chat) set no monthly budget: the
 * budget people already keep in the AWS or Google console then drives the same alerts, at its
 * notification thresholds. Budgets from burnrate always win; of several cloud budgets for one
 * team, the smallest is used (the first to be crossed).
 */
export function applyCloudBudgets(teams: readonly TeamConfig[], budgets: readonly CloudBudget[]): TeamConfig[] {
  return teams.map((team) => {
    if (team.budget?.monthly !== undefined) return team;
    const candidates = budgets.filter((b) => b.drivesAlerts && b.team === team.id && b.period === 'monthly' && b.amount > 0).sort((a, b) => a.amount - b.amount);
    const cloud = candidates[0];
    if (!cloud) return team;
    const thresholds = cloud.thresholds.length > 0 ? cloud.thresholds : (team.budget?.thresholds ?? [50, 80, 100]);
    const forecast = cloud.notifications.length === 0 ? (team.budget?.forecast ?? true) : cloud.notifications.some((n) => n.on === 'forecast');
    return { ...team, budget: { ...team.budget, monthly: cloud.amount, currency: cloud.currency, thresholds, forecast } };
  });
}
