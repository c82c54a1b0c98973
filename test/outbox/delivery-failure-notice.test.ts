import { afterEach, describe, expect, it } from 'vitest';
import { SlackChat } from '../../src/chat/slack/slack-chat.js';
import { createSlackClient } from '../../src/chat/slack/slack-client.js';
import { DeliveryLoop } from '../../src/outbox/delivery-loop.js';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { testDeps } from '../support/deps.js';

const alert = {
  summary: 'LLM Training passed 80% of its budget',
  blocks: [{ type: 'text' as const, text: 'LLM Training passed 80% of its budget' }],
};

describe('an alert that fails for good', () => {
  let fake: FakeSlackApi | null = null;
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  async function slackDeps(admins: string[]) {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage'] });
    const t = testDeps({ admins });
    t.deps.chat = [new SlackChat(createSlackClient({ botToken: 'xoxb-test', apiUrl: fake.apiUrl } as never, t.deps.log))];
    return t;
  }

  it('is told to each admin in a direct message, with the error and the command that sends it again', async () => {
    const { deps } = await slackDeps(['U0ADMIN', 'W0GRIDADMIN', '00000000-entra-object-id']);
    await deps.store.outbox.enqueue([{ dedupeKey: 'budget:llm:80', target: 'slack:C0GONE', message: alert }], deps.clock());
    fake!.failNext('chat.postMessage', { error: 'channel_not_found' });
    const loop = new DeliveryLoop(deps);
    await loop.wake();
    await loop.stop();

    const posts = fake!.callsOf('chat.postMessage');
    expect(posts.map((p) => p.args.channel)).toEqual(['C0GONE', 'U0ADMIN', 'W0GRIDADMIN']); // no DM for an id Slack does not know
    for (const dm of posts.slice(1)) {
      expect(dm.args.text).toBe('burnrate could not deliver an alert to slack:C0GONE');
      const text = JSON.stringify(dm.args.blocks);
      expect(text).toContain('channel_not_found');
      expect(text).toContain('LLM Training passed 80% of its budget');
      expect(text).toContain('burnrate outbox retry --id 1');
    }
    expect(await deps.store.outbox.summary()).toMatchObject({ failed: 1, sent: 2, pending: 0 });
  });

  it('a notice that fails itself is not noticed again', async () => {
    const { deps } = await slackDeps(['U0ADMIN']);
    await deps.store.outbox.enqueue([{ dedupeKey: 'budget:llm:80', target: 'slack:C0GONE', message: alert }], deps.clock());
    fake!.failNext('chat.postMessage', { error: 'channel_not_found' });
    fake!.failNext('chat.postMessage', { error: 'channel_not_found' }); // the admin's DM, too
    const loop = new DeliveryLoop(deps);
    await loop.wake();
    await loop.stop();
    expect(fake!.callsOf('chat.postMessage')).toHaveLength(2);
    expect(await deps.store.outbox.summary()).toMatchObject({ failed: 2, pending: 0 });
    fake!.assertDone();
  });
});
