import type { TopLevelSpec } from 'vega-lite';
import { formatMoney } from '../domain/money.js';
import { daysOf, type Period } from '../domain/period.js';
import type { PlotBlock } from '../../templates/message.js';
import { CHART_FONT as FONT, chartFrame, renderCompactPng, type RenderedChart } from './render-png.js';

export interface BudgetBurnChartInput {
  title: string;
  /** The budget's period (a month or a week), every day of it on the axis. */
  period: Period;
  currency: string;
  /** Spend per day (the budget's cost metric) up to the last day of data; days without a row spent nothing. */
  daily: readonly { day: string; amount: number }[];
  /** The last day the data covers (YYYY-MM-DD): the spent line stops there. */
  lastDay: string;
  /** The budget line; null draws none (a period with no budget). */
  budget: number | null;
  /** Where the period is forecast to end, with its 80% range when the method gives one. */
  forecast: { amount: number; low?: number | undefined; high?: number | undefined } | null;
}

const SPENT = '#4c78a8';
const FORECAST = '#f58518';
const BUDGET = '#d62728';

/**
 * Spend so far against the budget: the running total per day, the budget as a line across, and
 * from the last day of data to the period's end the forecast (dashed) inside its 80% range
 * (shaded). Small enough to travel inside a Teams card; the same input gives the same bytes.
 */
export async function renderBudgetBurnChart(input: BudgetBurnChartInput): Promise<RenderedChart> {
  return renderCompactPng(budgetBurnSpec(input));
}

/** The running totals the chart draws: spent per day to `lastDay`, then the forecast path and its range. */
export function burnSeries(input: BudgetBurnChartInput) {
  const days = daysOf(input.period);
  const perDay = new Map<string, number>();
  for (const d of input.daily) perDay.set(d.day, (perDay.get(d.day) ?? 0) + d.amount);
  const spent: { day: string; amount: number }[] = [];
  let total = 0;
  for (const day of days) {
    if (day > input.lastDay) break;
    total += perDay.get(day) ?? 0;
    spent.push({ day, amount: round2(total) });
  }
  const ahead = days.filter((day) => day > input.lastDay);
  const path: { day: string; amount: number; low: number; high: number }[] = [];
  if (input.forecast && ahead.length > 0) {
    const from = spent.at(-1) ?? null;
    const start = from?.amount ?? 0;
    const { amount, low = amount, high = amount } = input.forecast;
    // A straight line from the last day's total to the period end's figure, as the range widens to its ends.
    const at = (end: number, i: number) => round2(start + ((end - start) * (i + 1)) / ahead.length);
    if (from) path.push({ day: from.day, amount: start, low: start, high: start });
    ahead.forEach((day, i) => path.push({ day, amount: at(amount, i), low: at(low, i), high: at(high, i) }));
  }
  return { days, spent, forecast: path };
}

/**
 * The same chart for platforms that draw their own (Slack, Teams), from the same running totals:
 * one line that is the spend to the last day of data and the forecast path after it, and the
 * budget across. The forecast's range is in the words, which carry every figure the chart shows.
 */
export function budgetBurnPlot(input: BudgetBurnChartInput): PlotBlock {
  const { spent, forecast } = burnSeries(input);
  const path = [...spent, ...forecast.filter((point) => point.day > (spent.at(-1)?.day ?? ''))];
  const series = [{ name: forecast.length > 0 ? 'Spent, then forecast' : 'Spent', values: path.map((point) => point.amount) }];
  if (input.budget !== null) series.push({ name: 'Budget', values: path.map(() => input.budget!) });
  const money = (n: number) => formatMoney(n, input.currency);
  const last = spent.at(-1);
  const words = [
    last ? `Spent ${money(last.amount)} by day ${Number(last.day.slice(8, 10))} of ${daysOf(input.period).length}` : 'Nothing spent yet',
    input.forecast
      ? `forecast ${money(input.forecast.amount)}${input.forecast.low !== undefined && input.forecast.high !== undefined ? ` (80% range ${money(input.forecast.low)} to ${money(input.forecast.high)})` : ''}`
      : null,
    input.budget !== null ? `budget ${money(input.budget)}` : null,
  ];
  return {
    type: 'plot',
    plot: { kind: 'line', title: input.title, xLabel: 'Day', yLabel: `${input.currency} spent`, categories: path.map(dayLabel), series },
    alt: `${words.filter((w) => w !== null).join('; ')}.`,
  };
}

/**
 * How much of the budget is spent, as a gauge (Teams' Chart.Gauge; Slack draws it as a pie of spent
 * and left): the last running total of the same series against the budget. Null without a budget.
 */
export function budgetGaugePlot(input: BudgetBurnChartInput): PlotBlock | null {
  if (input.budget === null || !(input.budget > 0)) return null;
  const spent = burnSeries(input).spent.at(-1)?.amount ?? 0;
  const money = (n: number) => formatMoney(n, input.currency);
  return {
    type: 'plot',
    plot: { kind: 'gauge', title: input.title, value: spent, max: input.budget, label: 'Spent' },
    alt: `Spent ${money(spent)} of a ${money(input.budget)} budget (${Math.round((spent / input.budget) * 100)}%).`,
  };
}

/** Days on the axis as the PNG labels them: the day of the month. */
function dayLabel(point: { day: string }): string {
  return point.day.slice(8, 10);
}

export function budgetBurnSpec(input: BudgetBurnChartInput): TopLevelSpec {
  const { days, spent, forecast } = burnSeries(input);
  const x = {
    field: 'day',
    type: 'ordinal' as const,
    title: null,
    scale: { domain: days.map((d) => d.slice(8, 10)) },
    axis: { labelAngle: 0, labelFont: FONT, values: days.filter((_, i) => i % 5 === 0).map((d) => d.slice(8, 10)) },
  };
  const label = (d: { day: string }) => ({ ...d, day: d.day.slice(8, 10) });
  const y = { type: 'quantitative' as const, title: `${input.currency} spent`, axis: { format: '~s', labelFont: FONT, titleFont: FONT } };
  const layers: object[] = [];
  if (forecast.length > 0) {
    layers.push({
      data: { values: forecast.map(label) },
      mark: { type: 'area', color: FORECAST, opacity: 0.2 },
      encoding: { x, y: { field: 'low', ...y }, y2: { field: 'high' } },
    });
    layers.push({
      data: { values: forecast.map(label) },
      mark: { type: 'line', color: FORECAST, strokeDash: [4, 3], strokeWidth: 2 },
      encoding: { x, y: { field: 'amount', ...y } },
    });
  }
  layers.push({
    data: { values: spent.map(label) },
    mark: { type: 'line', color: SPENT, strokeWidth: 2, point: { size: 12, color: SPENT } },
    encoding: { x, y: { field: 'amount', ...y } },
  });
  if (input.budget !== null) {
    layers.push({
      data: { values: [{ budget: input.budget }] },
      mark: { type: 'rule', color: BUDGET, strokeWidth: 1.5 },
      encoding: { y: { field: 'budget', ...y } },
    });
    layers.push({
      data: { values: [{ budget: input.budget, text: 'budget' }] },
      mark: { type: 'text', color: BUDGET, align: 'left', dx: 4, dy: -6, font: FONT, fontSize: 11, x: 0 },
      encoding: { y: { field: 'budget', ...y }, text: { field: 'text' } },
    });
  }
  return { ...chartFrame(input.title, 520, 220), layer: layers } as TopLevelSpec;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
