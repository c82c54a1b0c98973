import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError, type ChatPort } from '../../../src/ports/chat-port.js';
import { HistoryReader } from '../../../src/chat/slack/history-reader.js';
import { SlackChat } from '../../../src/chat/slack/slack-chat.js';
import { createSlackClient } from '../../../src/chat/slack/slack-client.js';
import { CHAT_CHANNELS } from '../../../src/chat/platforms.js';
import { configSchemaWith } from '../../../src/config/schema.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { buildRuntime, type Runtime } from '../../../src/runtime.js';
import type { Message } from '../../../templates/message.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { expireLeases } from '../../support/expire-leases.js';
import { slackChat, TEST_BOT_TOKEN } from './slack-harness.js';

/** burnrate.yml's schema as the loader parses it: with the registry's channel keys. */
const configSchema = configSchemaWith(CHAT_CHANNELS);
const config = configSchema.parse({ teams: [{ id: 'ml', slack: { channel: 'C0ML' } }] });
const silent = pino({ level: 'silent' });
const alert = (n: number): Message => ({
  summary: `alert ${n}`,
  blocks: [
    { type: 'header', text: `Alert ${n}` },
    { type: 'text', text: `Spend is **${n}0%** of budget` },
  ],
});

/**
 * A runtime on a SQLite file with only the Slack port, on a clock the test moves. Its history is read
 * as a Marketplace app's, at once: these tests time retries; the one-call-a-minute pacing has its own.
 */
async function openRuntime(dbPath: string, fake: FakeSlackApi, clock: { now: Date }): Promise<Runtime> {
  const runtime = await buildRuntime({ config, dbPath, env: { LOG_LEVEL: 'silent' }, clock: () => clock.now });
  runtime.deps.chat.push(slackChat(fake, runtime.deps, new HistoryReader('marketplace')));
  return runtime;
}

function outboxRows(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT dedupe_key AS key, status, ref, attempts, last_error AS lastError FROM outbox ORDER BY id').all() as {
      key: string;
      status: string;
      ref: string | null;
      attempts: number;
      lastError: string | null;
    }[];
  } finally {
    db.close();
  }
}

