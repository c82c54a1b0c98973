import { describe, expect, it } from 'vitest';
import { renderCompactDailySpendChart, renderDailySpendChart, type DailySpendChartInput } from '../../src/charts/daily-spend-chart.js';
import { TEAMS_INLINE_IMAGE_BYTES } from '../../src/chat/teams/teams-chat.js';
import { daysOf } from '../../src/domain/period.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const period = { start: '2026-11-01', end: '2026-12-01' };
const input: DailySpendChartInput = {
  title: 'LLM Training: daily spend by service category, November 2026',
  period,
  currency: 'USD',
  days: daysOf(period).flatMap((day, i) => [
    { day, category: 'Compute', effective: 4_000 + (i % 7) * 150 },
    { day, category: 'Storage', effective: 600 + i * 3 },
    { day, category: 'AI and Machine Learning', effective: 200 },
    { day, category: 'Something new', effective: 25 },
  ]),
};

/** Width and height from the PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('the daily spend chart (vega-lite → vega SVG → resvg PNG, no browser)', () => {
  it('is a PNG of the size it reports, at twice the chart size for sharp chat previews', async () => {
    const chart = await renderDailySpendChart(input);
    expect(chart.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(chart.png)).toEqual({ width: chart.width, height: chart.height });
    expect(chart.width).toBeGreaterThan(1_280);
    expect(chart.width).toBeLessThan(1_600);
    expect(chart.height).toBeGreaterThan(520);
    expect(chart.png.length).toBeGreaterThan(10_000);
    expect(chart.png.length).toBeLessThan(500_000); // well under Slack's and Teams' limits
  });

  it('is deterministic: the same input gives the same bytes', async () => {
    const [a, b] = await Promise.all([renderDailySpendChart(input), renderDailySpendChart(input)]);
    expect(a.png.equals(b.png)).toBe(true);
  });

  it('changes when the data changes, and draws a month without spend', async () => {
    const base = await renderDailySpendChart(input);
    const doubled = await renderDailySpendChart({
      ...input,
      days: input.days.map((d) => ({ ...d, effective: d.effective * (d.day === '2026-11-15' ? 2 : 1) })),
    });
    expect(doubled.png.equals(base.png)).toBe(false);
    const empty = await renderDailySpendChart({ ...input, days: [] });
    expect(empty.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });
});

describe('the compact chart for messages that carry their image (Teams cards)', () => {
  it('is an indexed PNG at half the width, deterministic, and far under the inline limit', async () => {
    const [full, compact, again] = await Promise.all([
      renderDailySpendChart(input),
      renderCompactDailySpendChart(input),
      renderCompactDailySpendChart(input),
    ]);
    expect(compact.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(compact.png)).toEqual({ width: compact.width, height: compact.height });
    expect(compact.png[25]).toBe(3); // IHDR colour type: indexed
    expect(compact.width).toBe(full.width / 2);
    expect(compact.png.length).toBeLessThan(TEAMS_INLINE_IMAGE_BYTES / 2);
    expect(compact.png.equals(again.png)).toBe(true);
  });
});
