import { expect, it } from 'vitest';
import type { BudgetOverride } from '../../../src/domain/budget-override.js';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);
const override = (
  team: string,
  cadence: BudgetOverride['cadence'],
  amount: number,
  more: Partial<BudgetOverride> = {},
): BudgetOverride => ({
  team,
  cadence,
  amount,
  thresholds: null,
  byUser: 'U1',
  at: at('2026-11-03T00:00:00Z'),
  ...more,
});

describeStores('budgets set from chat', (store) => {
  it('lists budgets by team and cadence, the last one set winning', async () => {
    await store().budgets.set(override('vision', 'monthly', 30_000));
    await store().budgets.set(override('nlp', 'weekly', 5_000, { thresholds: [50, 90] }));
    await store().budgets.set(override('nlp', 'monthly', 20_000));
    await store().budgets.set(override('nlp', 'monthly', 25_000.5, { thresholds: [80], byUser: 'U2', at: at('2026-11-04T00:00:00Z') }));
    expect(await store().budgets.list()).toEqual([
      override('nlp', 'monthly', 25_000.5, { thresholds: [80], byUser: 'U2', at: at('2026-11-04T00:00:00Z') }),
      override('nlp', 'weekly', 5_000, { thresholds: [50, 90] }),
      override('vision', 'monthly', 30_000),
    ]);
  });

  it('lists teams byte by byte', async () => {
    const teams = ['Vision', 'ml-ops', 'ml_ops', 'mlops'];
    for (const team of [...teams].reverse()) await store().budgets.set(override(team, 'weekly', 1_000));
    expect((await store().budgets.list()).map((b) => b.team)).toEqual(teams);
  });
});
