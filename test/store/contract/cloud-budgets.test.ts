import { expect, it } from 'vitest';
import type { CloudBudget } from '../../../src/domain/cloud-budget.js';
import { describeStores } from '../../support/stores.js';

// The cloud budgets table (cloud-budgets.ts): each listing of a source replaces what it listed before, with its freshness.

const budget = (over: Partial<CloudBudget> & Pick<CloudBudget, 'id'>): CloudBudget => ({
  source: 'aws-budgets',
  origin: 'aws',
  name: over.id,
  team: 'ml',
  mappedBy: 'name',
  period: 'monthly',
  amount: 1000,
  currency: 'USD',
  actual: 412.5,
  forecast: null,
  thresholds: [80, 100],
  notifications: [
    { threshold: 80, on: 'actual' },
    { threshold: 100, on: 'forecast' },
  ],
  drivesAlerts: false,
  ...over,
});

const at = (iso: string) => new Date(iso);

describeStores('cloud budgets', (store) => {
  it('lists every budget by origin, team (unmapped first) and id, as it was written', async () => {
    const aws = [budget({ id: '111/b' }), budget({ id: '111/a', team: null, mappedBy: null }), budget({ id: '111/C', team: 'Vision' })];
    const gcp = [budget({ id: 'billingAccounts/x/budgets/1', source: 'gcp-budgets', origin: 'gcp', actual: null, team: 'cv' })];
    await store().cloudBudgets.replace('aws-budgets', aws, at('2026-11-04T06:00:00Z'));
    await store().cloudBudgets.replace('gcp-budgets', gcp, at('2026-11-04T06:00:00Z'));
    expect(await store().cloudBudgets.list()).toEqual([aws[1], aws[2], aws[0], gcp[0]]);
  });

  it("replaces only the listing source's budgets, and records its refresh", async () => {
    await store().cloudBudgets.replace('aws-budgets', [budget({ id: '111/a' }), budget({ id: '111/b' })], at('2026-11-04T06:00:00Z'));
    await store().cloudBudgets.replace('aws-other', [budget({ id: '111/a', source: 'aws-other' })], at('2026-11-04T06:00:00Z'));
    await store().freshness.recordFailure('aws-budgets', 'AccessDenied', at('2026-11-04T07:00:00Z'));
    const now = [budget({ id: '111/b', amount: 2000 })];
    await store().cloudBudgets.replace('aws-budgets', now, at('2026-11-04T08:00:00Z'));
    expect(await store().cloudBudgets.list()).toEqual([budget({ id: '111/a', source: 'aws-other' }), now[0]]);
    expect(await store().freshness.failures()).toEqual([]);
    expect(await store().freshness.list()).toEqual([
      { source: 'aws-budgets', dataThrough: null, refreshedAt: '2026-11-04T08:00:00.000Z' },
      { source: 'aws-other', dataThrough: null, refreshedAt: '2026-11-04T06:00:00.000Z' },
    ]);
    await store().cloudBudgets.replace('aws-budgets', [], at('2026-11-04T09:00:00Z'));
    expect(await store().cloudBudgets.list()).toEqual([budget({ id: '111/a', source: 'aws-other' })]);
  });

  it('keeps one listing whole when replicas list the same source at once', async () => {
    const listing = (amount: number) => Array.from({ length: 300 }, (_, i) => budget({ id: `111/${String(i).padStart(3, '0')}`, amount }));
    await store().cloudBudgets.replace('aws-budgets', listing(0), at('2026-11-04T05:00:00Z'));
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        [1, 2, 3, 4].map((amount) => store().cloudBudgets.replace('aws-budgets', listing(amount), at('2026-11-04T06:00:00Z'))),
      );
      const listed = await store().cloudBudgets.list();
      expect(listed).toHaveLength(300);
      expect(new Set(listed.map((b) => b.amount)).size).toBe(1);
    }
  });
});
