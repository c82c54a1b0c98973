import { expect, it } from 'vitest';
import { withSecondReplica } from '../../support/second-replica.js';
import { describeStores } from '../../support/stores.js';
import { waitFor } from '../../support/wait-for.js';

describeStores('the scheduler leader', (store) => {
  it('is this process on its own', async () => {
    const changes: boolean[] = [];
    const leadership = store().competeForLeadership({ intervalMs: 50, onChange: (leader) => changes.push(leader) });
    try {
      await waitFor(() => leadership.isLeader(), 'the lead');
      expect(changes).toEqual([true]);
    } finally {
      await leadership.stop();
    }
    expect(leadership.isLeader()).toBe(false);
  });

  it('is one replica at a time, and another once it lets go', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      const first = store().competeForLeadership({ intervalMs: 50 });
      await waitFor(() => first.isLeader(), 'the first to lead');
      const second = other.competeForLeadership({ intervalMs: 50 });
      const third = other.competeForLeadership({ intervalMs: 50 });
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect([first, second, third].map((l) => l.isLeader())).toEqual([true, false, false]);
        await first.stop();
        await waitFor(() => second.isLeader() || third.isLeader(), 'another to lead', 5_000);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect([second, third].filter((l) => l.isLeader())).toHaveLength(1);
      } finally {
        await Promise.all([first.stop(), second.stop(), third.stop()]);
      }
    });
  });
});
