import { expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/store/postgres/open-postgres-store.js';
import type { OutboxDraft } from '../../../src/store/outbox-records.js';
import { describeStores } from '../../support/stores.js';

const now = new Date('2026-11-21T08:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const draft = (key: string, extra: Partial<OutboxDraft> = {}): OutboxDraft => ({
  dedupeKey: key,
  target: 'slack:C1',
  message: { summary: key, blocks: [] },
  ...extra,
});

describeStores('outbox', (store) => {
  it('queues each message once, whatever the number of retries', async () => {
    expect(await store().outbox.enqueue([draft('k1'), draft('k2')], now)).toBe(2);
    expect(await store().outbox.enqueue([draft('k1')], now)).toBe(0);
    expect((await store().outbox.due(now)).map((i) => i.dedupeKey)).toEqual(['k1', 'k2']);
    expect((await store().outbox.summary()).pending).toBe(2);
  });

  it('leases each item to one delivery, only for the platforms it runs', async () => {
    await store().outbox.enqueue([draft('s1'), draft('t1', { target: 'teams:conv' }), draft('s2')], now);
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => store().outbox.claimNext(owner, now, 60_000, ['slack'])));
    const keys = claims.filter((c) => c !== null).map((c) => c!.dedupeKey);
    expect(keys.sort()).toEqual(['s1', 's2']);
    expect(await store().outbox.claimNext('e', now, 60_000, ['slack'])).toBeNull();
    expect((await store().outbox.claimNext('e', now, 60_000, ['teams']))?.dedupeKey).toBe('t1');
  });

  it('takes over an expired lease in doubt, and the first delivery can no longer mark it', async () => {
    await store().outbox.enqueue([draft('k1')], now);
    const first = await store().outbox.claimNext('a', now, 200, ['slack']);
    expect(first).toMatchObject({ inDoubt: false, status: 'sending' });
    // The first attempt is timed on the database's clock (the real one here), not the replica's `now`:
    // a look for a post in doubt starts from it, whatever the clock of the replica that made it.
    expect(Math.abs(Date.parse(first!.firstAttemptAt!) - Date.now())).toBeLessThan(5_000);
    expect(await store().outbox.claimNext('b', now, 60_000, ['slack'])).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    const second = await store().outbox.claimNext('b', now, 60_000, ['slack']);
    expect(second).toMatchObject({ id: first!.id, inDoubt: true, firstAttemptAt: first!.firstAttemptAt });
    expect(await store().outbox.renewLease(first!.id, 'a', 90_000)).toBe(false);
    expect(await store().outbox.markSent(first!.id, 'a', 'ts-a', later(2000))).toBe(false);
    expect(await store().outbox.markSent(first!.id, 'b', 'ts-b', later(2000), { suspectedDuplicate: true })).toBe(true);
    expect(await store().outbox.summary()).toMatchObject({ sent: 1, suspectedDuplicates: 1, pending: 0, sending: 0 });
  });

  it("judges leases on the database's clock: a replica whose clock runs ahead takes over nothing", async () => {
    await store().outbox.enqueue([draft('k1'), draft('k2')], now);
    const held = await store().outbox.claimNext('a', new Date(), 60_000, ['slack']);
    // 150 s ahead of the others, and even a year ahead: the lease of 'a' still runs on the database's clock.
    for (const ahead of [150_000, 365 * 86_400_000]) {
      const taken = await store().outbox.claimNext('b', new Date(Date.now() + ahead), 60_000, ['slack']);
      expect(taken?.dedupeKey).not.toBe(held!.dedupeKey);
    }
    // Asked on its own clock, the replica ahead is told the leases end a minute from its now, not
    // that they are already over (it would wake in a loop until they are).
    const ahead = new Date(Date.now() + 150_000);
    const leaseEnd = (await store().outbox.nextAttemptAt(['slack'], ahead))!.getTime();
    expect(Math.abs(leaseEnd - (ahead.getTime() + 60_000))).toBeLessThan(5_000);
    expect(await store().outbox.renewLease(held!.id, 'a', 60_000)).toBe(true);
    expect(await store().outbox.renewLease(held!.id, 'b', 60_000)).toBe(false);
    // A sent item found unverifiable later is counted, whoever holds it.
    await store().outbox.markSuspectedDuplicate(held!.id);
    expect((await store().outbox.summary()).suspectedDuplicates).toBe(1);
  });

  it('holds a reply until its parent is sent, then carries the parent reference', async () => {
    await store().outbox.enqueue([draft('root', { threadOf: 'group-1' }), draft('reply', { op: 'reply', parentKey: 'root' })], now);
    expect(await store().outbox.threadRoot('group-1', 'slack')).toBe('root');
    expect(await store().outbox.threadRoot('group-1', 'teams')).toBeNull();
    const root = await store().outbox.claimNext('a', now, 60_000, ['slack']);
    expect(root?.dedupeKey).toBe('root');
    expect(await store().outbox.claimNext('a', now, 60_000, ['slack'])).toBeNull();
    // The root's lease ends a minute from the database's now.
    const leaseEnd = (await store().outbox.nextAttemptAt(['slack']))!.getTime();
    expect(Math.abs(leaseEnd - (Date.now() + 60_000))).toBeLessThan(5_000);
    await store().outbox.markSent(root!.id, 'a', '1700000000.000100', now);
    const reply = await store().outbox.claimNext('a', now, 60_000, ['slack']);
    expect(reply).toMatchObject({ dedupeKey: 'reply', op: 'reply', parentRef: '1700000000.000100' });
  });

  it('retries, gives up, and queues failed items again on request', async () => {
    await store().outbox.enqueue([draft('k1'), draft('k2')], now);
    const one = await store().outbox.claimNext('a', now, 60_000, ['slack']);
    await store().outbox.markRetry(one!.id, 'a', {
      error: 'rate limited',
      nextAttemptAt: later(30_000),
      giveUp: false,
      inDoubt: false,
      now,
    });
    expect(await store().outbox.nextAttemptAt(['slack'])).toEqual(now);
    const two = await store().outbox.claimNext('a', now, 60_000, ['slack']);
    expect(two?.dedupeKey).toBe('k2');
    await store().outbox.markRetry(two!.id, 'a', { error: 'channel_not_found', nextAttemptAt: now, giveUp: true, inDoubt: false, now });
    expect(await store().outbox.summary()).toMatchObject({ pending: 1, failing: 1, failed: 1, oldestPendingAt: now.toISOString() });
    expect((await store().outbox.failed()).map((i) => [i.dedupeKey, i.lastError, i.attempts])).toEqual([['k2', 'channel_not_found', 1]]);
    expect(await store().outbox.retryFailed(later(1000), [999])).toBe(0);
    expect(await store().outbox.retryFailed(later(1000), [two!.id])).toBe(1);
    expect((await store().outbox.due(later(1000))).map((i) => [i.dedupeKey, i.attempts])).toEqual([['k2', 0]]);
    const again = await store().outbox.claimNext('a', later(30_000), 90_000, ['slack']);
    await store().outbox.release(again!.id, 'a', later(120_000));
    expect((await store().outbox.due(later(30_000))).map((i) => i.dedupeKey)).toEqual(['k2']);
  });

  it('on Postgres, leases across processes: two stores on one database never take the same item', async () => {
    if (!store.url.startsWith('postgres')) return;
    const other = openPostgresStore(store.url);
    try {
      await store().outbox.enqueue(
        Array.from({ length: 40 }, (_, i) => draft(`k${i}`)),
        now,
      );
      const taken: string[] = [];
      const drain = async (s: typeof other, owner: string) => {
        for (
          let item = await s.outbox.claimNext(owner, now, 60_000, ['slack']);
          item;
          item = await s.outbox.claimNext(owner, now, 60_000, ['slack'])
        ) {
          taken.push(item.dedupeKey);
          expect(await s.outbox.markSent(item.id, owner, `ts-${item.id}`, now)).toBe(true);
        }
      };
      await Promise.all([drain(store(), 'a'), drain(store(), 'b'), drain(other, 'c'), drain(other, 'd')]);
      expect(taken.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `k${i}`).sort());
    } finally {
      await other.close();
    }
  });
});
