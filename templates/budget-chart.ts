import type { Finding } from '../src/domain/finding.js';
import { formatMoney } from '../src/domain/money.js';
import { periodNameOf } from './budget-alert.js';
import type { Message } from './message.js';

/** The title of a budget's chart: whose budget, which period, how much. */
export function budgetChartTitle(teamName: string, f: Pick<Finding, 'cadence' | 'period' | 'range' | 'budget' | 'currency'>): string {
  return `${teamName}: ${periodNameOf(f)} against its ${formatMoney(f.budget, f.currency, { compact: true })} budget`;
}

/** A budget alert's chart, in its thread: spend so far, the budget line, the forecast and its range. */
export function budgetChart(data: { teamName: string; finding: Finding; png: string }): Message {
  const f = data.finding;
  const title = budgetChartTitle(data.teamName, f);
  const money = (n: number) => formatMoney(n, f.currency);
  const forecast = f.forecast ? `, forecast to end at ${money(f.forecast.amount)}` : '';
  return {
    summary: title,
    blocks: [
      {
        type: 'image',
        title,
        alt: `Line chart of ${data.teamName}'s spend so far, ${money(f.actual)}, against a budget of ${money(f.budget)}${forecast}`,
        filename: `burnrate-${f.team}-${f.period}-budget.png`,
        png: data.png,
      },
    ],
  };
}
