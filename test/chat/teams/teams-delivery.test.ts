import { describe, expect, it } from 'vitest';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import type { Message } from '../../../templates/message.js';
import { testDeps } from '../../support/deps.js';
import { CONVERSATIONS, installActivity } from '../../support/teams-activity.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ALICE } from './teams-test-config.js';

const config = { teams: [{ id: 'ml', msteams: { channel: CONVERSATIONS.channel } }] };
const alert = (n: number): Message => ({
  summary: `alert ${n}`,
  blocks: [
    { type: 'header', text: `Alert ${n}` },
    { type: 'text', text: `Spend is **${n}0%** of budget` },
  ],
});
const TARGET = `msteams:${CONVERSATIONS.channel}`;

describe('TeamsChat through the outbox (real ConnectorClient, fake Bot Connector)', () => {
  const bed = useTeamsTestbed();

  async function installed() {
    const t = testDeps(config, '2026-11-21T09:00:00Z');
    const h = await bed.start(t.deps);
    await h.send(installActivity(bed.fake.serviceUrl, ALICE));
    return t;
  }

  it('turns a 429 into one failed attempt that waits as long as Retry-After says, then posts exactly once', async () => {
    const { deps, setNow } = await installed();
    await deps.store.outbox.enqueue([{ dedupeKey: 'a', target: TARGET, message: alert(1) }], deps.clock());
    bed.fake.failNext({ status: 429, retryAfter: 30 });

    const started = Date.now();
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(Date.now() - started).toBeLessThan(5_000); // the SDK did not sleep through Retry-After itself
    setNow('2026-11-21T09:00:29Z');
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    setNow('2026-11-21T09:00:30Z');
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(bed.fake.requests).toBe(2); // the throttled attempt and the one that went through: no SDK retry
    expect(bed.fake.calls).toHaveLength(1);
    expect(bed.fake.calls[0]).toMatchObject({ op: 'send', conversationId: CONVERSATIONS.channel, activity: { summary: 'alert 1' } });
  });

  it('retries 5xx with the outbox backoff, one connector request per attempt', async () => {
    const { deps, setNow } = await installed();
    await deps.store.outbox.enqueue([{ dedupeKey: 'a', target: TARGET, message: alert(1) }], deps.clock());
    bed.fake.failNext({ status: 503 });
    bed.fake.failNext({ status: 502 });
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 1, failed: 0 });
    setNow('2026-11-21T09:00:01Z');
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 1, failed: 0 });
    setNow('2026-11-21T09:00:02Z');
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 0, failed: 0 }); // second backoff is 2 s
    setNow('2026-11-21T09:00:03Z');
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(bed.fake.requests).toBe(3);
    expect(bed.fake.calls).toHaveLength(1);
  });

  it('gives up at once when the bot was removed from the team (403), and says so', async () => {
    const { deps } = await installed();
    await deps.store.outbox.enqueue([{ dedupeKey: 'a', target: TARGET, message: alert(1) }], deps.clock());
    bed.fake.failNext({ status: 403, code: 'BotNotInConversationRoster' });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(bed.fake.requests).toBe(1);
  });

  it('waits for a channel burnrate was never installed in, and posts once the app is added there', async () => {
    const t = testDeps(config, '2026-11-21T09:00:00Z');
    const h = await bed.start(t.deps);
    await t.deps.store.outbox.enqueue([{ dedupeKey: 'a', target: TARGET, message: alert(1) }], t.deps.clock());
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(bed.fake.calls).toEqual([]);
    await h.send(installActivity(bed.fake.serviceUrl, ALICE));
    t.setNow('2026-11-21T09:10:00Z');
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
  });
});
