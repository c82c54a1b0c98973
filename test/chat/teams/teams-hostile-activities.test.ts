import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { testDeps } from '../../support/deps.js';
import { CONVERSATIONS, installActivity, messageActivity } from '../../support/teams-activity.js';
import { cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ALICE, teamsDemoConfig } from './teams-test-config.js';

/** A well-formed personal message to change one field of; serviceUrl is filled in per test. */
const message = (serviceUrl: string) => messageActivity(serviceUrl, 'personal', ALICE, 'help') as Record<string, unknown>;

const HOSTILE: [string, (serviceUrl: string) => string][] = [
  ['JSON null', () => 'null'],
  ['JSON []', () => '[]'],
  ['a JSON number', () => '42'],
  ['an empty body', () => ''],
  ['JSON that does not parse', () => '{"type":'],
  ['an object without a type', () => '{}'],
  ['an empty type', (s) => JSON.stringify({ ...message(s), type: '' })],
  ['no conversation', (s) => JSON.stringify({ ...message(s), conversation: undefined })],
  ['a null conversation', (s) => JSON.stringify({ ...message(s), conversation: null })],
  ['a numeric conversation id', (s) => JSON.stringify({ ...message(s), conversation: { id: 5 } })],
  ['a null sender', (s) => JSON.stringify({ ...message(s), from: null })],
  ['no serviceUrl', (s) => JSON.stringify({ ...message(s), serviceUrl: undefined })],
  ['a numeric serviceUrl', (s) => JSON.stringify({ ...message(s), serviceUrl: 5 })],
  ['a serviceUrl that is not http', (s) => JSON.stringify({ ...message(s), serviceUrl: 'javascript:alert(1)' })],
  ['text that is an object', (s) => JSON.stringify({ ...message(s), text: { a: 1 } })],
  ['entities that are a string', (s) => JSON.stringify({ ...message(s), entities: 'x' })],
  ['a null recipient', (s) => JSON.stringify({ ...message(s), recipient: null })],
  ['membersAdded that is a string', (s) => JSON.stringify({ ...message(s), type: 'conversationUpdate', membersAdded: 'x' })],
  ['membersAdded holding null', (s) => JSON.stringify({ ...message(s), type: 'conversationUpdate', membersAdded: [null] })],
  ['an installationUpdate whose action is a number', (s) => JSON.stringify({ ...message(s), type: 'installationUpdate', action: 5 })],
  ['a timestamp that is not a time', (s) => JSON.stringify({ ...message(s), timestamp: 'yesterday-ish' })],
];

describe('malformed Teams activities (real CloudAdapter over HTTP, fake Bot Connector)', () => {
  const bed = useTeamsTestbed();
  const rejections: unknown[] = [];
  const record = (reason: unknown) => rejections.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
  });
  afterAll(() => {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
  });

  async function start() {
    const t = testDeps(teamsDemoConfig());
    return { ...t, h: await bed.start(t.deps) };
  }
  const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it.each(HOSTILE)('answers %s with 400 and a short reason before any turn runs, then still answers a message', async (_name, body) => {
    const { deps, h } = await start();
    const res = await post(h.url, body(bed.fake.serviceUrl));
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: string };
    expect(error.length).toBeGreaterThan(5);
    expect(error.length).toBeLessThan(80);
    expect(error).not.toMatch(/\bat .*:\d+|TypeError|undefined/);
    expect(bed.fake.calls).toEqual([]);
    expect(await deps.store.conversations.get('msteams', CONVERSATIONS.personal)).toBeNull();

    const valid = await h.send(message(bed.fake.serviceUrl));
    expect(valid.status).toBe(200);
    expect(bed.fake.calls).toHaveLength(1);
    expect(cardText(FakeBotConnector.cardOf(bed.fake.calls[0]!))).toContain('spend');
    expect(rejections).toEqual([]);
  });

  it('refuses a body over 1 MiB with 413, and keeps serving', async () => {
    const { h } = await start();
    const huge = JSON.stringify({ ...message(bed.fake.serviceUrl), text: 'x'.repeat(1024 * 1024) });
    const res = await post(h.url, huge);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe('request body over 1048576 bytes');
    expect((await h.send(message(bed.fake.serviceUrl))).status).toBe(200);
    expect(bed.fake.calls).toHaveLength(1);
  });

  it('still takes the activities Teams sends without text or members: an install is remembered', async () => {
    const { deps, h } = await start();
    expect((await h.send(installActivity(bed.fake.serviceUrl, ALICE))).status).toBe(200);
    expect(await deps.store.conversations.get('msteams', CONVERSATIONS.channel)).not.toBeNull();
  });
});
