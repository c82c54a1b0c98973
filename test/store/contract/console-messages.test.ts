import { expect, it } from 'vitest';
import type { Message } from '../../../templates/message.js';
import { describeStores } from '../../support/stores.js';

const text = (summary: string): Message => ({ summary, blocks: [{ type: 'text', text: `**${summary}**` }] });
const at = (minute: number) => new Date(Date.UTC(2026, 10, 3, 9, minute));

describeStores('console messages', (store) => {
  it('adds, reads and updates a message', async () => {
    const added = await store().console.add({ channel: 'ml-research', message: text('Budget at 80%') }, at(0));
    expect(added).toEqual({
      id: added.id,
      channel: 'ml-research',
      parentId: null,
      privateTo: null,
      author: null,
      message: text('Budget at 80%'),
      createdAt: at(0).toISOString(),
      updatedAt: at(0).toISOString(),
    });
    expect(await store().console.get(added.id)).toEqual(added);

    const updated = await store().console.update(added.id, text('Budget at 80%, acknowledged'), at(5));
    expect(updated).toEqual({ ...added, message: text('Budget at 80%, acknowledged'), updatedAt: at(5).toISOString() });
    expect(await store().console.get(added.id)).toEqual(updated);
    expect(await store().console.update(added.id + 1000, text('nothing'), at(6))).toBeNull();
    expect(await store().console.get(added.id + 1000)).toBeNull();
  });

  it("shows a viewer the channel's latest threads with the replies they may see, oldest first", async () => {
    const add = (channel: string, summary: string, more: { parentId?: number; privateTo?: string; author?: string } = {}) =>
      store().console.add({ channel, message: text(summary), ...more }, at(0));
    const old = await add('ml-research', 'old alert');
    const alert = await add('ml-research', 'alert');
    const command = await add('ml-research', '/burnrate budget', { author: 'U0ALICE', privateTo: 'U0ALICE' });
    const reply = await add('ml-research', 'acknowledged by Bob', { parentId: alert.id });
    const privateReply = await add('ml-research', 'only for Alice', { parentId: alert.id, privateTo: 'U0ALICE' });
    const oldReply = await add('ml-research', 'late reply to the old alert', { parentId: old.id });
    await add('nlp', 'another channel');
    const bobs = await add('ml-research', 'only for Bob', { privateTo: 'U0BOB' });

    const ids = async (viewer: string, limit?: number) => (await store().console.list('ml-research', viewer, limit)).map((m) => m.id);
    expect(await ids('U0ALICE')).toEqual([old.id, alert.id, command.id, reply.id, privateReply.id, oldReply.id]);
    expect(await ids('U0BOB')).toEqual([old.id, alert.id, reply.id, oldReply.id, bobs.id]);
    // The latest two threads Alice sees: the alert and her command, with the alert's replies.
    expect(await ids('U0ALICE', 2)).toEqual([alert.id, command.id, reply.id, privateReply.id]);
    expect(await store().console.list('empty', 'U0ALICE')).toEqual([]);
    expect((await store().console.list('ml-research', 'U0BOB'))[2]).toEqual(reply);
  });

  it("counts each channel's messages a viewer sees and the newest of them", async () => {
    const alert = await store().console.add({ channel: 'ml-research', message: text('alert') }, at(0));
    const reply = await store().console.add({ channel: 'ml-research', parentId: alert.id, message: text('reply') }, at(1));
    const mine = await store().console.add({ channel: 'ml-research', privateTo: 'U0ALICE', message: text('for Alice') }, at(2));
    const dm = await store().console.add({ channel: '@dm', privateTo: 'U0BOB', message: text('for Bob') }, at(3));

    expect(await store().console.activity('U0ALICE')).toEqual(new Map([['ml-research', { messages: 3, latestId: mine.id }]]));
    expect(await store().console.activity('U0BOB')).toEqual(
      new Map([
        ['ml-research', { messages: 2, latestId: reply.id }],
        ['@dm', { messages: 1, latestId: dm.id }],
      ]),
    );
    expect(await store().console.activity('U0NOBODY')).toEqual(new Map([['ml-research', { messages: 2, latestId: reply.id }]]));
  });
});
