import type { TopLevelSpec } from 'vega-lite';
import { CHART_FONT, type RenderedChart } from './draw-chart.js';
import { drawChartOffThread } from './chart-thread.js';

export { CHART_FONT, type RenderedChart };

/** What every burnrate chart starts with: the schema, a title on the left, its size, a white ground. */
export function chartFrame(title: string, width: number, height: number | { step: number }) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, anchor: 'start' as const, font: CHART_FONT, fontSize: 14 },
    width,
    height,
    background: '#ffffff',
  };
}

/** A vega-lite chart as a PNG at twice its size (draw-chart.ts); the same spec gives the same bytes. */
export function renderPng(spec: TopLevelSpec): Promise<RenderedChart> {
  return drawChartOffThread(spec, false);
}

/** The same chart at its natural size in few colours, for platforms that carry images inside the message (draw-chart.ts). */
export function renderCompactPng(spec: TopLevelSpec): Promise<RenderedChart> {
  return drawChartOffThread(spec, true);
}
