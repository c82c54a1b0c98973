import { expect, it } from 'vitest';
import type { KubeSplitCost } from '../../../src/domain/kube-usage.js';
import { describeStores } from '../../support/stores.js';

const pod = (day: string, name: string, splitCost: number, overrides: Partial<KubeSplitCost> = {}): KubeSplitCost => ({
  day,
  nodeInstanceId: 'i-0node',
  cluster: 'prod',
  namespace: 'ml',
  pod: name,
  billingPeriod: day.slice(0, 7),
  currency: 'USD',
  splitCost,
  ...overrides,
});

describeStores('kube split costs', (store) => {
  it("keeps the bill's pod split of a day, a pod's amounts of one day added up", async () => {
    await store().kubeUsage.replaceSplitCosts(
      'cur',
      ['2026-11'],
      [pod('2026-11-03', 'trainer-0', 1.25), pod('2026-11-03', 'trainer-0', 2.5)],
    );
    expect(await store().kubeUsage.splitCosts({ start: '2026-11-01', end: '2026-12-01' })).toEqual([pod('2026-11-03', 'trainer-0', 3.75)]);
    expect(await store().kubeUsage.splitCosts({ start: '2026-11-04', end: '2026-12-01' })).toEqual([]);
  });

  it("a re-import replaces its own source's billing periods only", async () => {
    await store().kubeUsage.replaceSplitCosts('cur', ['2026-10', '2026-11'], [pod('2026-10-31', 'a-0', 1), pod('2026-11-01', 'a-0', 2)]);
    await store().kubeUsage.replaceSplitCosts('other', ['2026-11'], [pod('2026-11-01', 'b-0', 5)]);
    await store().kubeUsage.replaceSplitCosts('cur', ['2026-11'], [pod('2026-11-01', 'a-0', 4)]);
    expect(await store().kubeUsage.splitCosts({ start: '2026-10-01', end: '2026-12-01' })).toEqual([
      pod('2026-10-31', 'a-0', 1),
      pod('2026-11-01', 'a-0', 4),
      pod('2026-11-01', 'b-0', 5),
    ]);
  });
});
