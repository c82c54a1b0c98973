import type { TopLevelSpec } from 'vega-lite';
import { WASTE_CATEGORIES, WASTE_LABELS, type TeamWaste, type WasteCategoryId } from '../domain/waste.js';
import { CHART_FONT as FONT, chartFrame, renderCompactPng, type RenderedChart } from './render-png.js';

export interface WasteChartInput {
  title: string;
  currency: string;
  /** One bar each, in this order (teams, then the organisation). */
  rows: readonly TeamWaste[];
}

/** Fixed colours per cause (reds for what can go now, ambers for after fixes), grey for spend that is not waste. */
const COLOURS: Record<WasteCategoryId | 'rest', string> = {
  idle: '#d62728',
  stalled: '#ff9896',
  oversized: '#ff7f0e',
  'spot-ready': '#9467bd',
  'spot-after-fix': '#c5b0d5',
  'inference-off-hours': '#bcbd22',
  'unused-commitment': '#8c564b',
  rest: '#d9d9d9',
};
const REST = 'Not waste';

/**
 * GPU spend a month per team as one horizontal bar, stacked by waste cause, the rest in grey; small
 * enough to travel inside a message, and sharp enough as a file for a few bars.
 */
export async function renderCompactWasteChart(input: WasteChartInput): Promise<RenderedChart> {
  return renderCompactPng(wasteChartSpec(input));
}

function wasteChartSpec(input: WasteChartInput): TopLevelSpec {
  const order = [...WASTE_CATEGORIES.map((id) => WASTE_LABELS[id]), REST];
  const values = input.rows.flatMap((row) => {
    const parts = row.categories
      .filter((c) => c.monthly > 0)
      .map((c) => ({ team: row.teamName, cause: c.label, amount: c.monthly, rank: order.indexOf(c.label) }));
    const rest = Math.max(0, Math.round((row.gpuSpend - row.afterFixes) * 100) / 100);
    return [...parts, { team: row.teamName, cause: REST, amount: rest, rank: order.length - 1 }];
  });
  const present = order.filter((label) => values.some((v) => v.cause === label));
  const colourOf = (label: string) => (label === REST ? COLOURS.rest : COLOURS[WASTE_CATEGORIES.find((id) => WASTE_LABELS[id] === label)!]);
  return {
    ...chartFrame(input.title, 560, { step: 28 }),
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: {
        field: 'team',
        type: 'nominal',
        title: null,
        sort: input.rows.map((r) => r.teamName),
        axis: { labelFont: FONT, labelLimit: 200 },
      },
      x: {
        field: 'amount',
        type: 'quantitative',
        aggregate: 'sum',
        stack: 'zero',
        title: `${input.currency} of GPU spend a month`,
        axis: { format: '~s', labelFont: FONT, titleFont: FONT },
      },
      color: {
        field: 'cause',
        type: 'nominal',
        title: null,
        scale: { domain: present, range: present.map(colourOf) },
        legend: { orient: 'bottom', labelFont: FONT, columns: 3, labelLimit: 320 },
      },
      order: { field: 'rank' },
    },
  };
}
