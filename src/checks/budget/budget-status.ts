import type { Period } from '../../domain/period.js';
import type { Cadence } from '../../domain/finding.js';
import { dayInZone, isoWeekOf, monthOf } from '../../domain/period.js';
import type { BudgetSnapshot, BudgetPolicy } from './check-budgets.js';
import { forecastPeriodEnd } from '../forecast.js';
import type { ForecastWorkings } from '../forecast/forecast-workings.js';

export interface BudgetStatus {
  team: string;
  teamName: string;
  cadence: Cadence;
  /** The period it stands in (this month, this week, in the team's zone). */
  period: Period;
  budget: number;
  currency: string;
  actual: number;
  forecast: number | null;
  /** The forecast's 80% range, when its method gives one. */
  forecastRange?: { low: number; high: number } | null;
  forecastMethod: string | null;
  /** How `actual` and the forecast were made, told on demand from the same forecast (explain_figure); budgetStatus always sets it. */
  explain?: () => ForecastWorkings;
}

/** Where each team stands against each of its budgets right now: for `budget` and the App Home. */
export function budgetStatus(snapshot: BudgetSnapshot, policy: BudgetPolicy, now: Date): BudgetStatus[] {
  if (!snapshot.dataThrough) return [];
  const dataEnd = new Date(new Date(snapshot.dataThrough).getTime() + 86_399_999).toISOString().slice(0, 10);
  const statuses: BudgetStatus[] = [];
  const forecastOf = policy.forecast ?? forecastPeriodEnd;
  for (const team of snapshot.teams) {
    if (!team.budget) continue;
    const today = dayInZone(now, team.timezone);
    const daily = snapshot.daily.get(team.id) ?? new Map<string, number>();
    for (const [cadence, amount, period] of [
      ['monthly', team.budget.monthly, monthOf(today)],
      ['weekly', team.budget.weekly, isoWeekOf(today)],
    ] as const) {
      if (amount === undefined) continue;
      const f = forecastOf({ daily, calendar: snapshot.calendar?.get(team.id), period, dataEnd, lookbackDays: policy.lookbackDays });
      statuses.push({
        team: team.id,
        teamName: team.name ?? team.id,
        cadence,
        period,
        budget: amount,
        currency: team.budget.currency,
        actual: f.actual,
        forecast: team.budget.forecast ? f.amount : null,
        forecastRange: team.budget.forecast && f.low !== undefined && f.high !== undefined ? { low: f.low, high: f.high } : null,
        forecastMethod: team.budget.forecast ? f.method : null,
        explain: f.explain,
      });
    }
  }
  return statuses;
}
