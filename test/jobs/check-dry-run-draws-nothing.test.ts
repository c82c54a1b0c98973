import { describe, expect, it, vi } from 'vitest';
import { daysOf } from '../../src/domain/period.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { spendRow, testDeps } from '../support/deps.js';

// Every PNG burnrate draws goes through resvg: counting its renderers counts the charts drawn.
const drawn = vi.hoisted(() => ({ count: 0 }));
vi.mock('@resvg/resvg-js', async (importOriginal) => {
  const real = await importOriginal<typeof import('@resvg/resvg-js')>();
  class CountedResvg extends real.Resvg {
    constructor(...args: ConstructorParameters<typeof real.Resvg>) {
      super(...args);
      drawn.count += 1;
    }
  }
  return { ...real, Resvg: CountedResvg };
});

const config = {
  teams: [{ id: 'ml', name: 'ML', budget: { monthly: 1000, thresholds: [50], forecast: false } }],
};

describe('a dry run of a check (`burnrate check --dry-run`)', () => {
  it('reports the crossing but draws no chart; the real run draws the new alert its chart', async () => {
    const { deps } = testDeps(config);
    // 10 days of 70: 700 of 1,000 crosses 50% (a sum the test writes, not burnrate's).
    const days = daysOf({ start: '2026-11-01', end: '2026-11-11' });
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: days.map((d) => spendRow('ml', d, 70)),
        dataThrough: '2026-11-11T00:00:00Z',
      },
    ]);

    const dry = await runBudgetCheck(deps, { dryRun: true });
    expect(dry.findings.map((f) => [f.threshold, f.state])).toEqual([[50, 'new']]);
    expect(dry.queued).toEqual([]);
    expect(drawn.count).toBe(0);

    // The same check for real: the new alert carries its burn chart, so the count can move.
    const real = await runBudgetCheck(deps);
    expect(real.queued.length).toBeGreaterThan(0);
    expect(drawn.count).toBeGreaterThan(0);
  });
});
