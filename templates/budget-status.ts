import { rangeOf } from './budget-alert.js';
import type { BudgetStatus } from '../src/checks/budget/budget-status.js';
import { formatMoney, formatPercent } from '../src/domain/money.js';
import { freshnessLine } from './freshness.js';
import type { Block, Message, TableBlock } from './message.js';
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
  /** `cards`: each team as label–value pairs, for a dashboard (App Home) rather than a message. */
  layout: 'table' | 'cards' = 'table',
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
  const methods = [...new Set(statuses.map((s) => s.forecastMethod).filter((m): m is string => m !== null))];
  const rows = statuses.map((s) => statusCells(s, openFindings.get(s.team) ?? 0));
  return {
    summary: `Budgets: ${statuses.map((s) => `${s.teamName} ${formatPercent(s.actual / s.budget)}`).join(', ')}`,
    blocks: [
      { type: 'header', text: 'Budgets' },
      ...(layout === 'table' ? [{ type: 'table' as const, columns: [...COLUMNS], rows }] : rows.flatMap(cardOf)),
      { type: 'context', text: [freshness, ...methods.map((m) => `forecast: ${m}`)].join(' · ') },
    ],
  };
}

const COLUMNS = [
  { label: 'Team' },
  { label: 'Budget' },
  { label: 'Spent', align: 'right' },
  { label: 'Forecast', align: 'right' },
  { label: 'Alerts', align: 'right' },
] as const satisfies TableBlock['columns'];

/** One team's line, in the columns' order. */
function statusCells(s: BudgetStatus, alerts: number): string[] {
  const money = (n: number) => formatMoney(n, s.currency);
  return [
    s.teamName,
    `${money(s.budget)} ${s.cadence}`,
    `${money(s.actual)} (${formatPercent(s.actual / s.budget)})`,
    s.forecast === null
      ? '—'
      : `${money(s.forecast)} (${formatPercent(s.forecast / s.budget)})${s.forecastRange ? rangeOf(s.forecastRange, money) : ''}`,
    String(alerts),
  ];
}

/**
 * A team's line as its name over label–value pairs: on a wide dashboard a table's narrow columns
 * break names and amounts mid-word ("ML Researc/h", "$60,000.0/0"); pairs keep each value whole.
 */
function cardOf([team, ...values]: string[]): Block[] {
  return [
    { type: 'text', text: `**${team}**` },
    { type: 'facts', facts: COLUMNS.slice(1).map((column, i) => ({ label: column.label, value: values[i] ?? '' })) },
  ];
}

/** The status with the teams' cloud budgets added before its context line. */
export function withCloudBudgets(message: Message, cloud: readonly BudgetLine[]): Message {
  const blocks = [...message.blocks];
  const context = blocks[blocks.length - 1]?.type === 'context' ? blocks.pop() : undefined;
  blocks.push({ type: 'text', text: "**Budgets in AWS and Google Cloud** (* used by burnrate's alerts)" }, ...budgetTableBlocks(cloud));
  if (context) blocks.push(context);
  return { ...message, blocks };
}
