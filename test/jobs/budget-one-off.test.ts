import { describe, expect, it } from 'vitest';
import { daysOf } from '../../src/domain/period.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { spendRow, testDeps } from '../support/deps.js';

// From the store to the alert: a one-off bought on the 1st is a calendar item, not a run rate.

describe('the budget check on a month with a day-1 one-off', () => {
  it('does not forecast a crossing for a month that ends at 91% of its budget', async () => {
    // By hand: 30 days × 100 of usage + a 3,000 one-off = 6,000 for November; the budget is set so
    // that 6,000 is 91% of it.
    const budget = Math.round(6000 / 0.91);
    const config = { teams: [{ id: 'ml', name: 'ML', budget: { monthly: budget, thresholds: [100], forecast: true } }] };
    const { deps } = testDeps(config, '2026-11-11T09:00:00Z');
    const usage = daysOf({ start: '2026-10-01', end: '2026-11-11' }).map((d) => spendRow('ml', d, 100));
    const oneOff = {
      ...spendRow('ml', '2026-11-01', 3000),
      chargeCategory: 'Purchase',
      chargeFrequency: 'One-Time',
      service: 'EC2 Capacity Blocks',
    };
    await deps.store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-10', '2026-11'] }, rows: [...usage, oneOff], dataThrough: '2026-11-11T00:00:00Z' },
    ]);
    const result = await runBudgetCheck(deps);
    // Weekday averages over the one-off would have projected 850 on each of the three Sundays left
    // (8,250 in all, 125% of the budget); the usage run rate keeps the forecast at 6,000.
    expect(result.findings).toEqual([]);
  });
});
