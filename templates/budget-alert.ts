import type { Finding } from '../src/domain/finding.js';
import type { ResolutionCause } from '../src/checks/resolution-cause.js';
import { formatMoney, formatPercent } from '../src/domain/money.js';
import { addDays } from '../src/domain/period.js';
import { freshnessLine, monthName, shortDate } from './freshness.js';
import { timeOf, type Block, type Mention, type Message } from './message.js';
import { ACTION_IDS } from '../src/domain/action-ids.js';

export interface BudgetAlertData {
  finding: Finding;
  teamName: string;
  event: 'new' | 'escalated' | 'resolved';
  previousThreshold: number | null;
  /** Who acknowledged it, when: the Acknowledge button is then gone. */
  acknowledged?: { by: Mention; at: Date } | undefined;
  /** A snooze running now: the snooze menu gives way to Unsnooze. */
  snoozed?: { by: Mention; at: Date; until: Date } | undefined;
  /** Where the team stands now (spent, forecast): a resolution says which figure fell under the threshold. */
  now?: { actual: number; forecast: number | null; budget: number } | undefined;
  /** Why a resolution happened, where the data shows it. */
  cause?: ResolutionCause | null | undefined;
}

/** Action ids of the buttons on a budget alert; the handlers live in src/actions/. */
export const BUDGET_ACTIONS = {
  ack: ACTION_IDS.budgetAck,
  snooze: ACTION_IDS.budgetSnooze,
  unsnooze: ACTION_IDS.budgetUnsnooze,
  breakdown: ACTION_IDS.budgetBreakdown,
  details: ACTION_IDS.findingDetails,
} as const;

/**
 * A budget threshold crossed (or forecast to be), escalated, or back under: what, how much and the
 * buttons first, short enough to read on a phone; the figures behind it (forecast range, days left
 * out of it, the method, how fresh the data is) are one Details click away (budgetAlertDetails).
 */
export function budgetAlert(data: BudgetAlertData): Message {
  const f = data.finding;
  const money = (n: number) => formatMoney(n, f.currency);
  const headline = headlineOf(data, periodNameOf(f));
  const blocks: Block[] = [
    { type: 'header', text: `${severityOf(data)} ${headline}` },
    { type: 'text', text: bodyOf(data, money) },
    ...stateOf(data),
    actionsOf(data),
    // How fresh the figures are stays beside them: an alert on old data reads differently.
    { type: 'context', text: freshnessLine(f.dataThrough) },
  ];
  return { summary: `${headline} (${money(f.amount)} of ${money(f.budget)})`, blocks };
}

/** What the Details button answers: the alert's figures, the forecast's range and method, and how fresh the data is. */
export function budgetAlertDetails(data: Pick<BudgetAlertData, 'finding' | 'teamName'>): Message {
  const f = data.finding;
  const money = (n: number) => formatMoney(n, f.currency);
  const periodName = periodNameOf(f);
  const facts = [
    { label: 'Spent so far', value: `${money(f.actual)} (${formatPercent(f.actual / f.budget)})` },
    { label: `${capitalise(f.cadence)} budget`, value: money(f.budget) },
  ];
  if (f.forecast)
    facts.push({
      label: 'Forecast at period end',
      value: `${money(f.forecast.amount)} (${formatPercent(f.forecast.amount / f.budget)})${rangeOf(f.forecast, money)}${excludedOf(f.forecast, money)}`,
    });
  facts.push({ label: 'Period', value: `${shortDate(f.range.start)} – ${shortDate(addDays(f.range.end, -1))}` });
  return {
    summary: `Details: ${data.teamName}, ${periodName} budget`,
    blocks: [
      {
        type: 'text',
        text: `**${data.teamName}, ${periodName} budget**: the ${f.threshold}% threshold of ${f.kind === 'budget.forecast' ? 'the forecast' : 'spend'}.`,
      },
      { type: 'facts', facts },
      { type: 'context', text: contextOf(f) },
    ],
  };
}

