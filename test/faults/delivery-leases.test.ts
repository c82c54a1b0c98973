import { afterEach, describe, expect, it } from 'vitest';
import { HistoryReader } from '../../src/chat/slack/history-reader.js';
import { SlackChat } from '../../src/chat/slack/slack-chat.js';
import { createSlackClient } from '../../src/chat/slack/slack-client.js';
import type { Deps } from '../../src/deps.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import type { ChatPort } from '../../src/ports/chat-port.js';
import type { OutboxDraft } from '../../src/store/outbox-records.js';
import type { OutboxStore } from '../../src/store/outbox-table.js';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { testDeps } from '../support/deps.js';

// Two deliveries on one database under the faults that used to post twice: a replica whose clock
// runs ahead, a replica that stalls between its claim and its post for longer than its lease, and
// a look-up in doubt that keeps failing. Real outbox (SQLite), real Slack client, fake Slack.

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
const text = (n: number) => ({ summary: `alert ${n}`, blocks: [{ type: 'text' as const, text: `alert ${n}` }] });
const chart = (n: number) => ({
  summary: `chart ${n}`,
  blocks: [{ type: 'image' as const, title: `Chart ${n}`, alt: `chart ${n}`, filename: `chart-${n}.png`, png: PNG }],
});
/** n alerts, each followed by its chart alone in the alert's thread (a file share, no metadata). */
const alertsWithCharts = (n: number): OutboxDraft[] =>
  Array.from({ length: n }, (_, i) => [
    { dedupeKey: `a${i + 1}`, target: 'slack:C0ML', message: text(i + 1) },
    { dedupeKey: `c${i + 1}`, target: 'slack:C0ML', message: chart(i + 1), op: 'reply' as const, parentKey: `a${i + 1}` },
  ]).flat();

/** Each text posted, and each file shared, with how often: every count must be 1. */
function timesPosted(fake: FakeSlackApi): Map<string, number> {
  const seen = new Map<string, number>();
  for (const m of fake.messages) seen.set(m.text, (seen.get(m.text) ?? 0) + 1);
  for (const share of fake.fileShares)
    for (const f of share.files ?? [])
      seen.set(f.name.replace(/-k[0-9a-f]{16}\.png$/, ''), (seen.get(f.name.replace(/-k[0-9a-f]{16}\.png$/, '')) ?? 0) + 1);
  return seen;
}

