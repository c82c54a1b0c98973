import { budgetBurnPlot, budgetGaugePlot, renderBudgetBurnChart, type BudgetBurnChartInput } from '../../../charts/budget-burn-chart.js';
import type { TeamConfig } from '../../../config/schema.js';
import type { Deps } from '../../../deps.js';
import type { Finding } from '../../../domain/finding.js';
import { lastDataDay } from '../../../domain/data-through.js';
import type { TeamChannel } from '../../../outbox/fan-out.js';
import { budgetChart, budgetChartTitle } from '../../../../templates/budget-chart.js';
import type { Message } from '../../../../templates/message.js';
import { chartFor, compactPngs, type ChartPngs } from '../../../outbox/chart-delivery.js';

/**
 * The chart of a budget alert (src/charts/budget-burn-chart.ts), rendered once for every platform.
 * A chart that cannot be drawn is logged and left out: the alert never waits on it.
 */
export async function budgetAlertChart(
  deps: Pick<Deps, 'log'>,
  team: TeamConfig,
  finding: Finding,
  daily: ReadonlyMap<string, number> | undefined,
): Promise<ChartPngs | null> {
  if (!finding.dataThrough) return null;
  try {
    const input: BudgetBurnChartInput = {
      title: budgetChartTitle(team.name ?? team.id, finding),
      period: finding.range,
      currency: finding.currency,
      daily: [...(daily ?? [])]
        .filter(([day]) => day >= finding.range.start && day < finding.range.end)
        .map(([day, amount]) => ({ day, amount })),
      lastDay: lastDataDay(finding.dataThrough),
      budget: finding.budget,
      forecast: finding.forecast,
    };
    const { png } = await renderBudgetBurnChart(input);
    // The numbers platforms draw themselves come from the same input: the same running totals.
    const name = team.name ?? team.id;
    return compactPngs(
      png,
      budgetBurnPlot({ ...input, title: `${name}: spend against budget` }),
      budgetGaugePlot({ ...input, title: `${name}: budget used` }),
    );
  } catch (error) {
    deps.log.warn(
      { team: team.id, finding: finding.id, err: (error as Error).message },
      'budget chart not drawn; the alert goes without it',
    );
    return null;
  }
}

/** The chart's message for one channel, or null where the platform cannot show it. */
export function budgetChartOn(
  deps: Pick<Deps, 'log'>,
  channel: TeamChannel,
  team: TeamConfig,
  finding: Finding,
  pngs: ChartPngs | null,
): Message | null {
  const chart = pngs && chartFor(deps, channel.port, team, pngs);
  return chart ? budgetChart({ teamName: team.name ?? team.id, finding, ...chart }) : null;
}