/**
 * The thread reply that tells a channel what changed since the first alert. An escalation is news
 * for the whole channel: it is shown there too and pings `notify` (the team's approvers).
 */
export function budgetAlertChange(data: BudgetAlertData, notify: readonly Mention[] = []): Message {
  const money = (n: number) => formatMoney(n, data.finding.currency);
  const text = `${headlineOf(data, periodNameOf(data.finding))}. ${bodyOf(data, money)}`;
  const escalated = data.event === 'escalated';
  return {
    summary: text,
    blocks: [
      { type: 'text', text },
      ...(escalated && notify.length > 0 ? [{ type: 'mentions' as const, lead: 'For the approvers:', people: [...notify] }] : []),
      { type: 'context', text: freshnessLine(data.finding.dataThrough) },
    ],
    ...(escalated ? { broadcast: true } : {}),
  };
}

/** Who did what, as lines naming them: "Acknowledged 4 Dec 09:12 UTC by @carol". */
function stateOf({ acknowledged, snoozed }: BudgetAlertData): Block[] {
  return [
    ...(acknowledged ? [{ type: 'mentions' as const, lead: `Acknowledged ${timeOf(acknowledged.at)} by`, people: [acknowledged.by] }] : []),
    ...(snoozed
      ? [
          {
            type: 'mentions' as const,
            lead: `Snoozed ${timeOf(snoozed.at)}, until ${timeOf(snoozed.until)}, by`,
            people: [snoozed.by],
          },
        ]
      : []),
  ];
}

/**
 * The buttons the alert's state leaves: Acknowledge until someone has; the snooze menu, or
 * Unsnooze while a snooze runs; the breakdown and Details always. A resolved alert keeps Details only.
 */
function actionsOf({ finding: f, acknowledged, snoozed, event }: BudgetAlertData): Block {
  const value = (extra: object = {}) => JSON.stringify({ f: f.id, ...extra });
  const details = { action: BUDGET_ACTIONS.details, label: 'Details', value: value() };
  if (event === 'resolved') return { type: 'actions', buttons: [details] };
  return {
    type: 'actions',
    buttons: [
      ...(acknowledged ? [] : [{ action: BUDGET_ACTIONS.ack, label: 'Acknowledge', value: value(), style: 'primary' as const }]),
      ...(snoozed ? [{ action: BUDGET_ACTIONS.unsnooze, label: 'Unsnooze', value: value() }] : []),
      { action: BUDGET_ACTIONS.breakdown, label: 'Show breakdown', value: value() },
      details,
    ],
    ...(snoozed
      ? {}
      : {
          select: {
            action: BUDGET_ACTIONS.snooze,
            placeholder: 'Snooze…',
            options: [
              { label: 'Snooze 24 h', value: value({ for: '24h' }) },
              { label: 'Snooze 7 days', value: value({ for: '7d' }) },
              { label: 'Snooze to period end', value: value({ for: 'period' }) },
            ],
          },
        }),
  };
}

/**
 * The cue a reader takes in before the words: yellow under 80 % of the budget, orange under 100 %,
 * red at or over it (spent or forecast), a check mark once back under.
 */
function severityOf({ finding: f, event }: BudgetAlertData): string {
  if (event === 'resolved') return '✅';
  const ratio = f.amount / f.budget;
  return ratio >= 1 ? '🔴' : ratio >= 0.8 ? '🟠' : '🟡';
}

/** "November 2026", or "week of 16 Nov": the budget period a finding is about. */
export function periodNameOf(f: Pick<Finding, 'cadence' | 'period' | 'range'>): string {
  return f.cadence === 'monthly' ? monthName(f.period) : `week of ${shortDate(f.range.start)}`;
}

