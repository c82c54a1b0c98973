import { describe, expect, it } from 'vitest';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { spendRow, testDeps } from '../../support/deps.js';
import { CONVERSATIONS, messageActivity, type ConversationKind } from '../../support/teams-activity.js';
import { cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ADMIN, ALICE, teamsDemoConfig } from './teams-test-config.js';

describe('commands to the bot in Teams (real CloudAdapter over HTTP, fake Bot Connector)', () => {
  const bed = useTeamsTestbed();

  async function start() {
    const t = testDeps(teamsDemoConfig(), '2026-11-21T09:00:00Z');
    await t.deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-10', '2026-11'] },
        rows: [spendRow('llm-training', '2026-11-20', 1234.5), spendRow('ml-research', '2026-10-12', 777.25)],
        dataThrough: '2026-11-21T00:00:00Z',
      },
    ]);
    return { ...t, h: await bed.start(t.deps) };
  }

  it.each<[ConversationKind, string]>([
    ['channel', `${CONVERSATIONS.channel};messageid=`],
    ['groupChat', CONVERSATIONS.groupChat],
    ['personal', CONVERSATIONS.personal],
  ])('answers "spend ml-research last-month" in a %s, through the dispatcher, in that conversation', async (kind, answeredIn) => {
    const { deps, h } = await start();
    const activity = messageActivity(bed.fake.serviceUrl, kind, ALICE, 'spend ml-research last-month');
    const res = await h.send(activity);
    expect(res.status).toBe(200);

    expect(bed.fake.calls).toHaveLength(1);
    const [answer] = bed.fake.calls;
    // A reply to the question: in a channel, inside the question's thread.
    expect(answer).toMatchObject({ op: 'reply', activityId: activity.id, authorized: false });
    expect(answer!.conversationId).toBe(kind === 'channel' ? `${answeredIn}${activity.id}` : answeredIn);
    const text = cardText(FakeBotConnector.cardOf(answer!));
    expect(text).toContain('ml-research');
    expect(text).toContain('$777.25');
    expect(text).toContain('Spend of ml-research, 1 Oct – 31 Oct');

    // The conversation is remembered for proactive messages, under its id without the thread part.
    const key = kind === 'channel' ? CONVERSATIONS.channel : answeredIn;
    const stored = await deps.store.conversations.get('msteams', key);
    expect(stored).toMatchObject({
      kind,
      reference: { serviceUrl: bed.fake.serviceUrl, conversation: { id: key }, bot: { id: '28:burnrate-test-bot' } },
    });
    expect(stored!.reference).not.toHaveProperty('activityId');
    expect(stored!.reference).not.toHaveProperty('user');
  });

  it('answers help for a bare mention and an unknown verb, and "/burnrate whoami" typed out of Slack habit', async () => {
    const { h } = await start();
    await h.send(messageActivity(bed.fake.serviceUrl, 'channel', ADMIN, ''));
    await h.send(messageActivity(bed.fake.serviceUrl, 'groupChat', ADMIN, 'frobnicate now'));
    await h.send(messageActivity(bed.fake.serviceUrl, 'personal', ADMIN, '/burnrate whoami'));
    const [bare, unknown, whoami] = bed.fake.calls.map((c) => cardText(FakeBotConnector.cardOf(c)));
    expect(bare).toContain('spend');
    expect(bare).not.toContain('Unknown command');
    expect(unknown).toContain('Unknown command "frobnicate"');
    expect(whoami).toContain('You are an **admin**');
  });

  it('answers an activity the connector delivers twice (or two replicas receive) once', async () => {
    const { h } = await start();
    const activity = messageActivity(bed.fake.serviceUrl, 'personal', ALICE, 'spend ml-research last-month');
    expect((await h.send(activity)).status).toBe(200);
    expect((await h.send(activity)).status).toBe(200);
    expect(bed.fake.calls).toHaveLength(1);
  });

  it('answers a refusal with what to do, never a stack trace', async () => {
    const { h } = await start();
    await h.send(messageActivity(bed.fake.serviceUrl, 'personal', ALICE, 'budget set llm-training 5k'));
    const text = cardText(FakeBotConnector.cardOf(bed.fake.calls[0]!));
    expect(text).toMatch(/llm-training/);
    expect(text).toMatch(/approver/i);
    expect(text).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('rejects a body that is not an activity with 400, before any turn runs', async () => {
    const { deps, h } = await start();
    const res = await fetch(h.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(res.status).toBe(400);
    expect((await h.send([1, 2])).status).toBe(400);
    expect(bed.fake.calls).toEqual([]);
    expect(await deps.store.conversations.get('msteams', CONVERSATIONS.personal)).toBeNull();
  });
});
