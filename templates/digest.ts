import type { TeamDigest } from '../src/domain/digest.js';
import { addDays } from '../src/domain/period.js';
import { formatMoney, formatPercent } from '../src/domain/money.js';
import { freshnessLine, shortDate } from './freshness.js';
import type { Block, Message } from './message.js';

/** "yesterday, 3 Dec" or "last week, 23 Nov – 29 Nov". */
function periodName(d: TeamDigest): string {
  const { period, cadence } = d.digest;
  return cadence === 'daily'
    ? `yesterday, ${shortDate(period.start)}`
    : `last week, ${shortDate(period.start)} – ${shortDate(addDays(period.end, -1))}`;
}

/** Spent against the budget's pace: "$1,234.00, 12% over the budget's pace ($1,100.00)". */
function paceLine(d: TeamDigest, money: (n: number) => string): string {
  if (d.pace === null || d.pace <= 0) return `${money(d.spent)} (no budget set)`;
  const ratio = d.spent / d.pace;
  const where = Math.abs(ratio - 1) < 0.005 ? 'on' : ratio > 1 ? `${formatPercent(ratio - 1)} over` : `${formatPercent(1 - ratio)} under`;
  return `${money(d.spent)}, ${where} the budget's pace (${money(d.pace)})`;
}

/** A team's daily or weekly digest: one message with the period against the budget, what moved, and what is open. */
export function teamDigest(d: TeamDigest): Message {
  const money = (n: number) => formatMoney(n, d.currency);
  const signed = (n: number) => `${n >= 0 ? '+' : '−'}${money(Math.abs(n))}`;
  const headline = `${d.teamName}: ${periodName(d)}`;
  const before = d.digest.cadence === 'daily' ? 'the day before' : 'the week before';
  const facts = [
    { label: 'Spent', value: paceLine(d, money) },
    { label: `Against ${before}`, value: `${signed(d.spent - d.previous)} (${money(d.previous)})` },
    {
      label: 'Month to date',
      value: d.monthToDate.budget ? `${money(d.monthToDate.spent)} of ${money(d.monthToDate.budget)}` : money(d.monthToDate.spent),
    },
    {
      label: 'Idle GPUs',
      value: d.idle.instances === 0 ? 'none' : `${d.idle.instances} instance(s), ${formatMoney(d.idle.perDay, 'USD')} per day`,
    },
    { label: 'Open', value: `${d.openAlerts} alert(s), ${d.openReviewLines} review line(s) unanswered` },
  ];
  const blocks: Block[] = [
    { type: 'header', text: headline },
    { type: 'facts', facts },
    ...(d.movers.length > 0
      ? [
          { type: 'text' as const, text: `**Biggest movers** against ${before}:` },
          {
            type: 'table' as const,
            columns: [{ label: 'Service' }, { label: 'Spent', align: 'right' as const }, { label: 'Change', align: 'right' as const }],
            rows: d.movers.map((m) => [m.key, money(m.now), signed(m.change)]),
          },
        ]
      : []),
    ...(d.leftOut.length > 0
      ? [
          {
            type: 'context' as const,
            text: `Spend in ${d.leftOut.join(', ')} not included: no exchange rate to ${d.currency} in burnrate.yml.`,
          },
        ]
      : []),
    {
      type: 'context',
      text: `${freshnessLine(d.dataThrough)} · one digest per ${d.digest.cadence === 'daily' ? 'day' : 'week'} (teams[].digest in burnrate.yml)`,
    },
  ];
  return { summary: `${headline}: ${paceLine(d, money)}`, blocks };
}

/** The organisation's digest for admins: every team's line, one message. */
export function organisationDigest(digests: readonly TeamDigest[]): Message {
  const first = digests[0];
  const when = first ? periodName(first) : 'no teams';
  const rows = digests.map((d) => {
    const money = (n: number) => formatMoney(n, d.currency);
    return [
      d.teamName,
      money(d.spent),
      d.pace === null ? '—' : money(d.pace),
      d.idle.instances === 0 ? '—' : formatMoney(d.idle.perDay, 'USD'),
      String(d.openAlerts),
    ];
  });
  return {
    summary: `burnrate digest, ${when}: ${digests.length} team(s)`,
    blocks: [
      { type: 'header', text: `Every team: ${when}` },
      {
        type: 'table',
        columns: [
          { label: 'Team' },
          { label: 'Spent', align: 'right' },
          { label: 'Budget pace', align: 'right' },
          { label: 'Idle GPUs / day', align: 'right' },
          { label: 'Open alerts', align: 'right' },
        ],
        rows,
      },
      { type: 'context', text: `${freshnessLine(first?.dataThrough ?? null)} · for admins (digest.organisation in burnrate.yml)` },
    ],
  };
}
