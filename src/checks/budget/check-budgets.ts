import { findingId, type Cadence, type Finding, type FindingKind } from '../../domain/finding.js';
import type { Team } from '../../domain/team.js';
import { dayInZone, isoWeekLabel, isoWeekOf, monthOf, type Period } from '../../domain/period.js';
import { dataEndDay } from '../../domain/data-through.js';
import { compare } from '../compare.js';
import { forecastPeriodEnd, type ForecastInput } from '../forecast.js';
import type { CalendarDay } from '../../domain/cost-kind.js';

/**
 * Everything a budget check looks at; built from the store, so the check itself does no I/O. Teams
 * are any Team (the configured ones, with everything burnrate.yml says of them, in a job).
 */
export interface BudgetSnapshot<T extends Team = Team> {
  teams: readonly T[];
  /** team id -> day -> spend (the budget's cost metric). */
  daily: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /**
   * team id -> day -> the part of that day's spend (in `daily`) that is not usage: recurring fees
   * and one-time charges, which a forecast adds as calendar items instead of projecting them.
   * Absent: everything is usage.
   */
  calendar?: ReadonlyMap<string, ReadonlyMap<string, CalendarDay>>;
  /** End of the data (ISO timestamp, exclusive); null when there is none. */
  dataThrough: string | null;
}

export interface BudgetPolicy {
  lookbackDays: number;
  /** How a period's end is forecast: forecastPeriodEnd, or its remembered form shared by a run (rememberedForecasts). */
  forecast?: (input: ForecastInput) => ReturnType<typeof forecastPeriodEnd>;
}

/**
 * Month-to-date and week-to-date spend of each team against each threshold of its budget, and the
 * end-of-period forecast against 100% (and any threshold above it): one Finding per crossing, and
 * one per fact: a forecast crossing a line spend has crossed already is left out. Forecasts below
 * 100% would fire on every healthy team early in the month, so they are not checked.
 */
export function checkBudgets(snapshot: BudgetSnapshot, policy: BudgetPolicy, now: Date): Finding[] {
  if (!snapshot.dataThrough) return [];
  const dataEnd = dataEndDay(snapshot.dataThrough);
  const findings: Finding[] = [];
  const forecastOf = policy.forecast ?? forecastPeriodEnd;
  for (const team of snapshot.teams) {
    const budget = team.budget;
    if (!budget) continue;
    const today = dayInZone(now, team.timezone);
    const daily = snapshot.daily.get(team.id) ?? new Map<string, number>();
    const cadences: [Cadence, number | undefined, Period, string][] = [
      ['monthly', budget.monthly, monthOf(today), today.slice(0, 7)],
      ['weekly', budget.weekly, isoWeekOf(today), isoWeekLabel(today)],
    ];
    for (const [cadence, amount, range, period] of cadences) {
      if (amount === undefined) continue;
      const forecast = forecastOf({
        daily,
        calendar: snapshot.calendar?.get(team.id),
        period: range,
        dataEnd,
        lookbackDays: policy.lookbackDays,
      });
      const base = {
        team: team.id,
        cadence,
        period,
        range,
        budget: amount,
        currency: budget.currency,
        actual: forecast.actual,
        dataThrough: snapshot.dataThrough,
      };
      const withForecast = budget.forecast
        ? {
            amount: forecast.amount,
            method: forecast.method,
            low: forecast.low,
            high: forecast.high,
            ...(forecast.excluded ? { excluded: forecast.excluded } : {}),
          }
        : null;
      const make = (kind: FindingKind, threshold: number, value: number): Finding => ({
        id: findingId(kind, team.id, period, threshold),
        kind,
        threshold,
        amount: value,
        ...base,
        forecast: withForecast,
      });
      for (const threshold of budget.thresholds) {
        if (compare(forecast.actual, 'gte', (amount * threshold) / 100)) findings.push(make('budget.actual', threshold, forecast.actual));
      }
      if (!budget.forecast) continue;
      for (const threshold of forecastThresholds(budget.thresholds)) {
        const line = (amount * threshold) / 100;
        // Spend already past the line says it as a fact: a forecast of the same crossing would be a
        // second alert for one fact (at period end the two are the same figure).
        if (compare(forecast.actual, 'gte', line)) continue;
        if (compare(forecast.amount, 'gte', line)) findings.push(make('budget.forecast', threshold, forecast.amount));
      }
    }
  }
  return findings;
}

function forecastThresholds(thresholds: readonly number[]): number[] {
  const above = thresholds.filter((t) => t >= 100);
  return above.length > 0 ? above : [100];
}
