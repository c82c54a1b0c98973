/**
 * A plot as the chart elements Teams draws in an Adaptive Card (learn.microsoft.com, "Charts in
 * Adaptive Cards"): Chart.Line, Chart.VerticalBar (one series), Chart.VerticalBar.Grouped
 * (several, stacked), Chart.Donut and Chart.Gauge. Other hosts, older Teams clients and the
 * adaptivecards library do not know them, so each carries a `fallback`: the PNG of the same chart
 * when the message has one, else its numbers as text.
 */
import type { Plot, PlotBlock } from '../message.js';
import { oneLine } from './plain-text.js';

type Element = Record<string, unknown>;

/** The chart element with its fallback; `text` escapes text for a TextBlock. */
export function cardPlot(block: PlotBlock, text: (s: string) => string): Element {
  const fallback =
    block.png && /^[A-Za-z0-9+/]+=*$/.test(block.png)
      ? { type: 'Image', url: `data:image/png;base64,${block.png}`, altText: oneLine(block.alt), size: 'Stretch' }
      : { type: 'TextBlock', text: text(block.alt), wrap: true };
  return { ...chartOf(block.plot), fallback };
}

function chartOf(plot: Plot): Element {
  const title = oneLine(plot.title);
  switch (plot.kind) {
    case 'line':
      return {
        type: 'Chart.Line',
        title,
        xAxisTitle: oneLine(plot.xLabel),
        yAxisTitle: oneLine(plot.yLabel),
        data: plot.series.map((s) => ({ legend: oneLine(s.name), values: points(plot.categories, s.values) })),
      };
    case 'bar':
      if (plot.series.length === 1)
        return {
          type: 'Chart.VerticalBar',
          title,
          xAxisTitle: oneLine(plot.xLabel),
          yAxisTitle: oneLine(plot.yLabel),
          data: points(plot.categories, plot.series[0]!.values),
        };
      return {
        type: 'Chart.VerticalBar.Grouped',
        title,
        xAxisTitle: oneLine(plot.xLabel),
        yAxisTitle: oneLine(plot.yLabel),
        stacked: true,
        data: plot.series.map((s) => ({ legend: oneLine(s.name), values: points(plot.categories, s.values) })),
      };
    case 'donut':
      return { type: 'Chart.Donut', title, data: plot.segments.map((s) => ({ legend: oneLine(s.label), value: s.value })) };
    case 'gauge':
      return {
        type: 'Chart.Gauge',
        title,
        min: 0,
        max: plot.max,
        value: plot.value,
        valueFormat: 'Fraction',
        subLabel: oneLine(plot.label),
      };
  }
}

function points(categories: string[], values: number[]): { x: string; y: number }[] {
  return categories.map((x, i) => ({ x: oneLine(x), y: values[i] ?? 0 }));
}