describe('SlackChat through the outbox (real WebClient, fake Web API)', () => {
  let fake: FakeSlackApi;
  let dbPath: string;
  let runtime: Runtime | undefined;
  const clock = { now: new Date('2026-11-21T09:00:00Z') };
  const at = (iso: string) => (clock.now = new Date(iso));

  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage'] });
    dbPath = join(mkdtempSync(join(tmpdir(), 'burnrate-slack-')), 'burnrate.db');
    at('2026-11-21T09:00:00Z');
  });
  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
    fake.assertNoUnexpectedCalls();
    fake.assertDone();
    await fake.close();
  });

  it('waits out a 429 as long as Retry-After says, then posts exactly once and stores the ts', async () => {
    runtime = await openRuntime(dbPath, fake, clock);
    const { deps } = runtime;
    await deps.store.outbox.enqueue([{ dedupeKey: 'a', target: 'slack:C0ML', message: alert(1) }], deps.clock());
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 30 });

    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 1, failed: 0 });
    at('2026-11-21T09:00:29Z');
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    at('2026-11-21T09:00:30Z');
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });

    const posts = fake.callsOf('chat.postMessage');
    expect(posts).toHaveLength(2); // the throttled attempt and the one that went through
    expect(posts[1]?.args).toMatchObject({ channel: 'C0ML', text: 'alert 1' });
    expect(posts[1]?.args.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Alert 1', emoji: true } });
    expect(outboxRows(dbPath)).toEqual([{ key: 'a', status: 'sent', ref: '1700000000.000001', attempts: 2, lastError: null }]);
  });

  it('retries server errors with exponential backoff', async () => {
    runtime = await openRuntime(dbPath, fake, clock);
    const { deps } = runtime;
    await deps.store.outbox.enqueue([{ dedupeKey: 'a', target: 'slack:C0ML', message: alert(1) }], deps.clock());
    fake.failNext('chat.postMessage', { status: 500 });
    fake.failNext('chat.postMessage', { status: 503 });
    // A 5xx may come after Slack posted: each retry first looks for the alert in the channel.
    fake.expect('conversations.history');

    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 1, failed: 0 });
    at('2026-11-21T09:00:01Z');
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 1, failed: 0 });
    at('2026-11-21T09:00:02.5Z'); // the second wait is 2 s from 09:00:01
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 0, failed: 0 });
    at('2026-11-21T09:00:03Z');
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(fake.callsOf('chat.postMessage')).toHaveLength(3);
    expect(fake.callsOf('conversations.history')).toHaveLength(2);
    expect(outboxRows(dbPath)[0]).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('gives up at once on channel_not_found and says why, without the token', async () => {
    runtime = await openRuntime(dbPath, fake, clock);
    const { deps } = runtime;
    await deps.store.outbox.enqueue([{ dedupeKey: 'a', target: 'slack:C0GONE', message: alert(1) }], deps.clock());
    fake.failNext('chat.postMessage', { error: 'channel_not_found' });

    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 1 });
    at('2026-11-22T09:00:00Z');
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(fake.callsOf('chat.postMessage')).toHaveLength(1);
    const [row] = outboxRows(dbPath);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: 'Slack chat.postMessage: channel_not_found' });
  });

  it('posts every item exactly once across a crash in the middle of a delivery run', async () => {
    runtime = await openRuntime(dbPath, fake, clock);
    await runtime.deps.store.outbox.enqueue(
      [1, 2, 3, 4].map((n) => ({ dedupeKey: `k${n}`, target: 'slack:C0ML', message: alert(n) })),
      clock.now,
    );

    // The process dies once the first item is posted and recorded: the store closes under the
    // deliverer before the second post leaves, the way a kill between two items looks.
    const first = runtime;
    const slack = first.deps.chat[0]!;
    let posts = 0;
    const dying: ChatPort = {
      ...slack,
      platform: slack.platform,
      capabilities: slack.capabilities,
      addressOf: (team) => slack.addressOf(team),
      update: (...a) => slack.update(...a),
      reply: (...a) => slack.reply(...a),
      post: async (address, message) => {
        if (++posts === 2) {
          await first.close();
          throw new Error('killed');
        }
        return slack.post(address, message);
      },
    };
    await expect(deliverOutbox({ ...first.deps, chat: [dying] })).rejects.toThrow();
    runtime = undefined;
    expect(fake.callsOf('chat.postMessage').map((c) => c.args.text)).toEqual(['alert 1']);

    // A new process on the same database file finishes the job: items 3 and 4 at once; item 2,
    // leased by the dead process, once that lease ran out, after looking that it was not posted.
    runtime = await openRuntime(dbPath, fake, clock);
    fake.expect('conversations.history');
    expect(await deliverOutbox(runtime.deps)).toEqual({ sent: 2, retried: 0, failed: 0 });
    at('2026-11-21T09:02:01Z');
    expect(expireLeases(dbPath)).toBe(1);
    expect(await deliverOutbox(runtime.deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await deliverOutbox(runtime.deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(fake.callsOf('conversations.history')).toHaveLength(1);
    expect(fake.callsOf('chat.postMessage').map((c) => c.args.text)).toEqual(['alert 1', 'alert 3', 'alert 4', 'alert 2']);
    expect(outboxRows(dbPath).map((r) => [r.key, r.status, r.ref])).toEqual([
      ['k1', 'sent', '1700000000.000001'],
      ['k2', 'sent', '1700000000.000004'],
      ['k3', 'sent', '1700000000.000002'],
      ['k4', 'sent', '1700000000.000003'],
    ]);
  });
});

describe('SlackChat failure mapping', () => {
  let fake: FakeSlackApi;
  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage', 'chat.update'] });
  });
  afterEach(async () => {
    fake.assertDone();
    await fake.close();
  });

  const failure = async (run: () => Promise<unknown>): Promise<DeliveryError> => {
    const error = await run().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeliveryError);
    return error as DeliveryError;
  };

  it.each(['not_in_channel', 'is_archived', 'invalid_blocks', 'invalid_auth', 'channel_not_found'])('%s is permanent', async (code) => {
    fake.failNext('chat.postMessage', { error: code });
    const error = await failure(() => slackChat(fake, { log: silent }).post('C0ML', alert(1)));
    expect(error).toMatchObject({ permanent: true, message: `Slack chat.postMessage: ${code}` });
  });

  it('a throttle is retryable after Retry-After, an outage and an unknown error are retryable', async () => {
    const chat = slackChat(fake, { log: silent });
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 7 });
    expect(await failure(() => chat.post('C0ML', alert(1)))).toMatchObject({ permanent: false, retryAfterMs: 7_000 });
    fake.failNext('chat.update', { status: 502 });
    expect(await failure(() => chat.update('C0ML', '1.2', alert(1)))).toMatchObject({
      permanent: false,
      retryAfterMs: undefined,
      message: 'Slack chat.update: HTTP 502 Bad Gateway',
    });
    fake.failNext('chat.postMessage', { error: 'internal_error' });
    expect(await failure(() => chat.post('C0ML', alert(1)))).toMatchObject({ permanent: false });
  });

  it('a network failure is retryable and its message never carries the token', async () => {
    const closed = await FakeSlackApi.start();
    await closed.close(); // nothing listens on its port any more
    const chat = new SlackChat(
      createSlackClient({ botToken: TEST_BOT_TOKEN, signingSecret: 's', appToken: null, apiUrl: closed.apiUrl }, silent),
    );
    const error = await failure(() => chat.post('C0ML', alert(1)));
    expect(error.permanent).toBe(false);
    expect(error.message).toMatch(/^Slack chat\.postMessage: network error/);
    expect(error.message).not.toContain(TEST_BOT_TOKEN);
  });

  it('replies in the thread and edits by ts, with the bot token', async () => {
    const chat = slackChat(fake, { log: silent });
    expect(chat.addressOf(config.teams[0]!)).toBe('C0ML');
    expect(chat.addressOf(configSchema.parse({ teams: [{ id: 'x' }] }).teams[0]!)).toBeNull();
    const { ref } = await chat.post('C0ML', alert(1));
    await chat.update('C0ML', ref!, alert(2));
    await chat.reply('C0ML', ref!, alert(3));
    expect(fake.calls.map((c) => [c.method, c.args.channel, c.args.ts ?? null, c.args.thread_ts ?? null, c.authorized])).toEqual([
      ['chat.postMessage', 'C0ML', null, null, true],
      ['chat.update', 'C0ML', ref, null, true],
      ['chat.postMessage', 'C0ML', null, ref, true],
    ]);
  });

  it('the fake rejects blocks over Slack limits the way Slack does', async () => {
    const client = createSlackClient({ botToken: TEST_BOT_TOKEN, signingSecret: 's', appToken: null, apiUrl: fake.apiUrl }, silent);
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } },
      ...Array.from({ length: 50 }, () => ({ type: 'divider' })),
    ];
    const error = await client.chat.postMessage({ channel: 'C0ML', text: 'too much', blocks }).then(
      () => null,
      (e: { data?: { error?: string; errors?: string[] } }) => e,
    );
    expect(error?.data?.error).toBe('invalid_blocks');
    expect(error?.data?.errors).toEqual(['51 blocks, max 50', 'blocks[0] (header): header text must be 1-150 characters']);
  });
});