describe('delivery leases under faults (two deliveries, one database)', () => {
  let fake: FakeSlackApi;
  afterEach(async () => {
    await fake?.close();
  });

  // Each replica reads Slack's history one call a minute (the default), on its own clock.
  const replica = (deps: Deps, clock: () => Date): Deps => ({
    ...deps,
    clock,
    chat: [
      new SlackChat(
        createSlackClient({ botToken: 'xoxb-test', apiUrl: fake.apiUrl } as never, deps.log),
        undefined,
        new HistoryReader('limited', () => clock().getTime()),
      ),
    ],
  });
  const start = async (methods: string[] = []) => {
    fake = await FakeSlackApi.start({
      expect: ['chat.postMessage', 'files.getUploadURLExternal', 'files.completeUploadExternal', 'conversations.replies', ...methods],
      now: () => new Date(),
    });
    const { deps } = testDeps({}, new Date().toISOString());
    return deps;
  };

  it('a replica whose clock runs 150 s ahead takes over no lease: 0 doubled of 8 alerts and 8 charts', async () => {
    const shared = await start(['conversations.history']);
    await shared.store.outbox.enqueue(alertsWithCharts(8), new Date());
    // Slack takes a while over each post, so the two passes overlap the whole time.
    fake.failNext('chat.postMessage', { delayMs: 150 }, 8);
    const onTime = replica(shared, () => new Date());
    const ahead = replica(shared, () => new Date(Date.now() + 150_000));
    const reports = await Promise.all([deliverOutbox(onTime), new Promise((r) => setTimeout(r, 50)).then(() => deliverOutbox(ahead))]);
    expect(reports.reduce((n, r) => n + r.sent, 0)).toBe(16);
    const counts = timesPosted(fake);
    expect(counts.size).toBe(16);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
    expect(await shared.store.outbox.summary()).toMatchObject({ sent: 16, pending: 0, sending: 0, suspectedDuplicates: 0 });
  });

  it('a replica stalled between claim and post for longer than its lease posts nothing the other took over', async () => {
    const shared = await start(['conversations.history']);
    await shared.store.outbox.enqueue(alertsWithCharts(2), new Date());
    let resume!: () => void;
    const stall = new Promise<void>((r) => (resume = r));
    let stalled = false;
    // The first claim of this replica is followed by a pause (GC, a frozen VM, a slow database).
    const outbox: OutboxStore = Object.create(shared.store.outbox);
    outbox.claimNext = async (...args) => {
      const item = await shared.store.outbox.claimNext(...args);
      if (item && !stalled) {
        stalled = true;
        await stall;
      }
      return item;
    };
    const slow = { ...replica(shared, () => new Date()), store: { ...shared.store, outbox } };
    const first = deliverOutbox(slow, { leaseMs: 200 });
    await new Promise((r) => setTimeout(r, 400)); // past its lease, on the database's clock
    const other = await deliverOutbox(replica(shared, () => new Date()));
    expect(other.sent).toBe(4);
    resume();
    expect(await first).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect([...timesPosted(fake)].filter(([, n]) => n !== 1)).toEqual([]);
    expect(timesPosted(fake).size).toBe(4);
    expect(fake.callsOf('conversations.history')).toHaveLength(1); // the item taken over was looked for
    expect(await shared.store.outbox.summary()).toMatchObject({ sent: 4, suspectedDuplicates: 0 });
  });

  it('a stall after the last lease check, while the post is on its way, is counted as a suspected duplicate', async () => {
    const shared = await start(['conversations.history']);
    await shared.store.outbox.enqueue([{ dedupeKey: 'a1', target: 'slack:C0ML', message: text(1) }], new Date());
    let resume!: () => void;
    const stall = new Promise<void>((r) => (resume = r));
    const slow = replica(shared, () => new Date());
    const slack = slow.chat[0]!;
    const paused: ChatPort = Object.create(slack);
    paused.post = async (...args) => {
      await stall;
      return slack.post(...args);
    };
    const first = deliverOutbox({ ...slow, chat: [paused] }, { leaseMs: 200 });
    await new Promise((r) => setTimeout(r, 400));
    expect((await deliverOutbox(replica(shared, () => new Date()))).sent).toBe(1);
    resume();
    await first;
    // Both posts went out: nothing could have known, so the item is counted.
    expect(fake.messages.map((m) => m.text)).toEqual(['alert 1', 'alert 1']);
    expect((await shared.store.outbox.summary()).suspectedDuplicates).toBe(1);
  });

  it('an alert in doubt whose look-up meets an outage (503) is never posted unchecked: it waits for a look that works', async () => {
    const shared = await start(['conversations.history']);
    let now = new Date();
    const deps = replica(shared, () => now);
    await shared.store.outbox.enqueue([{ dedupeKey: 'a1', target: 'slack:C0ML', message: text(1) }], now);
    fake.failNext('chat.postMessage', { lostAnswer: true }); // taken by Slack, the answer lost: in doubt
    fake.failNext('conversations.history', { status: 503 }, 4);
    const pass = () => deliverOutbox(deps, { baseDelayMs: 1_000 });
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await pass()).toEqual({ sent: 0, retried: 1, failed: 0 });
      now = new Date(now.getTime() + 60_000);
    }
    // The outage is over: the look finds the first post, and nothing is posted again.
    expect(await pass()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(fake.callsOf('conversations.history')).toHaveLength(5);
    expect(fake.messages.map((m) => m.text)).toEqual(['alert 1']);
    expect(await shared.store.outbox.summary()).toMatchObject({ sent: 1, suspectedDuplicates: 0 });
  });

  for (const failure of [{ error: 'unknown_method' }, { error: 'access_denied' }, { error: 'ratelimited' }]) {
    it(`an alert in doubt whose look-up answers ${failure.error} (not known to be permanent) is posted on its third attempt, counted`, async () => {
      const shared = await start(['conversations.history']);
      let now = new Date();
      const deps = replica(shared, () => now);
      await shared.store.outbox.enqueue([{ dedupeKey: 'a1', target: 'slack:C0ML', message: text(1) }], now);
      fake.failNext('chat.postMessage', { status: 503 }); // may have reached Slack: in doubt
      fake.failNext('conversations.history', failure, 10);
      const pass = () => deliverOutbox(deps, { baseDelayMs: 1_000 });
      expect(await pass()).toEqual({ sent: 0, retried: 1, failed: 0 });
      // A minute apart: one history call a minute is what the replica spends on the workspace.
      now = new Date(now.getTime() + 60_000);
      expect(await pass()).toEqual({ sent: 0, retried: 1, failed: 0 }); // looked, failed: retried later
      now = new Date(now.getTime() + 60_000);
      expect(await pass()).toEqual({ sent: 1, retried: 0, failed: 0 }); // posted unchecked
      // Looked for twice (the second and the third attempt), then posted instead of waiting 24 h.
      expect(fake.callsOf('conversations.history')).toHaveLength(2);
      expect(fake.messages.map((m) => m.text)).toEqual(['alert 1']);
      expect(await shared.store.outbox.summary()).toMatchObject({ sent: 1, suspectedDuplicates: 1 });
    });
  }
});
