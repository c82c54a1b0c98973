import { budgetStatus } from '../checks/budget/budget-status.js';
import { unitCost } from '../checks/review/unit-costs.js';
import type { Deps } from '../deps.js';
import { convert } from '../domain/fx.js';
import { monthOf, toDay } from '../domain/period.js';
import type { WasteCategoryId } from '../domain/waste.js';
import { loadBudgetSnapshot } from './budget-snapshot.js';
import { loadFxRates } from './fx-rates.js';
import { loadSpendTotals } from './spend-totals.js';
import { loadUnitTotals } from './team-breakdowns.js';
import { recentWaste } from './waste-snapshot.js';

/** What a team's dashboard shows beside latency and accuracy: its spend, budget, idle GPUs, waste and unit costs. */
export interface TeamGauges {
  team: string;
  /** The currency of spend, waste and unit costs (the fx base). */
  currency: string;
  spendMonthToDate: number;
  /** This month's forecast / monthly budget; null without a monthly budget or a forecast. */
  forecastBudgetRatio: number | null;
  /** What the team's idle and stalled GPUs cost a day, as the open idle alerts say. */
  idleGpuCostPerDay: number;
  /** The last 30 days' waste a month by cause; null without GPU metrics. */
  waste: Partial<Record<WasteCategoryId, number>> | null;
  /** This month's average cost per experiment, run and sweep (null with none), and per 1,000 predictions at the forecast. */
  unitCosts: { experiment: number | null; run: number | null; sweep: number | null; predictions1000: number | null };
}

/** Every configured team's gauges now, read from the store (and the hourly waste diagnosis). */
export async function loadTeamGauges(deps: Deps): Promise<TeamGauges[]> {
  const now = deps.clock();
  const month = monthOf(toDay(now));
  const [fx, totals, snapshot, findings, waste] = await Promise.all([
    loadFxRates(deps),
    loadSpendTotals(deps, { period: month }, 'team', deps.config.fx.base),
    loadBudgetSnapshot(deps, deps.config.teams, now),
    deps.store.gpuFindings.listOpen(),
    recentWaste(deps).catch(() => null),
  ]);
  const spend = new Map(totals.rows.map((r) => [r.key, r.effective]));
  const monthly = new Map(
    budgetStatus(snapshot, { lookbackDays: deps.config.forecast.lookbackDays }, now)
      .filter((s) => s.cadence === 'monthly')
      .map((s) => [s.team, s]),
  );
  return Promise.all(
    deps.config.teams.map(async (team): Promise<TeamGauges> => {
      const status = monthly.get(team.id);
      const units = await Promise.all(
        (['experiment', 'run', 'sweep'] as const).map(async (unit) => {
          const cost = unitCost(await loadUnitTotals(deps, month, team.id, unit, { currency: fx.base, fx }));
          return cost.count > 0 ? cost.average : null;
        }),
      );
      const predictions = deps.config.unitCosts.predictions.find((p) => p.team === team.id)?.perMonth;
      // The forecast is in the budget's currency; the gauges are all in the fx base.
      const forecast = status?.forecast == null ? null : convert(status.forecast, status.currency, fx.base, fx);
      const row = waste?.teams.find((t) => t.team === team.id);
      return {
        team: team.id,
        currency: fx.base,
        spendMonthToDate: spend.get(team.id) ?? 0,
        forecastBudgetRatio: status && status.forecast !== null && status.budget > 0 ? status.forecast / status.budget : null,
        idleGpuCostPerDay: findings.filter((f) => f.team === team.id).reduce((s, f) => s + f.perDay, 0),
        waste: row ? Object.fromEntries(row.categories.map((c) => [c.id, c.monthly])) : null,
        unitCosts: {
          experiment: units[0]!,
          run: units[1]!,
          sweep: units[2]!,
          predictions1000: predictions && forecast !== null ? (forecast / predictions) * 1000 : null,
        },
      };
    }),
  );
}
