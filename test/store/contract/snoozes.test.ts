import { expect, it } from 'vitest';
import { withSecondReplica } from '../../support/second-replica.js';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);
const clicked = at('2026-11-03T09:00:00Z');
function snooze(until: string, duration: string, byUser = 'U1', groupKey = 'budget:nlp') {
  return { groupKey, until: at(until), byUser, at: clicked, duration };
}

describeStores('snoozes', (store) => {
  it('applies a snooze request once, keeps a longer one, and ends it', async () => {
    expect((await store().snoozes.request(snooze('2026-11-04T09:00:00Z', '24h'), { explicit: false })).kind).toBe('set');
    expect((await store().snoozes.request(snooze('2026-11-04T09:00:00Z', '24h', 'U2'), { explicit: false })).kind).toBe('same');
    expect((await store().snoozes.request(snooze('2026-11-03T12:00:00Z', '3h'), { explicit: false })).kind).toBe('longer');
    const longer = await store().snoozes.request(snooze('2026-11-10T09:00:00Z', '7d'), { explicit: false });
    expect(longer).toMatchObject({ kind: 'set', replaced: { duration: '24h', byUser: 'U1' } });
    expect((await store().snoozes.active(at('2026-11-05T00:00:00Z'))).map((s) => [s.groupKey, s.until, s.duration])).toEqual([
      ['budget:nlp', at('2026-11-10T09:00:00Z'), '7d'],
    ]);
    expect(await store().snoozes.end('budget:nlp', at('2026-11-05T00:00:00Z'))).toMatchObject({ duration: '7d' });
    expect(await store().snoozes.end('budget:nlp', at('2026-11-05T00:00:01Z'))).toBeNull();
    expect(await store().snoozes.active(at('2026-11-05T00:00:01Z'))).toEqual([]);
  });

  it('sets a shorter snooze when asked explicitly, and a new one over one that ran out', async () => {
    await store().snoozes.request(snooze('2026-11-10T09:00:00Z', '7d'), { explicit: false });
    const shorter = await store().snoozes.request(snooze('2026-11-03T12:00:00Z', '3h', 'U2'), { explicit: true });
    expect(shorter).toEqual({
      kind: 'set',
      snooze: snooze('2026-11-03T12:00:00Z', '3h', 'U2'),
      replaced: snooze('2026-11-10T09:00:00Z', '7d'),
    });
    const afterwards = { ...snooze('2026-11-05T09:00:00Z', '3h', 'U3'), at: at('2026-11-04T09:00:00Z') };
    expect(await store().snoozes.request(afterwards, { explicit: false })).toEqual({ kind: 'set', snooze: afterwards, replaced: null });
    expect(await store().snoozes.end('budget:never-snoozed', at('2026-11-04T10:00:00Z'))).toBeNull();
  });

  it('sets a snooze as given, and lists the running ones by group key byte by byte', async () => {
    const groups = ['budget:Vision', 'budget:ml-ops', 'budget:ml_ops', 'budget:mlops'];
    for (const groupKey of [...groups].reverse()) await store().snoozes.set(snooze('2026-11-04T09:00:00Z', '24h', 'U1', groupKey));
    await store().snoozes.set({ groupKey: 'budget:ml-ops', until: at('2026-11-06T09:00:00Z'), byUser: 'U2', at: clicked });
    await store().snoozes.set(snooze('2026-11-03T10:00:00Z', '1h', 'U1', 'budget:gone'));
    const active = await store().snoozes.active(at('2026-11-03T12:00:00Z'));
    expect(active.map((s) => s.groupKey)).toEqual(groups);
    expect(active[1]).toEqual({ groupKey: 'budget:ml-ops', until: at('2026-11-06T09:00:00Z'), byUser: 'U2', at: clicked, duration: null });
  });

  it('lets one of simultaneous snooze clicks win', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => store().snoozes.request(click(n), { explicit: false })));
    expect(outcomes.filter((o) => o.kind === 'set')).toHaveLength(1);
  });

  it('lets one click win, and one end, when they reach two replicas', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      const replayed = await Promise.all([1, 2, 3, 4].map((n) => (n % 2 ? store() : other).snoozes.request(click(n), { explicit: false })));
      expect(replayed.filter((o) => o.kind === 'set')).toHaveLength(1);
      const ended = await Promise.all([store().snoozes.end('budget:nlp', clicked), other.snoozes.end('budget:nlp', clicked)]);
      expect(ended.filter((s) => s !== null)).toHaveLength(1);
    });
  });
});

function click(n: number) {
  return snooze('2026-11-04T09:00:00Z', '24h', `U${n}`);
}
