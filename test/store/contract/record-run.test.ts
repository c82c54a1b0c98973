import { expect, it } from 'vitest';
import type { FindingChange } from '../../../src/domain/finding-change.js';
import type { FindingTable, FindingTables } from '../../../src/store/store.js';
import { withSecondReplica } from '../../support/second-replica.js';
import { describeStores } from '../../support/stores.js';
import { alert, budget, budgetOf, gpu, later, now, sweep } from './finding-fixtures.js';

const message = { summary: 'over budget', blocks: [] };

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

  it('queues no alerts of a run whose findings are all open already: another process recorded it', async () => {
    await store().recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [alert('first')], now);
    await store().recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [alert('again')], later(1));
    expect(await queued()).toEqual(['first']);
    expect(await store().findings.get(budget.id)).toMatchObject({
      state: 'new',
      firstSeen: now.toISOString(),
      lastSeen: later(1).toISOString(),
    });

    // The same finding named twice is still one finding, open already.
    await store().recordRun('findings', { opened: [budget, budget], stillOpen: [], resolved: [] }, [alert('twice')], later(2));
    expect(await queued()).toEqual(['first']);
  });

  it('queues the alerts of a run that opens one new finding, or none', async () => {
    await store().recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [alert('first')], now);
    const october = budgetOf('ml', '2026-10');
    await store().recordRun('findings', { opened: [budget, october], stillOpen: [], resolved: [] }, [alert('october')], later(1));
    await store().recordRun('findings', { opened: [], stillOpen: [budget], resolved: [october.id] }, [alert('resolved')], later(2));
    // A finding resolved since is not open: opening it again alerts again.
    await store().recordRun('findings', { opened: [october], stillOpen: [], resolved: [] }, [alert('october again')], later(3));
    expect(await queued()).toEqual(['first', 'october', 'resolved', 'october again']);
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

  it('queues the alerts of a GPU or sweep run once when two replicas record it at once', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      const same = async <T extends FindingTable>(table: T, change: FindingChange<FindingTables[T]>, key: string) => {
        await Promise.all([
          store().recordRun(table, change, [alert(`${key}:a`)], now),
          other.recordRun(table, change, [alert(`${key}:b`)], now),
        ]);
      };
      await same('gpuFindings', { opened: [gpu], stillOpen: [], resolved: [] }, 'gpu');
      await same('sweepFindings', { opened: [sweep], stillOpen: [], resolved: [] }, 'sweep');
      expect((await queued()).map((key) => key.split(':')[0]).sort()).toEqual(['gpu', 'sweep']);
      expect((await other.gpuFindings.listOpen()).map((f) => f.id)).toEqual([gpu.id]);
      expect((await other.sweepFindings.listOpen()).map((f) => f.id)).toEqual([sweep.id]);
    });
  });

  async function queued(): Promise<string[]> {
    return (await store().outbox.due(later(60))).map((item) => item.dedupeKey);
  }
});
