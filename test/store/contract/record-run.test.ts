import { expect, it } from 'vitest';
import type { Finding } from '../../../src/domain/finding.js';
import type { GpuFinding } from '../../../src/domain/gpu-finding.js';
import type { SweepFinding } from '../../../src/domain/sweep-finding.js';
import { withSecondReplica } from '../../support/second-replica.js';
import { describeStores } from '../../support/stores.js';

const now = new Date('2026-11-21T09:00:00Z');
const message = { summary: 'over budget', blocks: [] };

const budget: Finding = {
  id: 'budget.actual:ml:2026-11:80',
  kind: 'budget.actual',
  team: 'ml',
  cadence: 'monthly',
  period: '2026-11',
  range: { start: '2026-11-01', end: '2026-12-01' },
  threshold: 80,
  amount: 850,
  budget: 1000,
  currency: 'USD',
  actual: 850,
  forecast: null,
  dataThrough: '2026-11-20',
};

const gpu = {
  id: 'gpu.idle:i-0abc',
  kind: 'gpu.idle',
  team: 'ml',
  instanceId: 'i-0abc',
  idleMinutes: 120,
} as unknown as GpuFinding;

const sweep: SweepFinding = {
  id: 'sweep.spend:ml:lr-search',
  kind: 'sweep.spend',
  team: 'ml',
  sweep: 'lr-search',
  cap: 500,
  value: 620,
  spend: 620,
  gpuHours: 40,
  windowHours: 24,
  perHour: 30,
  instances: [],
};

describeStores('recording a check run', (store) => {
  it('writes the findings to the check table and queues the alerts', async () => {
    await store().recordRun(
      'findings',
      { opened: [budget], stillOpen: [], resolved: [] },
      [{ dedupeKey: 'a:fake', target: 'fake:#ml', message }],
      now,
    );
    await store().recordRun(
      'sweepFindings',
      { opened: [sweep], stillOpen: [], resolved: [] },
      [{ dedupeKey: 'b:fake', target: 'fake:#ml', message }],
      now,
    );
    expect((await store().findings.get(budget.id))?.state).toBe('new');
    expect((await store().sweepFindings.listOpen()).map((f) => f.id)).toEqual([sweep.id]);
    expect((await store().outbox.summary()).pending).toBe(2);

    await store().recordRun('sweepFindings', { opened: [], stillOpen: [], resolved: [sweep.id] }, [], now);
    expect(await store().sweepFindings.listOpen()).toEqual([]);
    expect((await store().findings.get(budget.id))?.state).toBe('new');
  });

  it('records nothing of a run whose alerts cannot be queued', async () => {
    const broken = { dedupeKey: 'a:fake', target: null as unknown as string, message };
    await expect(store().recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [broken], now)).rejects.toThrow();
    expect(await store().findings.get(budget.id)).toBeNull();
  });

  it('resolves findings, and opens a resolved one again as new with a new first sighting', async () => {
    await store().recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [], now);
    await store().recordRun('findings', { opened: [], stillOpen: [{ ...budget, amount: 900 }], resolved: [] }, [], later(1));
    expect(await store().findings.get(budget.id)).toMatchObject({
      state: 'open',
      amount: 900,
      firstSeen: now.toISOString(),
      lastSeen: later(1).toISOString(),
    });
    await store().recordRun('findings', { opened: [], stillOpen: [], resolved: [budget.id] }, [], later(2));
    expect(await store().findings.get(budget.id)).toMatchObject({ state: 'resolved', resolvedAt: later(2).toISOString() });
    expect(await store().findings.listOpen()).toEqual([]);
    await store().recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [], later(3));
    expect(await store().findings.get(budget.id)).toMatchObject({ state: 'new', firstSeen: later(3).toISOString(), resolvedAt: null });
    const other = { ...budget, id: 'budget.actual:ml:2026-10:80', period: '2026-10' };
    await store().recordRun('findings', { opened: [other], stillOpen: [], resolved: [] }, [], later(3));
    expect((await store().findings.listForPeriods(['2026-10', '2026-11'])).map((f) => f.id)).toEqual([other.id, budget.id]);
    expect((await store().findings.listOpen()).map((f) => f.id)).toEqual([other.id, budget.id]);
    expect(await store().findings.listForPeriods([])).toEqual([]);
  });

  it('keeps GPU findings open while seen and resolves them', async () => {
    await store().recordRun('gpuFindings', { opened: [gpu], stillOpen: [], resolved: [] }, [], now);
    await store().recordRun('gpuFindings', { opened: [], stillOpen: [{ ...gpu, idleMinutes: 200 }], resolved: [] }, [], later(1));
    expect(await store().gpuFindings.get(gpu.id)).toMatchObject({ state: 'open', idleMinutes: 200, firstSeen: now, lastSeen: later(1) });
    await store().recordRun('gpuFindings', { opened: [], stillOpen: [], resolved: [gpu.id] }, [], later(2));
    expect(await store().gpuFindings.listOpen()).toEqual([]);
    expect(await store().gpuFindings.get(gpu.id)).toMatchObject({ state: 'resolved', resolvedAt: later(2) });
    expect(await store().gpuFindings.get('nope')).toBeNull();
  });

  it('queues the alerts of a run once when two replicas record the same run at once', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      const alert = { dedupeKey: 'a:fake', target: 'fake:#ml', message };
      // The same run on both, each with its own dedupe key for the alert (a reworded message, say):
      // the findings' state decides, not the key.
      await Promise.all([
        store().recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [alert], now),
        other.recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [{ ...alert, dedupeKey: 'b:fake' }], now),
      ]);
      expect((await store().outbox.summary()).pending).toBe(1);
      expect((await store().findings.get(budget.id))?.state).toBe('new');
    });
  });
});

function later(minutes: number): Date {
  return new Date(now.getTime() + minutes * 60_000);
}
