import { describe, expect, it } from 'vitest';
import { budgetBurnPlot, budgetBurnSpec, budgetGaugePlot, type BudgetBurnChartInput } from '../../src/charts/budget-burn-chart.js';
import { chartSpec, dailySpendPlot, type DailySpendChartInput } from '../../src/charts/daily-spend-chart.js';
import { wastePlot, wasteValues, type WasteChartInput } from '../../src/charts/waste-chart.js';
import { WASTE_CATEGORIES, WASTE_LABELS, type TeamWaste } from '../../src/domain/waste.js';
import type { Message, PlotBlock } from '../../templates/message.js';
import { renderAdaptiveCard } from '../../templates/render/adaptive-card.js';
import { renderBlockKit } from '../../templates/render/block-kit.js';
import { renderHtml } from '../../templates/render/html.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { blockKitProblems } from '../fakes/fake-slack-api-block-kit.js';
import { adaptiveCardProblems } from '../support/platform-limits.js';

/** 20 days of November, one without spend, a $30,000 budget forecast to end at $31,200 (80%: $29,500–$33,000). */
const perDay = [
  900, 950, 1_000, 1_050, 1_100, 1_150, 1_200, 900, 0, 1_000, 1_050, 1_100, 1_150, 1_200.55, 990, 1_010, 1_020, 980, 1_005, 995.45,
];
const burn: BudgetBurnChartInput = {
  title: 'ML Research: November 2026 against its $30K budget',
  period: { start: '2026-11-01', end: '2026-12-01' },
  currency: 'USD',
  daily: perDay.flatMap((amount, i) => (amount === 0 ? [] : [{ day: `2026-11-${String(i + 1).padStart(2, '0')}`, amount }])),
  lastDay: '2026-11-20',
  budget: 30_000,
  forecast: { amount: 31_200, low: 29_500, high: 33_000 },
};

/** Three categories over a few days of November; the rest of the month spent nothing. */
const spendRows = [
  { day: '2026-11-01', category: 'Compute', effective: 1_200.004 },
  { day: '2026-11-01', category: 'Storage', effective: 80.5 },
  { day: '2026-11-02', category: 'Compute', effective: 1_310 },
  { day: '2026-11-02', category: 'AI and Machine Learning', effective: 420.25 },
  { day: '2026-11-17', category: 'Compute', effective: 2_000 },
  { day: '2026-11-17', category: 'Something new', effective: 12.125 },
];
const daily: DailySpendChartInput = { title: 'NLP: daily spend, November 2026', period: burn.period, currency: 'USD', days: spendRows };

function team(teamName: string, monthly: Partial<Record<(typeof WASTE_CATEGORIES)[number], number>>, gpuSpend: number): TeamWaste {
  const categories = WASTE_CATEGORIES.map((id) => ({
    id,
    label: WASTE_LABELS[id],
    monthly: monthly[id] ?? 0,
    share: (monthly[id] ?? 0) / gpuSpend,
    evidence: [],
    confidence: 'high' as const,
    firstAction: null,
  }));
  const afterFixes = categories.reduce((sum, c) => sum + c.monthly, 0);
  return {
    team: teamName.toLowerCase(),
    teamName,
    gpuSpend,
    categories,
    immediate: 0,
    afterFixes,
    unmeasured: 0,
    unchecked: 0,
    idleGpuHours: 0,
  };
}
const waste: WasteChartInput = {
  title: 'GPU waste a month',
  currency: 'USD',
  rows: [
    team(
      'Vision',
      { idle: 4_000, stalled: 1_000, oversized: 2_500, 'spot-ready': 3_000, 'spot-after-fix': 500, 'inference-off-hours': 250 },
      40_000,
    ),
    team('NLP', { idle: 1_500, 'unused-commitment': 700 }, 12_000),
  ],
};

/** The data of every layer of a vega-lite spec, by the mark it draws. */
function layerData(spec: object): Record<string, Record<string, unknown>[]> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const layer of (spec as { layer: { mark: { type: string; strokeDash?: unknown }; data: { values: Record<string, unknown>[] } }[] })
    .layer) {
    const name = layer.mark.type === 'line' && layer.mark.strokeDash ? 'forecast' : layer.mark.type;
    out[name] = layer.data.values;
  }
  return out;
}

function message(...plots: PlotBlock[]): Message {
  return { summary: 'charts', blocks: plots };
}

const slackChartsOf = (m: Message) =>
  renderBlockKit(m).blocks.filter((b) => (b as { type: string }).type === 'data_visualization') as any[];
