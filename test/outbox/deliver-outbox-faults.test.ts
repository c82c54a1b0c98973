import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/ports/chat-port.js';
import { HistoryReader } from '../../src/chat/slack/history-reader.js';
import { SlackChat } from '../../src/chat/slack/slack-chat.js';
import { createSlackClient } from '../../src/chat/slack/slack-client.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { DeliveryLoop } from '../../src/outbox/delivery-loop.js';
import type { OutboxDraft } from '../../src/store/outbox-records.js';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { testDeps } from '../support/deps.js';

const message = (text: string) => ({ summary: text, blocks: [{ type: 'text' as const, text }] });
const drafts = (n: number, target = 'fake:#ml'): OutboxDraft[] =>
  Array.from({ length: n }, (_, i) => ({ dedupeKey: `k${i + 1}`, target, message: message(`alert ${i + 1}`) }));
const at = (iso: string) => new Date(iso);

describe('outbox delivery under faults', () => {
  let fake: FakeSlackApi | null = null;
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  it('two deliveries at once post every item exactly once (each item is leased before it is sent)', async () => {
    const { deps, chat } = testDeps({});
    await deps.store.outbox.enqueue(drafts(40), deps.clock());
    // A slow platform: every post takes a moment, so the two passes overlap all along.
    const post = chat.post.bind(chat);
    chat.post = async (address, msg) => {
      await new Promise((r) => setTimeout(r, 2));
      return post(address, msg);
    };
    const [a, b] = await Promise.all([deliverOutbox(deps), deliverOutbox(deps)]);
    expect(a.sent + b.sent).toBe(40);
    expect(a.sent).toBeGreaterThan(0);
    expect(b.sent).toBeGreaterThan(0);
    const texts = chat.posted.map((p) => p.message.summary);
    expect(texts).toHaveLength(40);
    expect(new Set(texts).size).toBe(40);
  });

  it('retries through a 30-minute outage and delivers everything afterwards; nothing fails', async () => {
    const { deps, chat, setNow } = testDeps({});
    await deps.store.outbox.enqueue(drafts(5), deps.clock());
    const outageEnds = at('2026-11-21T09:30:00Z').getTime();
    let calls = 0;
    const post = chat.post.bind(chat);
    chat.post = async (address, msg) => {
      calls += 1;
      if (deps.clock().getTime() < outageEnds) throw new DeliveryError('Slack chat.postMessage: HTTP 503 Service Unavailable');
      return post(address, msg);
    };
    // A delivery every minute, as serve's tick does at the least.
    for (let minute = 0; minute <= 40; minute++) {
      setNow(new Date(at('2026-11-21T09:00:00Z').getTime() + minute * 60_000).toISOString());
      await deliverOutbox(deps);
    }
    expect(chat.posted).toHaveLength(5);
    expect(await deps.store.outbox.summary()).toMatchObject({ pending: 0, failed: 0, sent: 5 });
    // Backoff (2 s doubling, at most 5 min apart): fewer attempts than one per item per minute.
    expect(calls).toBeLessThan(5 * 30);
  });

  it('fails an item only once its retry budget is spent, and says how to re-queue it', async () => {
    const { deps, chat, setNow } = testDeps({ delivery: { retryFor: '1h' } });
    const lines: string[] = [];
    deps.log = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    await deps.store.outbox.enqueue(drafts(1), deps.clock());
    chat.post = async () => {
      throw new DeliveryError('Slack chat.postMessage: HTTP 500 Internal Server Error');
    };
    for (let minute = 0; minute <= 70; minute++) {
      setNow(new Date(at('2026-11-21T09:00:00Z').getTime() + minute * 60_000).toISOString());
      await deliverOutbox(deps, { baseDelayMs: 60_000, maxDelayMs: 5 * 60_000, retryForMs: 3_600_000 });
    }
    expect(await deps.store.outbox.summary()).toMatchObject({ pending: 0, failed: 1 });
    expect(lines.join('')).toContain('burnrate outbox retry --id 1');
    expect(await deps.store.outbox.retryFailed(deps.clock())).toBe(1);
    expect(await deps.store.outbox.summary()).toMatchObject({ pending: 1, failed: 0 });
  });

  it('holds back every item of a throttled method for the Retry-After, not just the one throttled', async () => {
    const { deps, chat, setNow } = testDeps({});
    await deps.store.outbox.enqueue(drafts(10), deps.clock());
    let calls = 0;
    const post = chat.post.bind(chat);
    chat.post = async (address, msg) => {
      calls += 1;
      return post(address, msg);
    };
    chat.failNext(new DeliveryError('Slack chat.postMessage: rate limited, retry after 2 s', false, 2_000));
    const loop = new DeliveryLoop(deps);
    await loop.wake();
    expect(calls).toBe(1); // the throttled call, and no other inside the window
    setNow('2026-11-21T09:00:01.900Z');
    await loop.wake();
    expect(calls).toBe(1);
    setNow('2026-11-21T09:00:02Z');
    await loop.wake();
    expect(calls).toBe(11);
    expect(chat.posted).toHaveLength(10);
    await loop.stop();
    chat.assertDone();
  });

  it('takes over an item whose delivery died mid-post and finds the post instead of posting again (Slack)', async () => {
    // Slack stamps messages on the real clock, as the database times first attempts: the look for a
    // post in doubt compares the two. The delivery's own clock is moved to pass backoffs.
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage', 'conversations.history'], now: () => new Date() });
    let clock = at('2026-11-21T09:00:00Z');
    const { deps } = testDeps({});
    deps.clock = () => clock;
    deps.chat = [new SlackChat(createSlackClient({ botToken: 'xoxb-test', apiUrl: fake.apiUrl } as never, deps.log))];
    await deps.store.outbox.enqueue(drafts(3, 'slack:C0ML'), clock);
    // A delivery leases item 1, posts it, and dies before recording it (kill -9).
    // (Its lease is a few milliseconds long: leases run on the database's clock, not this test's.)
    const lease = await deps.store.outbox.claimNext('dead-process', clock, 5, ['slack']);
    await deps.chat[0]!.post('C0ML', lease!.message, { key: lease!.dedupeKey });
    // Its lease runs out; another delivery takes over.
    await new Promise((r) => setTimeout(r, 20));
    clock = at('2026-11-21T09:02:01Z');
    expect(await deliverOutbox(deps)).toEqual({ sent: 3, retried: 0, failed: 0 });
    expect(fake.messages.map((m) => m.text)).toEqual(['alert 1', 'alert 2', 'alert 3']);
    expect(fake.callsOf('conversations.history')).toHaveLength(1);
    expect((await deps.store.outbox.summary()).suspectedDuplicates).toBe(0);
  });

  it('a lost answer (Slack posted, the reply never came) is found in the channel, not posted twice', async () => {
    let clock = at('2026-11-21T09:00:00Z');
    // Slack's clock is the real one, as the database's is (see above).
    fake = await FakeSlackApi.start({
      expect: ['chat.postMessage', 'conversations.history', 'conversations.replies'],
      now: () => new Date(),
    });
    const { deps } = testDeps({});
    deps.clock = () => clock;
    // Two posts in doubt looked for in one pass: history read as a Marketplace app's, at once.
    deps.chat = [
      new SlackChat(
        createSlackClient({ botToken: 'xoxb-test', apiUrl: fake.apiUrl } as never, deps.log),
        undefined,
        new HistoryReader('marketplace'),
      ),
    ];
    await deps.store.outbox.enqueue(
      [
        ...drafts(4, 'slack:C0ML'),
        { dedupeKey: 'reply', target: 'slack:C0ML', op: 'reply', parentKey: 'k1', message: message('in the thread') },
      ],
      clock,
    );
    fake.failNext('chat.postMessage', { lostAnswer: true });
    fake.failNext('chat.postMessage', { reset: true }); // dropped before Slack saw it: posted for real later
    // The reply waits for its parent (alert 1), which is in doubt.
    expect(await deliverOutbox(deps)).toEqual({ sent: 2, retried: 2, failed: 0 });
    fake.failNext('chat.postMessage', { lostAnswer: true }); // the thread reply's answer is lost too
    clock = at('2026-11-21T09:00:10Z');
    await deliverOutbox(deps);
    clock = at('2026-11-21T09:01:00Z');
    await deliverOutbox(deps);
    const texts = fake.messages.map((m) => m.text);
    expect(texts.sort()).toEqual(['alert 1', 'alert 2', 'alert 3', 'alert 4', 'in the thread']);
    expect(fake.messages.find((m) => m.text === 'in the thread')?.threadTs).toBe(fake.messages.find((m) => m.text === 'alert 1')?.ts);
    expect(await deps.store.outbox.summary()).toMatchObject({ pending: 0, sent: 5, failed: 0, suspectedDuplicates: 0 });
    fake.assertDone();
  });

  it('where a platform gives no way to look (Teams), a post in doubt goes again and is counted as a suspected duplicate', async () => {
    const { deps, chat, setNow } = testDeps({});
    await deps.store.outbox.enqueue(drafts(2), deps.clock());
    const post = chat.post.bind(chat);
    let lose = true;
    chat.post = async (address, msg) => {
      const posted = await post(address, msg);
      if (lose) {
        lose = false;
        throw new DeliveryError('Teams: socket hang up', false, undefined, true);
      }
      return posted;
    };
    await deliverOutbox(deps);
    setNow('2026-11-21T09:01:00Z');
    await deliverOutbox(deps);
    expect(chat.posted.map((p) => p.message.summary)).toEqual(['alert 1', 'alert 2', 'alert 1']);
    expect(await deps.store.outbox.summary()).toMatchObject({ sent: 2, suspectedDuplicates: 1 });
  });
});
