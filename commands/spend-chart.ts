import { renderBudgetBurnChart } from '../src/charts/budget-burn-chart.js';
import { budgetStatus } from '../src/checks/budget/budget-status.js';
import type { Deps } from '../src/deps.js';
import { addDays } from '../src/domain/period.js';
import { lastDataDay } from '../src/domain/data-through.js';
import type { SpendReport } from '../src/domain/spend-report.js';
import { loadBudgetSnapshot } from '../src/snapshots/budget-snapshot.js';
import { shortDate } from '../templates/freshness.js';
import { formatMoney } from '../src/domain/money.js';

/**
 * The chart of a `spend … by day` answer: the running total of the days asked for; for one team
 * whose budget period is exactly the period asked (this month, this week) also the budget line and
 * the forecast with its range, as the budget alert draws them. Null for any other split, or when
 * there is nothing to draw; a chart that cannot be drawn is logged and the answer goes without it.
 */
export async function spendByDayChart(
  deps: Pick<Deps, 'config' | 'store' | 'log'>,
  report: SpendReport,
  now: Date,
): Promise<Buffer | null> {
  if (report.by !== 'day' || report.rows.length === 0 || report.basis === 'invoice') return null;
  const team = report.teams?.length === 1 ? deps.config.teams.find((t) => t.id === report.teams![0]) : undefined;
  const status = team ? await budgetOf(deps, team, report, now) : undefined;
  const lastDay = report.dataThrough ? lastDataDay(report.dataThrough) : null;
  const last = addDays(report.period.end, -1);
  const scope = team ? (team.name ?? team.id) : (report.teams?.join(', ') ?? 'all teams');
  const title = `${scope}: spend ${shortDate(report.period.start)} – ${shortDate(last)}${status ? ` against its ${formatMoney(status.budget, report.currency, { compact: true })} budget` : ''}`;
  try {
    const { png } = await renderBudgetBurnChart({
      title,
      period: report.period,
      currency: report.currency,
      daily: report.rows.map((r) => ({ day: r.key, amount: r.effective })),
      lastDay: lastDay && lastDay < last ? lastDay : last,
      budget: status?.budget ?? null,
      forecast:
        status?.forecast != null
          ? { amount: status.forecast, ...(status.forecastRange ? { low: status.forecastRange.low, high: status.forecastRange.high } : {}) }
          : null,
    });
    return png;
  } catch (error) {
    deps.log.warn({ err: (error as Error).message }, 'spend chart not drawn; the answer goes without it');
    return null;
  }
}

/** The team's budget standing for exactly the period asked, in the answer's currency. */
async function budgetOf(deps: Pick<Deps, 'config' | 'store'>, team: Deps['config']['teams'][number], report: SpendReport, now: Date) {
  if (!team.budget) return undefined;
  const snapshot = await loadBudgetSnapshot(deps, [team], now);
  return budgetStatus(snapshot, { lookbackDays: deps.config.forecast.lookbackDays }, now).find(
    (s) => s.period.start === report.period.start && s.period.end === report.period.end && s.currency === report.currency,
  );
}