const cardChartsOf = (m: Message) => (renderAdaptiveCard(m) as { body: any[] }).body.filter((e) => String(e.type).startsWith('Chart.'));

describe('native charts carry the numbers the PNG is drawn from', () => {
  it('budget burn: the spent line is the running total of the rows, then the PNG forecast line; the budget across', () => {
    const block = budgetBurnPlot(burn);
    if (block.plot.kind !== 'line') throw new Error('a line chart');
    const [spent, budget] = block.plot.series;
    // Independently: a running sum over the days the test wrote.
    let total = 0;
    const byHand = perDay.map((amount) => Math.round((total += amount) * 100) / 100);
    expect(spent!.values.slice(0, 20)).toEqual(byHand);
    // The PNG's own layers: the spent line, then the dashed forecast after the last day.
    const layers = layerData(budgetBurnSpec(burn));
    expect(spent!.values.slice(0, 20)).toEqual(layers.line!.map((p) => p.amount));
    expect(spent!.values.slice(20)).toEqual(layers.forecast!.slice(1).map((p) => p.amount));
    expect(block.plot.categories).toEqual([...layers.line!, ...layers.forecast!.slice(1)].map((p) => p.day));
    expect(spent!.values.at(-1)).toBe(31_200);
    expect(budget).toEqual({ name: 'Budget', values: Array(30).fill(30_000) });
    expect(block.alt).toBe(
      'Spent $19,751.00 by day 20 of 30; forecast $31,200.00 (80% range $29,500.00 to $33,000.00); budget $30,000.00.',
    );
  });

  it('budget gauge: the last running total of the rows against the budget; Slack draws spent and left, Teams a gauge', () => {
    const gauge = budgetGaugePlot(burn)!;
    const spent = Math.round(perDay.reduce((sum, v) => sum + v, 0) * 100) / 100;
    expect(gauge.plot).toEqual({ kind: 'gauge', title: burn.title, value: spent, max: 30_000, label: 'Spent' });
    expect(gauge.alt).toBe('Spent $19,751.00 of a $30,000.00 budget (66%).');
    const [pie] = slackChartsOf(message(gauge));
    expect(pie.chart).toEqual({
      type: 'pie',
      segments: [
        { label: 'Spent', value: spent },
        { label: 'Left', value: 10_249 },
      ],
    });
    expect(blockKitProblems(renderBlockKit(message(budgetBurnPlot(burn), gauge)).blocks)).toEqual([]);
    // Over the budget there is nothing left to draw a slice of: Slack keeps the words, Teams the gauge.
    const over = budgetGaugePlot({ ...burn, budget: 10_000 })!;
    expect(slackChartsOf(message(over))).toEqual([]);
    expect(cardChartsOf(message(over))[0]).toMatchObject({ type: 'Chart.Gauge', value: spent, max: 10_000 });
    expect(adaptiveCardProblems(renderAdaptiveCard(message(over)))).toEqual([]);
    expect(budgetGaugePlot({ ...burn, budget: null })).toBeNull();
  });

  it('daily spend: one bar a day, the sum of the PNG stack, equal to a plain sum of the rows', () => {
    const block = dailySpendPlot(daily);
    if (block.plot.kind !== 'bar') throw new Error('a bar chart');
    const values = block.plot.series[0]!.values;
    expect(block.plot.categories).toHaveLength(30);
    const byDay = new Map<string, number>();
    for (const row of spendRows)
      byDay.set(row.day.slice(8, 10), (byDay.get(row.day.slice(8, 10)) ?? 0) + Math.round(row.effective * 100) / 100);
    block.plot.categories.forEach((day, i) => expect(values[i]).toBeCloseTo(byDay.get(day) ?? 0, 6));
    // The PNG's stacked values per day add up to the same bars.
    const stacked = new Map<string, number>();
    for (const v of (chartSpec(daily) as { data: { values: { day: string; amount: number }[] } }).data.values)
      stacked.set(v.day, (stacked.get(v.day) ?? 0) + v.amount);
    block.plot.categories.forEach((day, i) => expect(values[i]).toBeCloseTo(stacked.get(day) ?? 0, 6));
    expect(block.alt).toBe('Spent $5,022.88 over 30 days; the most on day 17, $2,012.13.');
  });

  it('waste: each team split as the PNG splits it, at most six parts, the smallest causes together', () => {
    const block = wastePlot(waste);
    if (block.plot.kind !== 'bar') throw new Error('a bar chart for several teams');
    expect(block.plot.series.length).toBeLessThanOrEqual(6);
    const pngData = wasteValues(waste);
    for (const [t, teamName] of block.plot.categories.entries()) {
      const png = pngData.filter((v) => v.team === teamName).reduce((sum, v) => sum + v.amount, 0);
      const native = block.plot.series.reduce((sum, s) => sum + s.values[t]!, 0);
      // Every dollar of the team's GPU spend is in one part, on both.
      expect(native).toBeCloseTo(png, 6);
      expect(native).toBeCloseTo(waste.rows[t]!.gpuSpend, 6);
    }
    expect(block.plot.series.map((s) => s.name)).toEqual([
      'Idle GPUs',
      'Spot, ready now',
      'Oversized',
      'Stalled jobs',
      'Other waste',
      'Not waste',
    ]);
    // Other waste: what Vision lost to spot-after-fix and off-hours inference, and NLP's unused commitment.
    expect(block.plot.series[4]!.values).toEqual([750, 700]);
    const one = wastePlot({ ...waste, rows: [waste.rows[1]!] });
    expect(one.plot).toEqual({
      kind: 'donut',
      title: 'GPU waste a month',
      segments: [
        { label: 'Idle GPUs', value: 1_500 },
        { label: 'Unused commitments', value: 700 },
        { label: 'Not waste', value: 9_800 },
      ],
    });
  });
});

