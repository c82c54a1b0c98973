import { expect, it } from 'vitest';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);

describeStores('action proposals', (store) => {
  it('keeps a proposal by its id, and refuses a second with the same id', async () => {
    const proposal = {
      id: '7f1c2a9e-8d3b-4c55-9a10-2b7e4d6f8a01',
      action: 'stop' as const,
      subject: 'gpu.idle:i-0abc:2026-11-17T22:00:00.000Z',
      instanceId: 'i-0abc',
      team: 'llm-training',
      byUser: 'U0CAROL',
      reason: 'idle since Friday',
      at: at('2026-11-18T06:00:00Z'),
    };
    await store().proposals.add(proposal);
    await store().proposals.add({ ...proposal, id: 'b2c3d4e5-0000-4000-8000-000000000000', action: 'spot', team: null, reason: null });
    expect(await store().proposals.get(proposal.id)).toEqual(proposal);
    expect(await store().proposals.get('b2c3d4e5-0000-4000-8000-000000000000')).toMatchObject({ action: 'spot', team: null, reason: null });
    expect(await store().proposals.get('no-such-id')).toBeNull();
    await expect(store().proposals.add({ ...proposal, subject: 'gpu.idle:i-other' })).rejects.toThrow();
    await expect(store().proposals.add(proposal)).resolves.toBe(false);
    expect((await store().proposals.forSubject(proposal.subject)).map((p) => [p.id, p.action])).toEqual([
      ['7f1c2a9e-8d3b-4c55-9a10-2b7e4d6f8a01', 'stop'],
      ['b2c3d4e5-0000-4000-8000-000000000000', 'spot'],
    ]);
    expect(await store().proposals.forSubject('gpu.idle:i-other')).toEqual([]);
  });

  it('records one of two identical proposals made at the same moment', async () => {
    const proposal = (id: string, byUser: string) => ({
      id,
      action: 'stop' as const,
      subject: 'gpu.idle:i-0abc:2026-11-17T22:00:00.000Z',
      instanceId: 'i-0abc',
      team: 'llm-training',
      byUser,
      reason: null,
      at: at('2026-11-18T06:00:00Z'),
    });
    const added = await Promise.all([
      store().proposals.add(proposal('11111111-0000-4000-8000-000000000000', 'U0CAROL')),
      store().proposals.add(proposal('22222222-0000-4000-8000-000000000000', 'U0DAN')),
    ]);
    expect(added.filter(Boolean)).toHaveLength(1);
    expect(await store().proposals.forSubject(proposal('x', 'x').subject)).toHaveLength(1);
  });
});

describeStores('audit log by subject', (store) => {
  it("reads one subject's rows from a moment on, oldest first", async () => {
    const row = (iso: string, subject: string, userId: string) => ({
      at: at(iso),
      platform: 'console',
      userId,
      action: 'instance.stop',
      subject,
      result: 'ok' as const,
    });
    await store().audit.record(row('2026-11-18T05:00:00Z', 'f-1', 'U1'));
    await store().audit.record(row('2026-11-18T06:00:00Z', 'f-1', 'U2'));
    await store().audit.record(row('2026-11-18T06:30:00Z', 'f-2', 'U3'));
    await store().audit.record(row('2026-11-18T07:00:00Z', 'f-1', 'U4'));
    expect((await store().audit.about('f-1', at('2026-11-18T06:00:00Z'))).map((r) => [r.userId, r.at.toISOString(), r.detail])).toEqual([
      ['U2', '2026-11-18T06:00:00.000Z', null],
      ['U4', '2026-11-18T07:00:00.000Z', null],
    ]);
    expect(await store().audit.about('f-3', at('2026-11-18T00:00:00Z'))).toEqual([]);
  });
});
