import { expect, it } from 'vitest';
import type { ChatConversation } from '../../../src/domain/chat-conversation.js';
import { describeStores } from '../../support/stores.js';

const conversation = (conversationId: string, overrides: Partial<ChatConversation> = {}): ChatConversation => ({
  platform: 'msteams',
  conversationId,
  kind: 'channel',
  reference: {
    bot: { id: '28:burnrate', name: 'burnrate' },
    conversation: { id: conversationId, conversationType: 'channel', tenantId: 'tenant-1' },
    serviceUrl: 'https://smba.trafficmanager.net/emea/',
  },
  updatedAt: new Date('2026-11-03T10:00:00Z'),
  ...overrides,
});

describeStores('chat conversations', (store) => {
  it('saves a conversation and refreshes it when saved again', async () => {
    await store().conversations.save(conversation('19:ml@thread.tacv2'));
    expect(await store().conversations.get('msteams', '19:ml@thread.tacv2')).toEqual(conversation('19:ml@thread.tacv2'));

    const moved = conversation('19:ml@thread.tacv2', {
      kind: 'groupChat',
      reference: { serviceUrl: 'https://smba.trafficmanager.net/amer/', nested: { list: [1, 'two', null, true] } },
      updatedAt: new Date('2026-11-04T08:00:00Z'),
    });
    await store().conversations.save(moved);
    expect(await store().conversations.get('msteams', '19:ml@thread.tacv2')).toEqual(moved);
    expect(await store().conversations.get('slack', '19:ml@thread.tacv2')).toBeNull();
    expect(await store().conversations.get('msteams', 'unknown')).toBeNull();
  });

  it("lists a platform's conversations by id", async () => {
    const ids = ['a:personal', '19:nlp@thread.tacv2', 'Z:chat', '19:ml@thread.tacv2'];
    for (const id of ids) await store().conversations.save(conversation(id));
    await store().conversations.save(conversation('C0SLACK', { platform: 'slack' }));
    // Byte order: digits, then capitals, then small letters.
    expect((await store().conversations.list('msteams')).map((c) => c.conversationId)).toEqual([
      '19:ml@thread.tacv2',
      '19:nlp@thread.tacv2',
      'Z:chat',
      'a:personal',
    ]);
    expect(await store().conversations.list('slack')).toEqual([conversation('C0SLACK', { platform: 'slack' })]);
    expect(await store().conversations.list('console')).toEqual([]);
  });
});