describe('Slack draws them as data_visualization blocks the fake Slack accepts', () => {
  it('renders line, bar and pie within the limits, with the numbers beside them in words', () => {
    for (const block of [budgetBurnPlot(burn), dailySpendPlot(daily), wastePlot(waste), wastePlot({ ...waste, rows: [waste.rows[0]!] })]) {
      const rendered = renderBlockKit(message(block));
      expect(blockKitProblems(rendered.blocks)).toEqual([]);
      const [chart] = slackChartsOf(message(block));
      expect(chart.title.length).toBeLessThanOrEqual(50);
      expect(rendered.blocks.at(-1)).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: block.alt.replace(/&/g, '&amp;') }] });
    }
  });

  it('thins a month-long line to 20 exact points and merges a month of bars into 15 that sum to the same', () => {
    const [line] = slackChartsOf(message(budgetBurnPlot(burn)));
    const points = line.chart.series[0].data as { label: string; value: number }[];
    expect(points).toHaveLength(20);
    expect(points[0]).toEqual({ label: '01', value: 900 });
    expect(points.at(-1)).toEqual({ label: '30', value: 31_200 });
    const source = budgetBurnPlot(burn).plot as { categories: string[]; series: { values: number[] }[] };
    for (const p of points) expect(p.value).toBe(source.series[0]!.values[source.categories.indexOf(p.label)]);

    const [bars] = slackChartsOf(message(dailySpendPlot(daily)));
    const data = bars.chart.series[0].data as { label: string; value: number }[];
    expect(data).toHaveLength(15);
    expect(data[0]).toEqual({ label: '01–02', value: 3_010.75 });
    const plain = spendRows.reduce((sum, r) => sum + Math.round(r.effective * 100) / 100, 0);
    expect(data.reduce((sum, p) => sum + p.value, 0)).toBeCloseTo(plain, 6);
  });

  it('draws two charts a message at most; a third keeps its numbers as text', () => {
    const m = message(budgetBurnPlot(burn), dailySpendPlot(daily), wastePlot(waste));
    const rendered = renderBlockKit(m);
    expect(slackChartsOf(m)).toHaveLength(2);
    expect(blockKitProblems(rendered.blocks)).toEqual([]);
    expect(JSON.stringify(rendered.blocks.at(-1))).toContain('Idle GPUs $4,000.00');
  });

  it('the fake Slack refuses what Slack refuses: mismatched labels, a long title, too many points, a third chart, a zero slice', () => {
    const [good] = renderBlockKit(message(wastePlot(waste))).blocks as any[];
    const copy = () => JSON.parse(JSON.stringify(good));
    const mismatched = copy();
    mismatched.chart.series[0].data[0].label = 'Someone else';
    expect(blockKitProblems([mismatched])).toContain(
      'blocks[0] (data_visualization): chart series[0] labels must match axis_config categories',
    );
    const long = { ...copy(), title: 'x'.repeat(51) };
    expect(blockKitProblems([long])).toContain('blocks[0] (data_visualization): data_visualization title must be 1-50 characters');
    const many = copy();
    many.chart.axis_config.categories = Array.from({ length: 21 }, (_, i) => `d${i}`);
    many.chart.series = [{ name: 'a', data: many.chart.axis_config.categories.map((label: string) => ({ label, value: 1 })) }];
    expect(blockKitProblems([many]).join('\n')).toMatch(/data_series data must have 1-20 items, got 21/);
    expect(blockKitProblems([good, good, good])).toContain('3 data_visualization blocks, max 2 per message');
    const pie = { type: 'data_visualization', title: 'Pie', chart: { type: 'pie', segments: [{ label: 'a', value: 0 }] } };
    expect(blockKitProblems([pie])).toContain('blocks[0] (data_visualization): chart segments[0] value must be greater than 0');
    expect(blockKitProblems([{ type: 'data_visualization', title: 'x', chart: { type: 'radar' } }]).join('\n')).toMatch(
      /unsupported element type "radar"/,
    );
  });
});

