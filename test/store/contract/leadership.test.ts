import { expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/store/postgres/open-postgres-store.js';
import { cuttableLink } from '../../support/cuttable-link.js';
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

  it('moves to another replica when the leader is cut off from the database, which stands down first on its own', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      // The leader reaches the database through a link the test cuts: no error, no answer, as a partition.
      const link = await cuttableLink(store.url);
      const cutOff = openPostgresStore(link.url, { poolSize: 1 });
      const timing = { intervalMs: 100, leaseMs: 1000 };
      const first = cutOff.competeForLeadership(timing);
      let second = { isLeader: () => false, stop: async () => {} };
      try {
        await waitFor(() => first.isLeader(), 'the first to lead');
        second = other.competeForLeadership(timing);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(second.isLeader()).toBe(false);

        link.cut();
        const cutAt = performance.now();
        let firstStoodDown = Infinity;
        let bothLed = false;
        await waitFor(
          () => {
            if (!first.isLeader()) firstStoodDown = Math.min(firstStoodDown, performance.now());
            bothLed ||= first.isLeader() && second.isLeader();
            return second.isLeader();
          },
          'the other replica to lead',
          5_000,
        );
        const failover = performance.now() - cutAt;
        process.stdout.write(`leader cut off: another leads ${Math.round(failover)} ms later (lease ${timing.leaseMs} ms)\n`);
        // The lease (1 s) runs out on the database's clock, and the other asks within an interval.
        expect(failover).toBeLessThan(timing.leaseMs + 4 * timing.intervalMs + 500);
        expect(bothLed).toBe(false);
        expect(firstStoodDown).toBeLessThanOrEqual(performance.now());
        expect(await first.confirm()).toBe(false);

        // Back on the network, the old leader finds the lease held and follows.
        link.restore();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect([first.isLeader(), second.isLeader()]).toEqual([false, true]);
      } finally {
        link.restore();
        await Promise.all([first.stop(), second.stop()]);
        await cutOff.close();
        await link.close();
      }
    });
  });

  it('is confirmed before a job while held, and not once given up', async () => {
    const leadership = store().competeForLeadership({ intervalMs: 50 });
    try {
      await waitFor(() => leadership.isLeader(), 'the lead');
      expect(await leadership.confirm()).toBe(true);
    } finally {
      await leadership.stop();
    }
    expect(await leadership.confirm()).toBe(false);
  });
});
