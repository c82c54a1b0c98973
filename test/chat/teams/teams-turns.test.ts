import { TestAdapter, type Activity } from 'botbuilder';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/inbound/dispatcher.js';
import { createTeamsApp } from '../../../src/chat/teams/teams-app.js';
import { createTeamsChat } from '../../../src/chat/teams/teams-chat.js';
import { commandText } from '../../../src/chat/teams/teams-interaction.js';
import { testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { BOT } from '../../support/teams-activity.js';
import { cardText } from './card-buttons.js';
import { ADMIN, teamsDemoConfig } from './teams-test-config.js';

const CHANNEL = '19:unit-channel@thread.tacv2';
const from = { id: `29:${ADMIN.aadObjectId}`, name: ADMIN.name, aadObjectId: ADMIN.aadObjectId };

/** The bot's turn logic on botbuilder's TestAdapter: no HTTP, no connector, the same onTurn serve mounts. */
function unit() {
  const t = testDeps(teamsDemoConfig());
  t.deps.chat = [createTeamsChat({ insecure: true }, t.deps.store.conversations, t.deps.log)];
  const app = createTeamsApp(t.deps, { dispatch, authenticated: false });
  const adapter = new TestAdapter(app.onTurn, {
    channelId: 'msteams',
    recipient: { ...BOT },
    conversation: { id: CHANNEL, conversationType: 'channel', isGroup: true, name: 'alerts' },
  });
  const sent = () => adapter.activeQueue.splice(0) as Partial<Activity>[];
  const remembered = () => t.deps.store.conversations.get('msteams', CHANNEL);
  return { ...t, adapter, sent, remembered };
}

function invoke(value: unknown): Partial<Activity> {
  return { type: 'invoke', name: 'adaptiveCard/action', from, value, replyToId: '1700000000001' };
}

describe('the Teams bot, turn by turn (TestAdapter)', () => {
  it('answers a mention with a card from the same templates, and remembers the conversation', async () => {
    const { adapter, sent, remembered } = unit();
    await adapter
      .send({
        type: 'message',
        from,
        text: '<at>burnrate</at> whoami',
        entities: [{ type: 'mention', text: '<at>burnrate</at>', mentioned: { ...BOT } }],
      })
      .startTest();
    const [answer] = sent();
    expect(answer?.attachments?.[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(adaptiveCardProblems(answer!.attachments![0]!.content)).toEqual([]);
    expect(cardText(answer!.attachments![0]!.content)).toContain('You are an **admin**');
    expect(answer?.summary).toBeTruthy();
    expect(await remembered()).toMatchObject({ kind: 'channel', reference: { channelId: 'msteams', bot: { id: BOT.id } } });
  });

  it('answers an unknown button in the invoke response, only to the clicker', async () => {
    const { adapter, sent } = unit();
    await adapter.processActivity(invoke({ action: { type: 'Action.Execute', verb: 'budget.explode', data: { value: '{}' } } }));
    const [response] = sent();
    expect(response).toMatchObject({
      type: 'invokeResponse',
      value: { status: 200, body: { statusCode: 200, type: 'application/vnd.microsoft.activity.message' } },
    });
    expect(response!.value.body.value).toContain('This button ("budget.explode") is not one burnrate knows.');
  });

  it('answers a forged button value with what to do, not a stack trace', async () => {
    const { adapter, sent } = unit();
    await adapter.processActivity(invoke({ action: { type: 'Action.Execute', verb: 'budget.ack', data: { value: '{"f":' } } }));
    const [response] = sent();
    expect(response!.value.body.type).toBe('application/vnd.microsoft.activity.message');
    expect(response!.value.body.value).not.toMatch(/at .+\.(ts|js):\d+/);
    expect(response!.value.body.value).toMatch(/\/burnrate budget/);
  });

  it('answers an invoke it cannot read (no verb) politely', async () => {
    const { adapter, sent } = unit();
    await adapter.processActivity(invoke({ action: { type: 'Action.Execute' } }));
    expect(sent()[0]!.value.body.value).toContain('burnrate could not read that request from Teams.');
  });

  it('says something went wrong, with a reference and no internals, when the store fails mid-command', async () => {
    const { adapter, sent, deps } = unit();
    await adapter.send({ type: 'message', from, text: 'whoami' }).startTest(); // remembers the conversation first
    sent();
    await deps.store.close();
    await adapter
      .send({ type: 'message', from, text: 'spend' })
      .startTest()
      .catch(() => {});
    const text = cardText(sent()[0]!.attachments![0]!.content);
    expect(text).toContain('Something went wrong on our side.');
    expect(text).toMatch(/reference [0-9a-f]{8}/);
    expect(text).not.toMatch(/database|sqlite|\.ts:\d+/i);
  });

  it('remembers an install of the bot, and ignores other people joining or the app being removed', async () => {
    const joined = unit();
    await joined.adapter.processActivity({ type: 'conversationUpdate', from, membersAdded: [{ id: '29:someone-else', name: 'Someone' }] });
    await joined.adapter.processActivity({ type: 'installationUpdate', from, action: 'remove' });
    expect(await joined.remembered()).toBeNull();
    await joined.adapter.processActivity({ type: 'installationUpdate', from, action: 'add' });
    expect(await joined.remembered()).not.toBeNull();

    const added = unit();
    await added.adapter.processActivity({ type: 'conversationUpdate', from, membersAdded: [{ id: BOT.id, name: BOT.name }] });
    expect(await added.remembered()).not.toBeNull();
    expect(added.sent()).toEqual([]);
  });
});

describe('command text from a Teams message', () => {
  const recipient = { ...BOT };
  const mention = { type: 'mention', text: '<at>burnrate</at>', mentioned: { ...BOT } };
  it.each([
    ['<at>burnrate</at> spend ml-research last-month', [mention], 'spend ml-research last-month'],
    ['spend <at>burnrate</at>&nbsp;by service', [mention], 'spend by service'],
    ['<at>Burnrate Bot</at> top 5', [{ ...mention, text: '<at>Burnrate Bot</at>' }], 'top 5'],
    ['/burnrate budget llm-training', [], 'budget llm-training'],
    ['burnrate   whoami ', [], 'whoami'],
    ['burnrated', [], 'burnrated'],
    ['<at>burnrate</at>', [mention], ''],
  ])('%j → %j', (text, entities, expected) => {
    expect(commandText({ text, entities, recipient })).toBe(expected);
  });
});
