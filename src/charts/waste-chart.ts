import type { TopLevelSpec } from 'vega-lite';
import { WASTE_CATEGORIES, WASTE_LABELS, type TeamWaste, type WasteCategoryId } from '../domain/waste.js';
import { formatMoney } from '../domain/money.js';
import type { PlotBlock } from '../../templates/message.js';
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

const ORDER = [...WASTE_CATEGORIES.map((id) => WASTE_LABELS[id]), REST];

/** The bars' data: each team's GPU spend a month by cause, and the rest that is not waste, as both charts draw it. */
export function wasteValues(input: WasteChartInput): { team: string; cause: string; amount: number; rank: number }[] {
  return input.rows.flatMap((row) => {
    const parts = row.categories
      .filter((c) => c.monthly > 0)
      .map((c) => ({ team: row.teamName, cause: c.label, amount: c.monthly, rank: ORDER.indexOf(c.label) }));
    const rest = Math.max(0, Math.round((row.gpuSpend - row.afterFixes) * 100) / 100);
    return [...parts, { team: row.teamName, cause: REST, amount: rest, rank: ORDER.length - 1 }];
  });
}

/** Causes as a chart's legend names them: at most 20 characters, as Slack shows them. */
const SHORT: Record<WasteCategoryId, string> = {
  idle: 'Idle GPUs',
  stalled: 'Stalled jobs',
  oversized: 'Oversized',
  'spot-ready': 'Spot, ready now',
  'spot-after-fix': 'Spot, after a fix',
  'inference-off-hours': 'Off-hours inference',
  'unused-commitment': 'Unused commitments',
};
const shortOf = (label: string) => {
  const id = WASTE_CATEGORIES.find((c) => WASTE_LABELS[c] === label);
  return id ? SHORT[id] : label;
};

/** Slack draws at most six series or slices: the largest causes keep theirs, the others share one. */
const MAX_PARTS = 6;
const OTHER = 'Other waste';

/**
 * The same split for platforms that draw their own chart: one team is a donut (its GPU spend by
 * cause), several are stacked bars, one per team. At most six parts: "Not waste", the largest
 * causes, and "Other waste" for the rest when there are more.
 */
export function wastePlot(input: WasteChartInput): PlotBlock {
  const values = wasteValues(input);
  const totalOf = (cause: string) => values.filter((v) => v.cause === cause).reduce((sum, v) => sum + v.amount, 0);
  const causes = ORDER.filter((cause) => cause !== REST && totalOf(cause) > 0).sort((a, b) => totalOf(b) - totalOf(a));
  const kept = causes.length > MAX_PARTS - 1 ? causes.slice(0, MAX_PARTS - 2) : causes;
  const partOf = (cause: string) => (cause === REST ? REST : kept.includes(cause) ? cause : OTHER);
  const parts = [...kept, ...(kept.length < causes.length ? [OTHER] : []), REST];
  const teams = input.rows.map((row) => row.teamName);
  const amount = (team: string, part: string) =>
    Math.round(values.filter((v) => v.team === team && partOf(v.cause) === part).reduce((sum, v) => sum + v.amount, 0) * 100) / 100;
  const money = (n: number) => formatMoney(n, input.currency);
  const alt = input.rows
    .map(
      (row) =>
        `${row.teamName}: ${
          parts
            .filter((p) => p !== REST && amount(row.teamName, p) > 0)
            .map((p) => `${p} ${money(amount(row.teamName, p))}`)
            .join(', ') || 'no waste found'
        } of ${money(row.gpuSpend)} GPU spend a month`,
    )
    .join('; ');
  const plot: PlotBlock['plot'] =
    teams.length === 1
      ? {
          kind: 'donut',
          title: input.title,
          segments: parts.map((part) => ({ label: shortOf(part), value: amount(teams[0]!, part) })).filter((s) => s.value > 0),
        }
      : {
          kind: 'bar',
          title: input.title,
          xLabel: 'Team',
          yLabel: `${input.currency} a month`,
          categories: teams,
          series: parts.map((part) => ({ name: shortOf(part), values: teams.map((team) => amount(team, part)) })),
        };
  return { type: 'plot', plot, alt: `${alt}.` };
}

function wasteChartSpec(input: WasteChartInput): TopLevelSpec {
  const order = ORDER;
  const values = wasteValues(input);
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