function headlineOf({ finding: f, teamName, event }: BudgetAlertData, periodName: string): string {
  if (event === 'resolved') {
    return f.kind === 'budget.forecast'
      ? `${teamName} is no longer forecast to exceed its ${periodName} budget`
      : `${teamName} is back under ${f.threshold}% of its ${periodName} budget`;
  }
  return f.kind === 'budget.forecast'
    ? `${teamName} is on track to spend ${formatPercent(f.amount / f.budget)} of its ${periodName} budget`
    : `${teamName} has spent ${formatPercent(f.amount / f.budget)} of its ${periodName} budget`;
}

function bodyOf({ finding: f, event, previousThreshold, now, cause }: BudgetAlertData, money: (n: number) => string): string {
  if (event === 'resolved') {
    const figure =
      now === undefined
        ? null
        : f.kind === 'budget.forecast'
          ? now.forecast === null
            ? null
            : `the forecast is now ${money(now.forecast)}, ${formatPercent(now.forecast / now.budget)} of ${money(now.budget)}`
          : `${money(now.actual)} is spent, ${formatPercent(now.actual / now.budget)} of ${money(now.budget)}`;
    const why = cause ? `, ${causeText(cause, money)}` : '';
    return `The ${f.threshold}% threshold is no longer crossed with the latest data${figure ? `: ${figure}` : ''}${why}.`;
  }
  const crossed =
    f.kind === 'budget.forecast'
      ? `Forecast **${money(f.amount)}** against a budget of **${money(f.budget)}**: over the ${f.threshold}% threshold.`
      : `**${money(f.amount)}** spent of **${money(f.budget)}**: the ${f.threshold}% threshold is crossed.`;
  const escalation = event === 'escalated' && previousThreshold !== null ? ` Escalated from ${previousThreshold}%.` : '';
  return crossed + escalation;
}

/** "after a credit of $2,000 on 14 Nov": what the data shows changed since the alert. */
function causeText(cause: ResolutionCause, money: (n: number) => string): string {
  switch (cause.kind) {
    case 'budget-raised':
      return `after the budget was raised from ${money(cause.from)} to ${money(cause.to)}`;
    case 'credit':
      return `after a credit of ${money(cause.amount)} on ${shortDate(cause.day)}`;
    case 'revised':
      return `after the bill for earlier days was revised down by ${money(cause.by)}`;
    case 'slowed':
      return `down from ${money(cause.from)} as recent days cost less`;
  }
}

function contextOf(f: Finding): string {
  const parts = [freshnessLine(f.dataThrough)];
  if (f.forecast) parts.push(`forecast: ${f.forecast.method}`);
  parts.push(`finding ${f.id}`);
  return parts.join(' · ');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** ", 80% range $29,900–$32,600": what the forecast may well end at instead. */
export function rangeOf(forecast: { low?: number | undefined; high?: number | undefined }, money: (n: number) => string): string {
  if (forecast.low === undefined || forecast.high === undefined || forecast.high - forecast.low < 0.005) return '';
  return `, 80% range ${money(forecast.low)}–${money(forecast.high)}`;
}

/** Days shown as left out of the fit, most at a time: the rest are counted. */
const EXCLUDED_SHOWN = 3;

/** "; excluded: 1 Dec, $20,000.00 above usual": days the forecast fitted at their usual amount, so a reader sees why it ignores them. */
export function excludedOf(forecast: { excluded?: { day: string; offBy: number }[] | undefined }, money: (n: number) => string): string {
  const days = forecast.excluded ?? [];
  if (days.length === 0) return '';
  const shown = [...days]
    .sort((a, b) => Math.abs(b.offBy) - Math.abs(a.offBy))
    .slice(0, EXCLUDED_SHOWN)
    .map((d) => `${shortDate(d.day)}, ${money(Math.abs(d.offBy))} ${d.offBy >= 0 ? 'above' : 'below'} usual`);
  const more = days.length > EXCLUDED_SHOWN ? ` and ${days.length - EXCLUDED_SHOWN} more` : '';
  return `; excluded: ${shown.join('; ')}${more}`;
}
