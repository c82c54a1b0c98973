import { resourceLabel } from '../src/domain/resource-label.js';
import { formatMoney } from '../src/domain/money.js';
import { addDays } from '../src/domain/period.js';
import type { KubeCostBasis } from '../src/domain/kube-usage.js';
import type { SpendReport } from '../src/domain/spend-report.js';
import { freshnessLine, monthName, shortDate } from './freshness.js';
import type { Block, Message } from './message.js';

const MAX_ROWS = 15;
const MAX_BARS = 8;

const DIMENSION_LABEL: Partial<Record<SpendReport['by'], string>> = {
  team: 'Team',
  service: 'Service',
  resource: 'Resource',
  day: 'Day',
  provider: 'Provider',
  namespace: 'Namespace',
  workload: 'Workload',
};

/** Where a Kubernetes line's amount comes from, in a table cell. */
const BASIS_LABEL: Record<KubeCostBasis, string> = {
  bill: "bill's pod split",
  estimate: 'GPU samples',
  mixed: 'both',
};

/** A spend report as a message: totals, the top lines as a table, and a bar chart of the largest. */
/** `chartPng` (base64): the `by day` chart (commands/spend-chart.ts), shown after the table where the platform can. */
export function spendSummary(report: SpendReport, scopeName: string, chartPng?: string): Message {
  const money = (n: number) => formatMoney(n, report.currency);
  const range =
    report.basis === 'invoice'
      ? `invoices of ${monthsOf(report.period)}`
      : `${shortDate(report.period.start)} – ${shortDate(addDays(report.period.end, -1))}`;
  const headline = `Spend of ${scopeName}, ${range}`;
  const blocks: Block[] = [
    { type: 'header', text: headline },
    {
      type: 'facts',
      facts: [
        { label: 'Effective cost', value: money(report.total.effective) },
        { label: 'Billed cost', value: money(report.total.billed) },
      ],
    },
  ];
  if (report.rows.length === 0) {
    blocks.push({ type: 'text', text: 'No spend recorded for this period.' });
  } else {
    const shown = report.rows.slice(0, MAX_ROWS);
    // Kubernetes lines say where their amount comes from: the bill's own pod split or burnrate's estimate.
    const withBasis = shown.some((r) => r.basis);
    blocks.push({
      type: 'table',
      columns: [
        { label: DIMENSION_LABEL[report.by] ?? report.by },
        { label: 'Effective', align: 'right' },
        { label: 'Billed', align: 'right' },
        ...(withBasis ? [{ label: 'From' }] : []),
      ],
      rows: shown.map((r) => [
        resourceLabel(r.key, r.name),
        money(r.effective),
        money(r.billed),
        ...(withBasis ? [r.basis ? BASIS_LABEL[r.basis] : ''] : []),
      ]),
      // A resource links to its page in its cloud's console, where it has one.
      ...(shown.some((r) => r.link) ? { links: shown.map((r) => r.link ?? null) } : {}),
    });
    if (report.rows.length > MAX_ROWS) blocks.push({ type: 'context', text: `… and ${report.rows.length - MAX_ROWS} more lines` });
    if (report.by !== 'day') {
      blocks.push({
        type: 'chart',
        title: `Largest by effective cost`,
        bars: report.rows.slice(0, MAX_BARS).map((r) => ({
          label: r.name ?? r.key,
          value: r.effective,
          display: formatMoney(r.effective, report.currency, { compact: true }),
        })),
      });
    }
  }
  if (chartPng)
    blocks.push({
      type: 'image',
      title: `${headline}, day by day`,
      alt: `Line chart of the running total of ${scopeName}'s spend per day, ${range}, ${money(report.total.effective)} in all`,
      filename: `burnrate-spend-${report.period.start}.png`,
      png: chartPng,
    });
  const caveats = report.warnings.length > 0 ? ` · ${report.warnings.join(' · ')}` : '';
  blocks.push({ type: 'context', text: `${freshnessLine(report.dataThrough)}${caveats}` });
  return { summary: `${headline}: ${money(report.total.effective)}`, blocks };
}

/** "November 2026" or "October 2026 – November 2026": the billing periods an invoice-basis report covers. */
function monthsOf(period: SpendReport['period']): string {
  const first = monthName(period.start.slice(0, 7));
  const last = monthName(addDays(period.end, -1).slice(0, 7));
  return first === last ? first : `${first} – ${last}`;
}
