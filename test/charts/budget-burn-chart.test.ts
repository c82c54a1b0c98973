import { describe, expect, it } from 'vitest';
import { budgetBurnSpec, burnSeries, renderBudgetBurnChart, type BudgetBurnChartInput } from '../../src/charts/budget-burn-chart.js';
import { TEAMS_INLINE_IMAGE_BYTES } from '../../src/chat/teams/teams-chat.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** 14 days of November spent (one day without spend), a $30,000 budget forecast to end at $31,200 (80%: $29,500–$33,000). */
const spendPerDay = [900, 950, 1_000, 1_050, 1_100, 1_150, 1_200, 900, 0, 1_000, 1_050, 1_100, 1_150, 1_200.55];
const input: BudgetBurnChartInput = {
  title: 'ML Research: November 2026 against its $30K budget',
  period: { start: '2026-11-01', end: '2026-12-01' },
  currency: 'USD',
  daily: spendPerDay.flatMap((amount, i) => (amount === 0 ? [] : [{ day: `2026-11-${String(i + 1).padStart(2, '0')}`, amount }])),
  lastDay: '2026-11-14',
  budget: 30_000,
  forecast: { amount: 31_200, low: 29_500, high: 33_000 },
};

describe('the budget burn chart', () => {
  it('draws the running total of what was spent, day by day, to the last day of data', () => {
    const { spent } = burnSeries(input);
    let total = 0;
    const byHand = spendPerDay.map((amount) => Math.round((total += amount) * 100) / 100);
    expect(spent.map((s) => s.amount)).toEqual(byHand);
    expect(spent.at(-1)).toEqual({ day: '2026-11-14', amount: 13_750.55 });
  });

  it('draws the forecast from the last total to the period end, inside a range that opens to its 80% ends', () => {
    const { forecast } = burnSeries(input);
    expect(forecast[0]).toEqual({ day: '2026-11-14', amount: 13_750.55, low: 13_750.55, high: 13_750.55 });
    expect(forecast.at(-1)).toEqual({ day: '2026-11-30', amount: 31_200, low: 29_500, high: 33_000 });
    expect(forecast).toHaveLength(1 + 16);
    // A straight line: equal steps.
    const steps = forecast.slice(1).map((p, i) => p.amount - forecast[i]!.amount);
    for (const step of steps) expect(step).toBeCloseTo((31_200 - 13_750.55) / 16, 1);
  });

  it('draws the budget as a line across, and neither line nor forecast where there is none', () => {
    const layers = (spec: object) => JSON.stringify(spec);
    expect(layers(budgetBurnSpec(input))).toContain('{"budget":30000}');
    const bare = budgetBurnSpec({ ...input, budget: null, forecast: null });
    expect(layers(bare)).not.toContain('"budget":');
    expect(burnSeries({ ...input, forecast: null }).forecast).toEqual([]);
  });

  it('is a small PNG that travels inside a Teams card, the same bytes for the same input', async () => {
    const [a, b] = await Promise.all([renderBudgetBurnChart(input), renderBudgetBurnChart(input)]);
    expect(a.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(a.png.equals(b.png)).toBe(true);
    expect(a.png.length).toBeLessThan(TEAMS_INLINE_IMAGE_BYTES / 2);
  });
});
