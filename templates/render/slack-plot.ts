/**
 * A plot as Slack's `data_visualization` block (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block):
 * a pie, or a bar, area or line chart of at most 6 series over one list of categories, each series
 * a value for every category. Slack refuses the whole message over its limits, so they are kept
 * here: a title of 50 characters, labels and series names of 20, at most 20 points a series, at
 * most 6 series or segments, and at most two charts a message (the renderer counts those).
 */
import type { Plot } from '../message.js';
import { oneLine, truncate } from './plain-text.js';

export const SLACK_PLOT = { perMessage: 2, title: 50, label: 20, axisLabel: 50, points: 20, series: 6 } as const;

type SlackChart = Record<string, unknown>;

/** The block, or null for a plot Slack cannot draw (a gauge over its maximum, nothing to show). */
export function slackPlot(plot: Plot): Record<string, unknown> | null {
  const chart = slackChart(plot);
  return chart ? { type: 'data_visualization', title: short(plot.title, SLACK_PLOT.title), chart } : null;
}

function slackChart(plot: Plot): SlackChart | null {
  switch (plot.kind) {
    case 'donut': {
      const segments = plot.segments.filter((s) => s.value > 0).slice(0, SLACK_PLOT.series);
      return segments.length > 0 ? { type: 'pie', segments: segments.map((s) => ({ label: labelOf(s.label), value: s.value })) } : null;
    }
    case 'gauge':
      // Slack has no gauge: spent and left as a pie reads the same, while there is something left.
      if (!(plot.max > 0) || plot.value < 0 || plot.value >= plot.max) return null;
      return {
        type: 'pie',
        segments: [
          { label: labelOf(plot.label), value: plot.value },
          { label: 'Left', value: round2(plot.max - plot.value) },
        ].filter((s) => s.value > 0),
      };
    case 'line':
    case 'bar': {
      if (plot.categories.length === 0 || plot.series.length === 0) return null;
      const fitted = plot.kind === 'line' ? thinned(plot.categories, plot.series) : merged(plot.categories, plot.series);
      // Labels are cut to 20 characters and must stay distinct: a repeat gets its position.
      const labels = distinct(fitted.categories.map(labelOf));
      const names = distinct(plot.series.slice(0, SLACK_PLOT.series).map((s) => labelOf(s.name)));
      return {
        type: plot.kind,
        series: fitted.series.slice(0, SLACK_PLOT.series).map((s, i) => ({
          name: names[i],
          data: labels.map((label, j) => ({ label, value: s.values[j] ?? 0 })),
        })),
        axis_config: {
          categories: labels,
          ...(plot.xLabel ? { x_label: short(plot.xLabel, SLACK_PLOT.axisLabel) } : {}),
          ...(plot.yLabel ? { y_label: short(plot.yLabel, SLACK_PLOT.axisLabel) } : {}),
        },
      };
    }
  }
}

type Fitted = { categories: string[]; series: { name: string; values: number[] }[] };

/** A line's points are levels: keep at most 20 of them, evenly spread, always the first and the last. */
function thinned(categories: string[], series: Fitted['series']): Fitted {
  const n = categories.length;
  if (n <= SLACK_PLOT.points) return { categories, series };
  const keep = [...new Set(Array.from({ length: SLACK_PLOT.points }, (_, i) => Math.round((i * (n - 1)) / (SLACK_PLOT.points - 1))))];
  return { categories: keep.map((i) => categories[i]!), series: series.map((s) => ({ ...s, values: keep.map((i) => s.values[i] ?? 0) })) };
}

/** Bars are amounts over their span: fewer, wider bars sum their days ("1–2"), so the total stays the same. */
function merged(categories: string[], series: Fitted['series']): Fitted {
  const n = categories.length;
  if (n <= SLACK_PLOT.points) return { categories, series };
  const width = Math.ceil(n / SLACK_PLOT.points);
  const groups = Array.from({ length: Math.ceil(n / width) }, (_, g) => [g * width, Math.min(n, (g + 1) * width) - 1] as const);
  return {
    categories: groups.map(([from, to]) => (from === to ? categories[from]! : `${categories[from]}–${categories[to]}`)),
    series: series.map((s) => ({
      ...s,
      values: groups.map(([from, to]) => round2(s.values.slice(from, to + 1).reduce((sum, v) => sum + v, 0))),
    })),
  };
}

function labelOf(text: string): string {
  return short(text, SLACK_PLOT.label) || '—';
}

function short(text: string, max: number): string {
  return truncate(oneLine(text), max);
}

function distinct(labels: string[]): string[] {
  const seen = new Set<string>();
  return labels.map((label, i) => {
    const unique = seen.has(label) ? truncate(`${label.slice(0, SLACK_PLOT.label - 4)} #${i + 1}`, SLACK_PLOT.label) : label;
    seen.add(unique);
    return unique;
  });
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
