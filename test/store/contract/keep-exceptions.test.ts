import { expect, it } from 'vitest';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);

describeStores('keep exceptions', (store) => {
  it('keeps an instance until its exception runs out, moved by a second keep', async () => {
    await store().keeps.set({ instanceId: 'i-b', until: at('2026-11-05T00:00:00Z'), byUser: 'U1', at: at('2026-11-03T00:00:00Z') });
    await store().keeps.set({ instanceId: 'i-a', until: at('2026-11-04T00:00:00Z'), byUser: 'U1', at: at('2026-11-03T00:00:00Z') });
    await store().keeps.set({ instanceId: 'i-a', until: at('2026-11-06T00:00:00Z'), byUser: 'U2', at: at('2026-11-03T01:00:00Z') });
    expect(await store().keeps.active(at('2026-11-05T12:00:00Z'))).toEqual([
      { instanceId: 'i-a', until: at('2026-11-06T00:00:00Z'), byUser: 'U2', at: at('2026-11-03T01:00:00Z') },
    ]);
    expect((await store().keeps.active(at('2026-11-03T12:00:00Z'))).map((k) => k.instanceId)).toEqual(['i-a', 'i-b']);
    expect(await store().keeps.active(at('2026-11-06T00:00:00Z'))).toEqual([]);
  });

  it('lists instances byte by byte', async () => {
    // Kubernetes workloads are kept by name: upper case and punctuation occur.
    const ids = ['Train/Job-1', 'i-0abc', 'i_0abc', 'ns/train-x'];
    for (const instanceId of [...ids].reverse())
      await store().keeps.set({ instanceId, until: at('2026-11-05T00:00:00Z'), byUser: 'U1', at: at('2026-11-03T00:00:00Z') });
    expect((await store().keeps.active(at('2026-11-04T00:00:00Z'))).map((k) => k.instanceId)).toEqual(ids);
  });
});
