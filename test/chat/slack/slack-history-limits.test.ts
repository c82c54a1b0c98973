import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryReader, type HistoryLimit } from '../../../src/chat/slack/history-reader.js';
import { SlackChat } from '../../../src/chat/slack/slack-chat.js';
import { createSlackClient } from '../../../src/chat/slack/slack-client.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { testDeps } from '../../support/deps.js';

// Posts in doubt looked for in a workspace that reads history at Slack's Tier 1 (a distributed app
// outside the Marketplace): 15 messages a page, cut short without a word, one call a minute, 429
// with Retry-After past that. Real outbox (SQLite), real WebClient, the fake Slack playing the limits.

const alert = (n: number) => ({ summary: `alert ${n}`, blocks: [{ type: 'text' as const, text: `alert ${n}` }] });
const CHATTER = 40;

describe('the look for a post in doubt under Slack Tier-1 history limits', () => {
  let fake: FakeSlackApi;
  afterEach(async () => {
    fake.assertNoUnexpectedCalls();
    fake.assertDone();
    await fake.close();
  });

  /**
   * Three alerts whose posts are in doubt (two reached Slack, their answers lost; one did not), then
   * 40 messages of people talking in the channel: any single page of 15 misses the alerts. The
   * delivery runs every 20 s of a moved clock, on which Slack stamps messages and counts its minute.
   */
  async function run(limit: HistoryLimit, options: { refuseAt?: number; failAt?: number[]; allReached?: boolean; chatter?: number } = {}) {
    let now = new Date();
    fake = await FakeSlackApi.start({
      expect: ['chat.postMessage', 'conversations.history'],
      now: () => now,
      history: 'tier1',
    });
    const dbPath = join(mkdtempSync(join(tmpdir(), 'burnrate-history-')), 'burnrate.db');
    const { deps } = testDeps({}, now.toISOString(), dbPath);
    deps.clock = () => now;
    const slack = () =>
      new SlackChat(
        createSlackClient({ botToken: 'xoxb-test', apiUrl: fake.apiUrl } as never, deps.log),
        undefined,
        new HistoryReader(limit, () => now.getTime()),
      );
    deps.chat = [slack()];
    await deps.store.outbox.enqueue(
      [1, 2, 3].map((n) => ({ dedupeKey: `a${n}`, target: 'slack:C0ML', message: alert(n) })),
      now,
    );
    fake.failNext('chat.postMessage', { lostAnswer: true });
    fake.failNext('chat.postMessage', options.allReached ? { lostAnswer: true } : { reset: true });
    fake.failNext('chat.postMessage', { lostAnswer: true });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 3, failed: 0 });
    for (let i = 0; i < (options.chatter ?? CHATTER); i++) {
      now = new Date(now.getTime() + 1_000);
      fake.messages.push({ channel: 'C0ML', ts: `${Math.floor(now.getTime() / 1000)}.900000`, text: `chatter ${i}` });
    }

    for (let step = 1; step <= 90 && (await deps.store.outbox.summary()).pending > 0; step++) {
      now = new Date(now.getTime() + 20_000);
      // Slack refuses the next read for two minutes (another process of the app took the minute, say).
      if (step === options.refuseAt) fake.failNext('conversations.history', { status: 429, retryAfter: 120 });
      // Slack answers a read with an error that may pass (internal_error) in the middle of a look.
      if (options.failAt?.includes(step)) fake.failNext('conversations.history', { error: 'internal_error' });
      await deliverOutbox(deps);
    }
    return { deps, dbPath };
  }

  /** Each alert in the channel exactly once, every item sent with the ts Slack gave it, none counted doubtful. */
  async function expectEachOnceAndNothingLost({ deps, dbPath }: Awaited<ReturnType<typeof run>>) {
    for (const n of [1, 2, 3]) expect(fake.countPosted((m) => m.text === `alert ${n}`)).toBe(1);
    expect(await deps.store.outbox.summary()).toMatchObject({ pending: 0, sent: 3, failed: 0, suspectedDuplicates: 0 });
    const db = new Database(dbPath, { readonly: true });
    const refs = db.prepare('SELECT dedupe_key AS key, ref FROM outbox ORDER BY dedupe_key').all();
    db.close();
    expect(refs).toEqual([1, 2, 3].map((n) => ({ key: `a${n}`, ref: fake.messages.find((m) => m.text === `alert ${n}`)!.ts })));
    await deps.store.close?.();
  }

  it('limited (the default): one narrow window a look, 15 a page, one call a minute, never a 429; nothing posted twice, nothing lost', async () => {
    await expectEachOnceAndNothingLost(await run('limited'));
    const reads = fake.callsOf('conversations.history');
    expect(reads.every((c) => c.answer !== undefined)).toBe(true); // none refused with a 429
    for (const read of reads) {
      expect(read.args).toMatchObject({ channel: 'C0ML', limit: '15', inclusive: 'true', include_all_metadata: 'true' });
      // A narrow window: from a minute before the item's first attempt to a minute after its first look.
      expect(Number(read.args.latest) - Number(read.args.oldest)).toBeLessThan(10 * 60);
    }
    // Reads a minute apart at least, and few: each look goes on where the last stopped.
    reads.slice(1).forEach((read, i) => expect(read.slackAt - reads[i]!.slackAt).toBeGreaterThanOrEqual(60_000));
    expect(reads.length).toBeLessThanOrEqual(12);
    // Every post carried its key in metadata, which is how the look knows it.
    for (const post of fake.callsOf('chat.postMessage'))
      expect(post.args.metadata).toMatchObject({
        event_type: 'burnrate_outbox_item',
        event_payload: { key: expect.any(String) },
      });
  });

  it('marketplace said, Tier 1 met: a silently short page and a 429 with Retry-After are waited out; nothing posted twice, nothing lost', async () => {
    await expectEachOnceAndNothingLost(await run('marketplace', { refuseAt: 4 }));
    const reads = fake.callsOf('conversations.history');
    // Refused once, and nothing read again until its Retry-After was over.
    const refused = reads.filter((c) => c.answer === undefined);
    expect(refused).toHaveLength(1);
    const after = reads.slice(reads.indexOf(refused[0]!) + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after[0]!.slackAt - refused[0]!.slackAt).toBeGreaterThanOrEqual(120_000);
    // The first look asked for 200 and got 15 without a word: from then on 15 a page.
    expect(reads[0]!.args.limit).toBe('200');
    expect(
      reads
        .filter((c) => c.answer !== undefined)
        .slice(1)
        .every((c) => c.args.limit === '15'),
    ).toBe(true);
  });
  it('errors that may pass in the middle of a look leave the posts in doubt: none posted unchecked, none twice', async () => {
    // Steps 4, 7, 10 and 13 fall on reads a minute apart, after the first reads made progress.
    await expectEachOnceAndNothingLost(await run('limited', { failAt: [4, 7, 10, 13] }));
    expect(fake.callsOf('conversations.history').filter((c) => c.answer === undefined).length).toBeGreaterThanOrEqual(3);
  });

  it('after an outage that Slack took every post of, one read settles all three: the others are among its messages', async () => {
    await expectEachOnceAndNothingLost(await run('limited', { allReached: true, chatter: 5 }));
    expect(fake.callsOf('conversations.history')).toHaveLength(1);
    expect(fake.callsOf('chat.postMessage')).toHaveLength(3);
  });

  it('a thread reply in doubt behind 20 replies of people: read oldest first, 15 at a time, found or posted once', async () => {
    const start = Date.now();
    let now = new Date(start - 50_000); // the alert went out 50 s before the replies below
    fake = await FakeSlackApi.start({
      expect: ['chat.postMessage', 'conversations.replies'],
      now: () => now,
      history: 'tier1',
    });
    const dbPath = join(mkdtempSync(join(tmpdir(), 'burnrate-history-')), 'burnrate.db');
    const { deps } = testDeps({}, now.toISOString(), dbPath);
    deps.clock = () => now;
    deps.chat = [
      new SlackChat(
        createSlackClient({ botToken: 'xoxb-test', apiUrl: fake.apiUrl } as never, deps.log),
        undefined,
        new HistoryReader('limited', () => now.getTime()),
      ),
    ];
    await deps.store.outbox.enqueue([{ dedupeKey: 'a1', target: 'slack:C0ML', message: alert(1) }], now);
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    const parent = fake.messages[0]!;
    // People answer in the alert's thread, within the minute before burnrate's replies go out.
    for (let i = 0; i < 20; i++)
      fake.messages.push({ channel: 'C0ML', ts: `${Math.floor(start / 1000) - 45 + i}.500000`, threadTs: parent.ts, text: `reply ${i}` });
    now = new Date(start);
    const reply = (n: number) => ({ summary: `note ${n}`, blocks: [{ type: 'text' as const, text: `note ${n}` }] });
    await deps.store.outbox.enqueue(
      [1, 2].map((n) => ({ dedupeKey: `r${n}`, target: 'slack:C0ML', op: 'reply' as const, parentKey: 'a1', message: reply(n) })),
      now,
    );
    fake.failNext('chat.postMessage', { lostAnswer: true }); // note 1 reached the thread, its answer lost
    fake.failNext('chat.postMessage', { reset: true }); // note 2 did not
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 2, failed: 0 });
    for (let step = 1; step <= 60 && (await deps.store.outbox.summary()).pending > 0; step++) {
      now = new Date(now.getTime() + 20_000);
      await deliverOutbox(deps);
    }

    for (const n of [1, 2]) expect(fake.countPosted((m) => m.text === `note ${n}` && m.threadTs === parent.ts)).toBe(1);
    expect(await deps.store.outbox.summary()).toMatchObject({ pending: 0, sent: 3, failed: 0, suspectedDuplicates: 0 });
    const reads = fake.callsOf('conversations.replies');
    expect(reads.every((c) => c.answer !== undefined && c.args.ts === parent.ts && c.args.limit === '15')).toBe(true);
    reads.slice(1).forEach((read, i) => expect(read.slackAt - reads[i]!.slackAt).toBeGreaterThanOrEqual(60_000));
    // Not one page sufficed: the window moved on past what each page covered.
    expect(new Set(reads.map((c) => c.args.oldest)).size).toBeGreaterThan(1);
    await deps.store.close();
  });
});
