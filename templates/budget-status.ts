import { rangeOf } from './budget-alert.js';
import type { BudgetStatus } from '../src/checks/budget/budget-status.js';
import { formatMoney, formatPercent } from '../src/domain/money.js';
import { freshnessLine } from './freshness.js';
import type { Message } from './message.js';
import type { StaleSource } from '../src/domain/staleness.js';
import { staleLine } from './stale-data-notice.js';
import { budgetTableBlocks } from './budget-list.js';
import type { BudgetLine } from '../src/domain/budget-listing.js';

/** Each team's spend against its budgets, with the forecast and how many alerts are open. */
export function budgetStatusMessage(
  statuses: readonly BudgetStatus[],
  openFindings: ReadonlyMap<string, number>,
  dataThrough: string | null,
  stale: readonly StaleSource[] = [],
): Message {
  const freshness = [freshnessLine(dataThrough), ...(stale.length > 0 ? [staleLine(stale)] : [])].join(' · ');
  if (statuses.length === 0) {
    return {
      summary: 'No budgets',
      blocks: [
        { type: 'text', text: 'None of your teams has a budget yet. An approver can set one with `/burnrate budget set <team> <amount>`.' },
        { type: 'context', text: freshness },
      ],
    };
  }
  const money = (s: BudgetStatus, n: number) => formatMoney(n, s.currency);
  const methods = [...new Set(statuses.map((s) => s.forecastMethod).filter((m): m is string => m !== null))];
  return {
    summary: `Budgets: ${statuses.map((s) => `${s.teamName} ${formatPercent(s.actual / s.budget)}`).join(', ')}`,
    blocks: [
      { type: 'header', text: 'Budgets' },
      {
        type: 'table',
        columns: [
          { label: 'Team' },
          { label: 'Budget' },
          { label: 'Spent', align: 'right' },
          { label: 'Forecast', align: 'right' },
          { label: 'Alerts', align: 'right' },
        ],
        rows: statuses.map((s) => [
          s.teamName,
          `${money(s, s.budget)} ${s.cadence}`,
          `${money(s, s.actual)} (${formatPercent(s.actual / s.budget)})`,
          s.forecast === null
            ? '—'
            : `${money(s, s.forecast)} (${formatPercent(s.forecast / s.budget)})${s.forecastRange ? rangeOf(s.forecastRange, (n) => money(s, n)) : ''}`,
          String(openFindings.get(s.team) ?? 0),
        ]),
      },
      { type: 'context', text: [freshness, ...methods.map((m) => `forecast: ${m}`)].join(' · ') },
    ],
  };
}

/** The status with the teams' cloud budgets added before its context line. */
export function withCloudBudgets(message: Message, cloud: readonly BudgetLine[]): Message {
  const blocks = [...message.blocks];
  const context = blocks[blocks.length - 1]?.type === 'context' ? blocks.pop() : undefined;
  blocks.push({ type: 'text', text: "**Budgets in AWS and Google Cloud** (* used by burnrate's alerts)" }, ...budgetTableBlocks(cloud));
  if (context) blocks.push(context);
  return { ...message, blocks };
}
