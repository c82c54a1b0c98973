import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/domain/finding.js';
import type { SweepFinding } from '../../src/domain/sweep-finding.js';
import { openStore } from '../../src/store/open-store.js';

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

describe('recording a check run', () => {
  it('writes the findings to the check table and queues the alerts', async () => {
    const store = openStore(':memory:');
    await store.recordRun(
      'findings',
      { opened: [budget], stillOpen: [], resolved: [] },
      [{ dedupeKey: 'a:fake', target: 'fake:#ml', message }],
      now,
    );
    await store.recordRun(
      'sweepFindings',
      { opened: [sweep], stillOpen: [], resolved: [] },
      [{ dedupeKey: 'b:fake', target: 'fake:#ml', message }],
      now,
    );
    expect((await store.findings.get(budget.id))?.state).toBe('new');
    expect((await store.sweepFindings.listOpen()).map((f) => f.id)).toEqual([sweep.id]);
    expect((await store.outbox.summary()).pending).toBe(2);

    await store.recordRun('sweepFindings', { opened: [], stillOpen: [], resolved: [sweep.id] }, [], now);
    expect(await store.sweepFindings.listOpen()).toEqual([]);
    expect((await store.findings.get(budget.id))?.state).toBe('new');
  });

  it('records nothing of a run whose alerts cannot be queued', async () => {
    const store = openStore(':memory:');
    const broken = { dedupeKey: 'a:fake', target: null as unknown as string, message };
    await expect(store.recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [broken], now)).rejects.toThrow();
    expect(await store.findings.get(budget.id)).toBeNull();
  });
});
