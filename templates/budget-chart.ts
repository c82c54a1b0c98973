import type { Finding } from '../src/domain/finding.js';
import { formatMoney } from '../src/domain/money.js';
import { periodNameOf } from './budget-alert.js';
import { chartBlocks } from './chart-blocks.js';
import type { Message, PlotBlock } from './message.js';

/** The title of a budget's chart: whose budget, which period, how much. */
export function budgetChartTitle(teamName: string, f: Pick<Finding, 'cadence' | 'period' | 'range' | 'budget' | 'currency'>): string {
  return `${teamName}: ${periodNameOf(f)} against its ${formatMoney(f.budget, f.currency, { compact: true })} budget`;
}

/**
 * A budget alert's chart, in its thread: spend so far, the budget line, the forecast and its range;
 * drawn by the platform from `plot` where it can (the PNG then its fallback), else the PNG.
 */
export function budgetChart(data: {
  teamName: string;
  finding: Finding;
  png: string | null;
  plot?: PlotBlock | null;
  /** The budget used as a gauge, after the chart, where the platform draws charts. */
  extra?: PlotBlock | null;
}): Message {
  const f = data.finding;
  const title = budgetChartTitle(data.teamName, f);
  const money = (n: number) => formatMoney(n, f.currency);
  const forecast = f.forecast ? `, forecast to end at ${money(f.forecast.amount)}` : '';
  return {
    summary: title,
    blocks: chartBlocks(
      {
        title,
        alt: `Line chart of ${data.teamName}'s spend so far, ${money(f.actual)}, against a budget of ${money(f.budget)}${forecast}`,
        filename: `burnrate-${f.team}-${f.period}-budget.png`,
      },
      { png: data.png, plot: data.plot ?? null },
    ).concat(data.plot && data.extra ? [data.extra] : []),
  };
}
