import { describe, expect, it } from 'vitest';
import { addDays, monthOf } from '../../src/domain/period.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { loadSavingsLedger } from '../../src/snapshots/savings-ledger.js';
import { spendRow, testDeps } from '../support/deps.js';

const WORKLOAD = 'ml-research/deployment/llm-serve';

describe('the savings ledger of a stopped workload', () => {
  it('books nothing when it was resumed 8 seconds after the stop, though the stop held every day until the Resume was recorded', async () => {
    const { deps } = testDeps(demoConfig(), '2026-11-25T09:00:00Z');
    // $120 a day for four weeks before the stop on 10 Nov; still billed $120 a day since (it runs again).
    const rows = Array.from({ length: 45 }, (_, i) => ({
      ...spendRow('ml-research', addDays('2026-10-13', i), 120),
      resourceId: WORKLOAD,
    }));
    await deps.store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-10', '2026-11'] }, rows, dataThrough: '2026-11-27T00:00:00Z' },
    ]);
    const stopAt = new Date('2026-11-10T09:00:00Z');
    const stop = {
      action: 'instance.stop' as const,
      ref: 'gpu-idle:llm-serve',
      resourceId: WORKLOAD,
      name: 'llm-serve',
      team: 'ml-research',
    };
    await deps.store.instanceActions.claim({
      findingId: stop.ref,
      action: stop.action,
      instanceId: WORKLOAD,
      byUser: 'U0ALICE',
      at: stopAt,
    });
    await deps.store.instanceActions.complete(stop.ref, stop.action, 'stopped', 'scaled to 0', [
      { ...stop, at: stopAt, byUser: 'U0ALICE', expectedDaily: 120, currency: 'USD' },
    ]);

    // Before the Resume: every day from the 11th expected at $120; the bill (still $120 a day) confirms nothing.
    const held = await loadSavingsLedger(deps, monthOf('2026-11-01'));
    expect(held).toMatchObject({ expected: 120 * 20, realised: 0 });

    await deps.store.instanceActions.claim({
      findingId: stop.ref,
      action: 'workload.resume',
      instanceId: WORKLOAD,
      byUser: 'U0ALICE',
      at: new Date(stopAt.getTime() + 8_000),
    });
    await deps.store.instanceActions.complete(stop.ref, 'workload.resume', 'resumed', 'replicas back to 1');
    expect(await loadSavingsLedger(deps, monthOf('2026-11-01'))).toMatchObject({ lines: [], expected: 0, realised: 0 });
  });
});
