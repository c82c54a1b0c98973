import type { TopLevelSpec } from 'vega-lite';
import { formatMoney } from '../domain/money.js';
import { daysOf, type Period } from '../domain/period.js';
import type { PlotBlock } from '../../templates/message.js';
import { CHART_FONT as FONT, chartFrame, renderCompactPng, renderPng, type RenderedChart } from './render-png.js';

export type { RenderedChart };

export interface DailySpendChartInput {
  title: string;
  period: Period;
  currency: string;
  /** Effective spend per day and service category; days without a row spent nothing. */
  days: readonly { day: string; category: string; effective: number }[];
}

/** Categories in a fixed order with fixed colours, so every team's chart reads the same way. */
const CATEGORY_COLOURS: readonly [string, string][] = [
  ['Compute', '#4c78a8'],
  ['AI and Machine Learning', '#f58518'],
  ['Storage', '#54a24b'],
  ['Networking', '#b279a2'],
  ['Databases', '#eeca3b'],
  ['Management and Governance', '#9d755d'],
  ['Other', '#bab0ac'],
];

/** Daily spend stacked by service category as a PNG (src/charts/render-png.ts). The same input gives the same bytes. */
export async function renderDailySpendChart(input: DailySpendChartInput): Promise<RenderedChart> {
  return renderPng(chartSpec(input));
}

/**
 * The same chart for platforms that carry images inside the message (a Teams card): the demo's
 * month weighs about 8 KB this way against 70 KB for the file.
 */
export async function renderCompactDailySpendChart(input: DailySpendChartInput): Promise<RenderedChart> {
  return renderCompactPng(chartSpec(input));
}

/** The bars' data: each day's spend per category, rounded to cents, as both charts draw it. */
export function dailySpendValues(input: DailySpendChartInput): { day: string; category: string; amount: number }[] {
  const known = new Set(CATEGORY_COLOURS.map(([name]) => name));
  return input.days.map((d) => ({
    day: d.day.slice(8, 10),
    category: known.has(d.category) ? d.category : 'Other',
    amount: Math.round(d.effective * 100) / 100,
  }));
}

/**
 * The same month for platforms that draw their own chart: one bar a day, the day's total over the
 * PNG's categories (a phone cannot read six stacked colours a day; the categories stay in the PNG).
 */
export function dailySpendPlot(input: DailySpendChartInput): PlotBlock {
  const days = daysOf(input.period).map((d) => d.slice(8, 10));
  const totals = new Map<string, number>();
  for (const v of dailySpendValues(input)) totals.set(v.day, (totals.get(v.day) ?? 0) + v.amount);
  const values = days.map((day) => Math.round((totals.get(day) ?? 0) * 100) / 100);
  const total = values.reduce((sum, v) => sum + v, 0);
  const peak = values.reduce((best, v, i) => (v > (values[best] ?? 0) ? i : best), 0);
  const money = (n: number) => formatMoney(n, input.currency);
  return {
    type: 'plot',
    plot: {
      kind: 'bar',
      title: input.title,
      xLabel: 'Day',
      yLabel: `${input.currency} per day`,
      categories: days,
      series: [{ name: 'Spend', values }],
    },
    alt:
      total > 0
        ? `Spent ${money(Math.round(total * 100) / 100)} over ${days.length} days; the most on day ${Number(days[peak])}, ${money(values[peak] ?? 0)}.`
        : `Nothing spent over ${days.length} days.`,
  };
}

export function chartSpec(input: DailySpendChartInput): TopLevelSpec {
  const values = dailySpendValues(input);
  const present = new Set(values.map((v) => v.category));
  const categories = CATEGORY_COLOURS.filter(([name]) => present.has(name));
  return {
    ...chartFrame(input.title, 640, 260),
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      // Every day of the month on the axis, also the ones without spend.
      x: {
        field: 'day',
        type: 'ordinal',
        title: null,
        scale: { domain: daysOf(input.period).map((d) => d.slice(8, 10)) },
        axis: { labelAngle: 0, labelFont: FONT },
      },
      y: {
        field: 'amount',
        type: 'quantitative',
        aggregate: 'sum',
        stack: 'zero',
        title: `${input.currency} per day`,
        axis: { format: '~s', labelFont: FONT, titleFont: FONT },
      },
      color: {
        field: 'category',
        type: 'nominal',
        title: null,
        scale: { domain: categories.map(([name]) => name), range: categories.map(([, colour]) => colour) },
        legend: { orient: 'bottom', labelFont: FONT, columns: 4, labelLimit: 320 },
      },
      order: { field: 'category' },
    },
  };
}
