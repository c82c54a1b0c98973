import { expect, it } from 'vitest';
import type { GpuFinding } from '../../../src/domain/gpu-finding.js';
import type { OutboxDraft } from '../../../src/store/outbox-records.js';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);

const finding = (id: string, instanceId: string): GpuFinding => ({
  id,
  kind: 'gpu.idle',
  team: null,
  instanceId,
  workload: null,
  protected: false,
  since: '2026-11-03T06:00:00.000Z',
  idleMinutes: 240,
  burned: 40.24,
  perDay: 241.44,
  hourlyPrice: 10.06,
  gpus: 8,
  stalledGpus: 0,
  missingMinutes: 0,
  description: 'idle since 06:00',
  name: 'untagged-llm',
  instanceType: 'p4d.24xlarge',
});

const alert = (dedupeKey: string, threadOf?: string): OutboxDraft => ({
  dedupeKey,
  target: 'slack:C0VISION',
  message: { summary: 'untagged-llm is now vision’s', blocks: [] },
  ...(threadOf ? { threadOf } : {}),
});

describeStores('instance owners', (store) => {
  it('records who owns an instance, and takes a new owner over the old', async () => {
    expect(await store().instanceOwners.list()).toEqual([]);
    await store().instanceOwners.reassign({ instanceId: 'i-0b', team: 'vision', byUser: 'U0ALICE', at: at('2026-11-03T10:00:00Z') }, []);
    await store().instanceOwners.reassign({ instanceId: 'i-0B', team: 'nlp', byUser: 'U0BOB', at: at('2026-11-03T10:01:00Z') }, []);
    await store().instanceOwners.reassign({ instanceId: 'i-0a', team: 'nlp', byUser: 'U0BOB', at: at('2026-11-03T10:02:00Z') }, []);
    await store().instanceOwners.reassign({ instanceId: 'i-0b', team: 'ml-research', byUser: 'U0EVE', at: at('2026-11-03T11:00:00Z') }, []);
    // By instance id, byte order.
    expect(await store().instanceOwners.list()).toEqual([
      { instanceId: 'i-0B', team: 'nlp', byUser: 'U0BOB', at: at('2026-11-03T10:01:00Z') },
      { instanceId: 'i-0a', team: 'nlp', byUser: 'U0BOB', at: at('2026-11-03T10:02:00Z') },
      { instanceId: 'i-0b', team: 'ml-research', byUser: 'U0EVE', at: at('2026-11-03T11:00:00Z') },
    ]);
  });

  it("moves the instance's open findings to the new team and queues the alerts, together", async () => {
    const now = at('2026-11-03T10:00:00Z');
    await store().recordRun(
      'gpuFindings',
      {
        opened: [finding('f-open', 'i-0llm'), finding('f-resolved', 'i-0llm'), finding('f-other', 'i-0other')],
        stillOpen: [],
        resolved: [],
      },
      [],
      now,
    );
    await store().recordRun('gpuFindings', { opened: [], stillOpen: [], resolved: ['f-resolved'] }, [], now);

    await store().instanceOwners.reassign({ instanceId: 'i-0llm', team: 'vision', byUser: 'U0ALICE', at: now }, [
      alert('reroute:i-0llm', 'gpu:i-0llm'),
      alert('reroute:i-0llm:dm'),
    ]);
    expect(await store().gpuFindings.get('f-open')).toMatchObject({ ...finding('f-open', 'i-0llm'), team: 'vision', state: 'open' });
    expect(await store().gpuFindings.get('f-resolved')).toMatchObject({ team: null, state: 'resolved' });
    expect(await store().gpuFindings.get('f-other')).toMatchObject({ team: null, state: 'open' });
    expect((await store().outbox.due(now)).map((item) => item.dedupeKey)).toEqual(['reroute:i-0llm', 'reroute:i-0llm:dm']);
    expect(await store().outbox.threadRoot('gpu:i-0llm', 'slack')).toBe('reroute:i-0llm');
  });
});
