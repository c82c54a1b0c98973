import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { budgetBurnSpec } from '../../src/charts/budget-burn-chart.js';
import { drawChart } from '../../src/charts/draw-chart.js';

// The built program's main thread draws its charts on the chart thread (its script exists only in
// the build, which `npm test` makes first): the same spec must give the same bytes there as in place,
// and a chart that cannot be drawn must fail its caller alone, not the thread's later charts.
const BUILT = new URL('../../dist/src/charts/chart-thread.js', import.meta.url);
type ChartThreadModule = typeof import('../../src/charts/chart-thread.js');

const spec = budgetBurnSpec({
  title: 'ML Research: November 2026 against its $30K budget',
  period: { start: '2026-11-01', end: '2026-12-01' },
  currency: 'USD',
  daily: [900, 950, 1_000, 1_050].map((amount, i) => ({ day: `2026-11-0${i + 1}`, amount })),
  lastDay: '2026-11-04',
  budget: 30_000,
  forecast: { amount: 31_200, low: 29_500, high: 33_000 },
});

describe.skipIf(!existsSync(fileURLToPath(BUILT)))('charts drawn on the chart thread', () => {
  it('gives the bytes drawing in place gives, full size and compact', async () => {
    const { drawChartOffThread } = (await import(BUILT.href)) as ChartThreadModule;
    for (const compact of [false, true]) {
      const [onThread, inPlace] = await Promise.all([drawChartOffThread(spec, compact, true), drawChart(spec, compact)]);
      expect(Buffer.isBuffer(onThread.png)).toBe(true);
      expect({ ...onThread, png: onThread.png.toString('base64') }).toEqual({ ...inPlace, png: inPlace.png.toString('base64') });
    }
  }, 60_000);

  it('fails the chart that cannot be drawn with its reason, and draws the next one', async () => {
    const { drawChartOffThread } = (await import(BUILT.href)) as ChartThreadModule;
    const broken = { ...spec, layer: [{ mark: 'no-such-mark' }] } as unknown as typeof spec;
    const reason = await drawChart(broken, true).then(
      () => 'drawn',
      (error: Error) => error.message,
    );
    expect(reason).not.toBe('drawn');
    await expect(drawChartOffThread(broken, true, true)).rejects.toThrow(reason);
    const next = await drawChartOffThread(spec, true, true);
    expect(next.png.subarray(1, 4).toString()).toBe('PNG');
  }, 60_000);
});
