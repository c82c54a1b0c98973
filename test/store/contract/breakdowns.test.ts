import { expect, it } from 'vitest';
import type { SpendRow } from '../../../src/domain/spend.js';
import { describeStores } from '../../support/stores.js';
import { batchOf, byBytes, expectClose, line, NOVEMBER, sumsBy } from './spend-fixtures.js';

// Spend breakdowns (spend-breakdowns.ts): the slices of a team's month a cost review shows, summed here from the rows.

const ROWS: SpendRow[] = [
  line({ resourceId: 'i-1', resourceName: 'trainer', effective: 30.1, experiment: 'llm-ft', run: 'r1', sweep: 'lr' }),
  line({ resourceId: 'i-1', resourceName: 'Trainer', day: '2026-11-04', effective: 12.2, experiment: 'llm-ft', run: 'r2' }),
  line({ resourceId: 'i-2', service: 'SageMaker', serviceCategory: 'AI and Machine Learning', effective: 42.3, experiment: 'Vision-pt' }),
  line({ resourceId: null, service: 'Support', serviceCategory: null, pricingCategory: null, effective: 5 }),
  line({ resourceId: null, service: 'Data Transfer', serviceCategory: 'Networking', effective: 1.5, day: '2026-11-04' }),
  line({ resourceId: 'i-3', effective: -2 }), // a net credit: not a cost line
  line({ resourceId: 'i-4', chargeCategory: 'Tax', effective: 100 }), // not usage
  line({ resourceId: 'i-5', effective: 42.3 }), // a tie with i-2: the key decides
  line({ team: 'cv', resourceId: 'i-9', effective: 500, experiment: 'other' }),
  line({ day: '2026-12-01', billingPeriod: '2026-12', effective: 1000, experiment: 'llm-ft' }),
];

describeStores('spend breakdowns', (store) => {
  const mine = ROWS.filter((r) => r.team === 'ml' && r.day < NOVEMBER.end);

  it("sums a team's spend per day and service category, 'Other' where a line has none", async () => {
    await store().importBatches([batchOf(ROWS, { billingPeriods: ['2026-11', '2026-12'] })]);
    const expected = [...sumsBy(mine, (r) => `${r.day}\u0000${r.serviceCategory ?? 'Other'}`)].map(([key, sum]) => {
      const [day, category] = key.split('\u0000') as [string, string];
      return { day, category, currency: 'USD', period: '2026-11', effective: sum.effective };
    });
    expectClose(await store().breakdowns.dailyByCategory(NOVEMBER, 'ml'), expected);
  });

  it("lists a team's usage lines, a resource or a service without one, each in parts per currency and billing period", async () => {
    const yen = line({ resourceId: 'i-1', currency: 'JPY', effective: 3000, billingPeriod: '2026-10', day: '2026-11-01' });
    await store().importBatches([batchOf([...ROWS, yen], { billingPeriods: ['2026-10', '2026-11', '2026-12'] })]);
    const lines = await store().breakdowns.costLines(NOVEMBER, 'ml');
    const part = { service: 'EC2', category: 'Compute', pricing: 'Standard', currency: 'USD', period: '2026-11', resourceName: null };
    expectClose(lines, [
      { ...part, key: 'Data Transfer', resourceId: null, service: 'Data Transfer', category: 'Networking', effective: 1.5 },
      { ...part, key: 'Support', resourceId: null, service: 'Support', category: 'Other', pricing: null, effective: 5 },
      { ...part, key: 'i-1', resourceId: 'i-1', resourceName: null, currency: 'JPY', period: '2026-10', effective: 3000 },
      { ...part, key: 'i-1', resourceId: 'i-1', resourceName: 'trainer', effective: 30.1 + 12.2 },
      { ...part, key: 'i-2', resourceId: 'i-2', service: 'SageMaker', category: 'AI and Machine Learning', effective: 42.3 },
      { ...part, key: 'i-3', resourceId: 'i-3', effective: -2 },
      { ...part, key: 'i-5', resourceId: 'i-5', effective: 42.3 },
    ]);
  });

  it("sums a team's spend per experiment, run and sweep, untagged lines left out", async () => {
    await store().importBatches([batchOf(ROWS, { billingPeriods: ['2026-11', '2026-12'] })]);
    const expected = (tag: (r: SpendRow) => string | null | undefined) =>
      [
        ...sumsBy(
          mine.filter((r) => tag(r) != null),
          (r) => tag(r)!,
        ),
      ]
        .map(([key, sum]) => ({ key, currency: 'USD', period: '2026-11', effective: sum.effective }))
        .sort((a, b) => byBytes(a.key, b.key));
    expectClose(
      await store().breakdowns.unitTotals(NOVEMBER, 'ml', 'experiment'),
      expected((r) => r.experiment),
    );
    expectClose(
      await store().breakdowns.unitTotals(NOVEMBER, 'ml', 'run'),
      expected((r) => r.run),
    );
    expectClose(
      await store().breakdowns.unitTotals(NOVEMBER, 'ml', 'sweep'),
      expected((r) => r.sweep),
    );
    expect(await store().breakdowns.unitTotals(NOVEMBER, 'nobody', 'run')).toEqual([]);
  });
});
