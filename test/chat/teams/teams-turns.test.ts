import { describe, expect, it } from 'vitest';
import { commandText } from '../../../src/chat/teams/teams-interaction.js';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { BOT, cardActionActivity, CONVERSATIONS, installActivity, messageActivity } from '../../support/teams-activity.js';
import { cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ADMIN, teamsDemoConfig } from './teams-test-config.js';

/** The bot's turns through the Agents SDK's CloudAdapter over HTTP, unauthenticated, the fake Bot Connector answering. */
describe('the Teams bot, turn by turn', () => {
  const bed = useTeamsTestbed();

  async function start() {
    const t = testDeps(teamsDemoConfig());
    const h = await bed.start(t.deps);
    const remembered = () => t.deps.store.conversations.get('msteams', CONVERSATIONS.channel);
    const click = async (value: unknown) =>
      (
        await h.send({
          ...cardActionActivity(bed.fake.serviceUrl, ADMIN, '1700000000001', 'x', ''),
          value,
        })
      ).body;
    return { ...t, h, remembered, click };
  }

  it('answers a mention with a card from the same templates, and remembers the conversation', async () => {
    const { h, remembered } = await start();
    expect((await h.send(messageActivity(bed.fake.serviceUrl, 'channel', ADMIN, 'whoami'))).status).toBe(200);
    const [answer] = bed.fake.calls;
    const card = FakeBotConnector.cardOf(answer!);
    expect(adaptiveCardProblems(card)).toEqual([]);
    expect(cardText(card)).toContain('You are an **admin**');
    expect(answer!.activity.summary).toBeTruthy();
    expect(await remembered()).toMatchObject({ kind: 'channel', reference: { channelId: 'msteams', bot: { id: BOT.id } } });
  });

  it('answers an unknown button in the invoke response, only to the clicker', async () => {
    const { click } = await start();
    const body = await click({ action: { type: 'Action.Execute', verb: 'budget.explode', data: { value: '{}' } } });
    expect(body).toMatchObject({ statusCode: 200, type: 'application/vnd.microsoft.activity.message' });
    expect(body.value).toContain('This button ("budget.explode") is not one burnrate knows.');
    expect(bed.fake.calls).toEqual([]);
  });

  it('answers a forged button value with what to do, not a stack trace', async () => {
    const { click } = await start();
    const body = await click({ action: { type: 'Action.Execute', verb: 'budget.ack', data: { value: '{"f":' } } });
    expect(body.type).toBe('application/vnd.microsoft.activity.message');
    expect(body.value).not.toMatch(/at .+\.(ts|js):\d+/);
    expect(body.value).toMatch(/\/burnrate budget/);
  });

  it('answers an invoke it cannot read (no verb) politely', async () => {
    const { click } = await start();
    expect((await click({ action: { type: 'Action.Execute' } })).value).toContain('burnrate could not read that request from Teams.');
  });

  it('says something went wrong, with a reference and no internals, when the store fails mid-command', async () => {
    const { h, deps } = await start();
    await h.send(messageActivity(bed.fake.serviceUrl, 'personal', ADMIN, 'whoami')); // remembers the conversation first
    await deps.store.close();
    await h.send(messageActivity(bed.fake.serviceUrl, 'personal', ADMIN, 'spend'));
    const text = cardText(FakeBotConnector.cardOf(bed.fake.calls.at(-1)!));
    expect(text).toContain('Something went wrong on our side.');
    expect(text).toMatch(/reference [0-9a-f]{8}/);
    expect(text).not.toMatch(/database|sqlite|\.ts:\d+/i);
  });

  it('remembers an install of the bot, and ignores other people joining or the app being removed', async () => {
    const { h, remembered } = await start();
    const install = installActivity(bed.fake.serviceUrl, ADMIN);
    await h.send({ ...install, membersAdded: [{ id: '29:someone-else', name: 'Someone' }] });
    await h.send({ ...install, type: 'installationUpdate', action: 'remove', membersAdded: undefined });
    expect(await remembered()).toBeNull();
    await h.send({ ...install, type: 'installationUpdate', action: 'add', membersAdded: undefined });
    expect(await remembered()).not.toBeNull();
    await h.send(install);
    expect(bed.fake.calls).toEqual([]);
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