describe('Teams draws them as Chart elements the card parser accepts', () => {
  const PNG = 'iVBORw0KGgo=';

  it('renders Chart.Line, Chart.VerticalBar, Chart.VerticalBar.Grouped and Chart.Donut with the PNG as the fallback', () => {
    const blocks = [budgetBurnPlot(burn), dailySpendPlot(daily), wastePlot(waste), wastePlot({ ...waste, rows: [waste.rows[1]!] })];
    const card = renderAdaptiveCard(message(...blocks.map((b) => ({ ...b, png: PNG }))));
    expect(adaptiveCardProblems(card)).toEqual([]);
    const charts = cardChartsOf(message(...blocks.map((b) => ({ ...b, png: PNG }))));
    expect(charts.map((c) => c.type)).toEqual(['Chart.Line', 'Chart.VerticalBar', 'Chart.VerticalBar.Grouped', 'Chart.Donut']);
    for (const chart of charts) expect(chart.fallback).toMatchObject({ type: 'Image', url: `data:image/png;base64,${PNG}` });
    // The same numbers as the plot: every day of the line, every bar.
    const line = budgetBurnPlot(burn).plot as { series: { values: number[] }[] };
    expect(charts[0].data[0].values.map((p: { y: number }) => p.y)).toEqual(line.series[0]!.values);
    expect(charts[1].data).toHaveLength(30);
    expect(charts[3].data).toEqual([
      { legend: 'Idle GPUs', value: 1_500 },
      { legend: 'Unused commitments', value: 700 },
      { legend: 'Not waste', value: 9_800 },
    ]);
  });

  it('a gauge parses; without a PNG the fallback is the numbers in words', () => {
    const gauge: PlotBlock = {
      type: 'plot',
      plot: { kind: 'gauge', title: 'Budget used', value: 19_750, max: 30_000, label: 'Spent' },
      alt: 'Spent $19,750 of $30,000.',
    };
    const card = renderAdaptiveCard(message(gauge));
    expect(adaptiveCardProblems(card)).toEqual([]);
    expect(cardChartsOf(message(gauge))[0]).toMatchObject({
      type: 'Chart.Gauge',
      value: 19_750,
      max: 30_000,
      fallback: { type: 'TextBlock' },
    });
  });

  it('the parser refuses a chart Teams would not draw: no fallback, data of the wrong shape, an unknown field', () => {
    const card = (element: object) => ({ type: 'AdaptiveCard', version: '1.5', body: [element] });
    expect(adaptiveCardProblems(card({ type: 'Chart.Line', title: 't', data: [{ legend: 'a', values: [{ x: '1', y: 2 }] }] }))).toEqual([
      'parse: Chart.Line has no fallback: hosts without charts would show nothing',
    ]);
    expect(adaptiveCardProblems(card({ type: 'Chart.VerticalBar', data: [{ x: 1, y: 'two' }], fallback: 'drop' }))).toEqual([
      'parse: Chart.VerticalBar data [0] must be { x: string, y: number }',
    ]);
    expect(adaptiveCardProblems(card({ type: 'Chart.Donut', data: [{ legend: 'a', value: 1 }], colour: 'red', fallback: 'drop' }))).toEqual(
      ['parse: Chart.Donut has unknown field "colour"'],
    );
  });
});

describe('surfaces without native charts', () => {
  it('the console shows the PNG and the numbers; the terminal the numbers', () => {
    const block = { ...budgetBurnPlot(burn), png: 'iVBORw0KGgo=' };
    const html = renderHtml(message(block));
    expect(html).toContain('<img src="data:image/png;base64,iVBORw0KGgo="');
    expect(html).toContain('Spent $19,751.00 by day 20 of 30');
    expect(renderPlainText(message(block))).toBe(`${burn.title}: ${block.alt}`);
  });
});
