import type { BudgetLine, BudgetListing, TeamCurrencies } from '../src/domain/budget-listing.js';
import { convertedNote } from '../src/domain/fx.js';
import { formatMoney, formatPercent } from '../src/domain/money.js';
import { freshnessLine } from './freshness.js';
import type { Block, Message } from './message.js';
import { staleLine } from './stale-data-notice.js';

const ORIGIN: Record<BudgetLine['origin'], string> = { config: 'burnrate', aws: 'AWS Budgets', gcp: 'Google Cloud' };

/** The table of budgets, wherever defined; `*` marks those burnrate's alerts use. */
export function budgetTableBlocks(lines: readonly BudgetLine[]): Block[] {
  const share = (l: BudgetLine, n: number | null) => (n === null ? '—' : `${formatMoney(n, l.currency)} (${formatPercent(n / l.amount)})`);
  return [
    {
      type: 'table',
      columns: [
        { label: 'Team' },
        { label: 'Budget' },
        { label: 'Defined in' },
        { label: 'Amount', align: 'right' },
        { label: 'Spent', align: 'right' },
        { label: 'Forecast', align: 'right' },
        { label: 'Thresholds' },
      ],
      rows: lines.map((l) => [
        l.team ?? '(no team)',
        `${l.name}${l.drivesAlerts ? ' *' : ''}`,
        ORIGIN[l.origin],
        `${formatMoney(l.amount, l.currency)} ${l.period}`,
        share(l, l.actual),
        share(l, l.forecast),
        l.thresholds.map((t) => `${t}%`).join(' '),
      ]),
    },
  ];
}

/** "ml-research: JPY converted at 0.0067 USD (rates of 2026-11-30); EUR not counted, no rate (add fx.rates.EUR)". */
export function currencyLine(c: TeamCurrencies): string {
  const converted = c.converted.map((x) => convertedNote(x.currency, x.rate, c.budgetCurrency, x.asOf));
  const missing = c.missing.map((m) => `spend in ${m} not counted: no exchange rate (add fx.rates.${m} to burnrate.yml)`);
  return `${c.team}: ${[...converted, ...missing].join('; ')}`;
}

/** `burnrate budgets`: every budget with spend beside it and how fresh that is. */
export function budgetListMessage(listing: BudgetListing): Message {
  const context = [
    freshnessLine(listing.dataThrough),
    ...(listing.stale.length > 0 ? [staleLine(listing.stale)] : []),
    ...(listing.currencies ?? []).map(currencyLine),
    "* used by burnrate's budget alerts",
  ].join(' · ');
  if (listing.budgets.length === 0) {
    return {
      summary: 'No budgets',
      blocks: [
        { type: 'text', text: 'No budgets in burnrate.yml and none listed from AWS or Google Cloud yet.' },
        { type: 'context', text: context },
      ],
    };
  }
  return {
    summary: `${listing.budgets.length} budget(s)`,
    blocks: [{ type: 'header', text: 'Budgets' }, ...budgetTableBlocks(listing.budgets), { type: 'context', text: context }],
  };
}
