import type { ReviewAnomaly, ReviewFigures, UnitCost } from '../src/domain/review.js';
import { formatMoney, formatPercent } from '../src/domain/money.js';
import { anomalyWhy } from './anomaly-alert.js';
import { freshnessLine, monthName, shortDate } from './freshness.js';
import type { Block, Message } from './message.js';
import { leftOutSuffix } from './savings-left-out.js';

/** The parent message of a team's monthly cost review: the month in figures. */
export function reviewSummary(f: ReviewFigures, lineCount: number): Message {
  const money = (n: number) => formatMoney(n, f.currency);
  const month = monthName(f.month);
  const headline = `${f.teamName}: cost review of ${month}`;
  const facts = [
    {
      label: 'Spent',
      value: f.budget
        ? `${money(f.spend)} of ${money(f.budget)} budget (${formatPercent(f.spend / f.budget)})`
        : `${money(f.spend)} (no monthly budget)`,
    },
    {
      label: `Against ${monthName(f.previousMonth)}`,
      value: f.change === null ? `no spend in ${monthName(f.previousMonth)}` : `${signed(f.change)} (${money(f.previousSpend)})`,
    },
  ];
  if (f.forecast)
    facts.push({
      label: `Forecast for ${monthName(f.forecast.month)}`,
      value: f.budget ? `${money(f.forecast.amount)} (${formatPercent(f.forecast.amount / f.budget)} of budget)` : money(f.forecast.amount),
    });
  facts.push({
    label: 'Idle GPUs',
    value: f.idle
      ? `${money(f.idle.cost)} (${formatPercent(f.idle.share)} of spend, ${Math.round(f.idle.gpuHours).toLocaleString('en-US')} GPU-hours)`
      : 'no GPU metrics configured',
  });
  const waste = f.waste?.row;
  if (waste && waste.gpuSpend > 0) {
    const wasteMoney = (n: number) => formatMoney(n, f.waste!.currency);
    facts.push({
      label: 'GPU waste',
      value: `${wasteMoney(waste.afterFixes)} of ${wasteMoney(waste.gpuSpend)} GPU spend (${formatPercent(waste.afterFixes / waste.gpuSpend)}); ${wasteMoney(waste.immediate)} of it at once (${formatPercent(waste.immediate / waste.gpuSpend)})`,
    });
  }
  if (f.savings) {
    const saved = (n: number) => formatMoney(n, f.savings!.currency);
    facts.push({
      label: 'burnrate actions',
      value:
        f.savings.actions === 0
          ? `none taken in ${month}`
          : `saved ${saved(f.savings.realised)} in ${month} (confirmed by the bill), ${saved(f.savings.expected)} expected, from ${f.savings.actions} action${f.savings.actions === 1 ? '' : 's'}${leftOutSuffix(f.savings, '. ')}`,
    });
  }
  if (f.anomalies) facts.push({ label: 'Anomalies this month', value: anomaliesLine(f.anomalies) });
  facts.push({ label: 'Untagged spend (organisation)', value: `${money(f.untagged.amount)} (${formatPercent(f.untagged.share)})` });
  if (f.showback)
    facts.push({
      label: 'Showback',
      value: `${money(f.showback.total)}: ${money(f.showback.direct)} direct + ${money(f.showback.shared)} share of shared costs${f.showback.commitment ? ` + ${money(f.showback.commitment)} unused commitment` : ''} (${formatPercent(f.showback.share)} of the organisation)`,
    });

  const blocks: Block[] = [
    { type: 'header', text: headline },
    { type: 'facts', facts },
    unitTable(f, money),
    {
      type: 'text',
      text:
        lineCount > 0
          ? `The top ${lineCount} cost lines follow in this thread. For each: **still needed**, **right-size**, **move to spot** or **not ours**, and who owns it.`
          : 'No cost lines this month.',
    },
    { type: 'context', text: `${freshnessLine(f.dataThrough)} · effective cost${f.idle ? ` · ${f.idle.basis}` : ''}` },
  ];
  return { summary: `${headline}: ${money(f.spend)}${f.budget ? ` of ${money(f.budget)}` : ''}`, blocks };
}

function unitTable(f: ReviewFigures, money: (n: number) => string): Block {
  const row = (label: string, u: UnitCost): string[] => [
    label,
    String(u.count),
    u.count > 0 ? money(u.average) : '—',
    u.top ? `${u.top.key} (${money(u.top.cost)})` : '—',
  ];
  const rows = [row('Experiment', f.units.experiment), row('Training run', f.units.run), row('Sweep', f.units.sweep)];
  const p = f.units.perThousandPredictions;
  if (p) rows.push(['1,000 predictions', p.predictions.toLocaleString('en-US'), money(p.cost), '—']);
  return {
    type: 'table',
    columns: [{ label: 'Unit cost' }, { label: 'Count', align: 'right' }, { label: 'Average', align: 'right' }, { label: 'Largest' }],
    rows,
  };
}

function signed(change: number): string {
  const percent = Math.round(change * 1000) / 10;
  return `${percent > 0 ? '+' : ''}${percent}%`;
}

/** "2: from 8 Nov, +$4,210.00 vs usual: 78% from resource llm-sweep-17 (answered Expected); …". */
function anomaliesLine(anomalies: readonly ReviewAnomaly[]): string {
  if (anomalies.length === 0) return 'none';
  const answered = (a: ReviewAnomaly) =>
    a.answer ? (a.answer.verdict === 'expected' ? 'answered Expected' : 'answered Not expected') : 'unanswered';
  return `${anomalies.length}: ${anomalies.map((a) => `from ${shortDate(a.started)}, ${anomalyWhy(a)} (${answered(a)})`).join('; ')}`;
}
