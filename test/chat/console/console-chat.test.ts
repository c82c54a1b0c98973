import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../../src/ports/chat-port.js';
import { ConsoleChat, type ConsoleChange } from '../../../src/chat/console/console-chat.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import type { Message } from '../../../templates/message.js';
import { testDeps } from '../../support/deps.js';

const text = (t: string): Message => ({ summary: t, blocks: [{ type: 'text', text: t }] });
const config = { teams: [{ id: 'llm-training', owners: ['U0CAROL'] }] };

function setup() {
  const { deps, setNow } = testDeps(config, '2026-11-21T09:00:00Z');
  const chat = new ConsoleChat(deps.store.console, deps.clock);
  deps.chat = [chat];
  const changes: ConsoleChange[] = [];
  chat.subscribe((change) => changes.push(change));
  return { deps, chat, changes, setNow };
}

describe('console chat port', () => {
  it('receives outbox posts, updates and thread replies like any platform', async () => {
    const { deps, chat, changes, setNow } = setup();
    const team = deps.config.teams[0]!;
    expect(chat.addressOf(team)).toBe('llm-training');
    await deps.store.outbox.enqueue(
      [{ dedupeKey: 'a', target: 'console:llm-training', message: text('first alert'), threadOf: 'g' }],
      deps.clock(),
    );
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    setNow('2026-11-21T10:00:00Z');
    await deps.store.outbox.enqueue(
      [
        { dedupeKey: 'a:update', target: 'console:llm-training', message: text('escalated alert'), op: 'update', parentKey: 'a' },
        { dedupeKey: 'a:reply', target: 'console:llm-training', message: text('what changed'), op: 'reply', parentKey: 'a' },
      ],
      deps.clock(),
    );
    expect(await deliverOutbox(deps)).toEqual({ sent: 2, retried: 0, failed: 0 });

    const stream = await deps.store.console.list('llm-training', 'U0CAROL');
    expect(stream.map((m) => [m.id, m.parentId, m.message.summary, m.updatedAt !== m.createdAt])).toEqual([
      [1, null, 'escalated alert', true],
      [2, 1, 'what changed', false],
    ]);
    expect(changes).toEqual([
      { channel: 'llm-training', id: 1, privateTo: null },
      { channel: 'llm-training', id: 1, privateTo: null },
      { channel: 'llm-training', id: 2, privateTo: null },
    ]);
  });

  it('keeps threads one level deep and private answers private', async () => {
    const { deps, chat } = setup();
    const { ref } = await chat.post('llm-training', text('alert'));
    const { ref: reply } = await chat.reply('llm-training', ref, text('reply'));
    await chat.reply('llm-training', reply, text('reply to the reply'));
    await chat.whisper('llm-training', 'U0CAROL', text('only for Carol'));
    const carol = await deps.store.console.list('llm-training', 'U0CAROL');
    expect(carol.map((m) => [m.message.summary, m.parentId, m.privateTo])).toEqual([
      ['alert', null, null],
      ['reply', 1, null],
      ['reply to the reply', 1, null],
      ['only for Carol', null, 'U0CAROL'],
    ]);
    expect((await deps.store.console.list('llm-training', 'U0DAN')).map((m) => m.message.summary)).toEqual([
      'alert',
      'reply',
      'reply to the reply',
    ]);
    expect(await deps.store.console.list('ml-research', 'U0CAROL')).toEqual([]);
  });

  it("counts each channel's messages and newest id per viewer: another user's private answers are not theirs", async () => {
    const { deps, chat } = setup();
    const { ref } = await chat.post('llm-training', text('alert'));
    await chat.reply('llm-training', ref, text('reply'));
    await chat.whisper('llm-training', 'U0CAROL', text('only for Carol'));
    await chat.post('ml-research', text('other team'));
    await chat.whisper('@dm', 'U0CAROL', text('a direct message'));
    expect(Object.fromEntries(await deps.store.console.activity('U0CAROL'))).toEqual({
      'llm-training': { messages: 3, latestId: 3 },
      'ml-research': { messages: 1, latestId: 4 },
      '@dm': { messages: 1, latestId: 5 },
    });
    expect(Object.fromEntries(await deps.store.console.activity('U0DAN'))).toEqual({
      'llm-training': { messages: 2, latestId: 2 },
      'ml-research': { messages: 1, latestId: 4 },
    });
  });

  it('fails permanently on a message that does not exist there, so the outbox does not retry it', async () => {
    const { chat } = setup();
    const { ref } = await chat.post('llm-training', text('alert'));
    for (const attempt of [
      () => chat.update('llm-training', '999', text('x')),
      () => chat.reply('vision', ref, text('x')),
      () => chat.update('llm-training', 'ts-1', text('x')),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeliveryError);
      expect((error as DeliveryError).permanent).toBe(true);
    }
  });

  it('shows only the latest top-level messages of a long channel, with their threads', async () => {
    const { deps, chat } = setup();
    for (let i = 1; i <= 5; i++) {
      const { ref } = await chat.post('llm-training', text(`alert ${i}`));
      await chat.reply('llm-training', ref, text(`reply ${i}`));
    }
    const latest = await deps.store.console.list('llm-training', 'U0CAROL', 2);
    expect(latest.map((m) => m.message.summary)).toEqual(['alert 4', 'reply 4', 'alert 5', 'reply 5']);
  });
});
