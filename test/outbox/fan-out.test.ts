import { describe, expect, it } from 'vitest';
import type { TeamConfig } from '../../src/config/schema.js';
import type { ChatPort } from '../../src/ports/chat-port.js';
import { channelsOf, fanOut, fanOutInThread } from '../../src/outbox/fan-out.js';
import { testDeps } from '../support/deps.js';

/** A second platform where only some teams have a channel. */
const other: ChatPort = {
  platform: 'other',
  capabilities: { threads: true, ephemeral: false, modals: false, files: false, inlineImageBytes: null },
  addressOf: (team) => (team.id === 'ml' ? 'C-ML' : null),
  post: async () => ({ ref: null }),
  update: async () => {},
  reply: async () => ({ ref: null }),
};

const message = { summary: 'LLM Training passed 80% of its budget', blocks: [] };

function setup() {
  const t = testDeps({ teams: [{ id: 'ml', name: 'LLM Training' }, { id: 'vision' }] });
  t.deps.chat.push(other);
  const [ml, vision] = t.deps.config.teams as [TeamConfig, TeamConfig];
  return { ...t, ml, vision };
}

describe('fan-out of a message to every chat platform', () => {
  it('gives one copy per platform that has an address for the team, keyed by platform', () => {
    const { deps, ml, vision } = setup();
    expect(fanOut(deps.chat, ml, 'budget:ml:2026-11', message, 'group-1')).toEqual([
      { dedupeKey: 'budget:ml:2026-11:fake', target: 'fake:#ml', message, threadOf: 'group-1' },
      { dedupeKey: 'budget:ml:2026-11:other', target: 'other:C-ML', message, threadOf: 'group-1' },
    ]);
    // No channel on the second platform: no copy there, and no thread key when none is given.
    expect(fanOut(deps.chat, vision, 'sweep:vision', message)).toEqual([
      { dedupeKey: 'sweep:vision:fake', target: 'fake:#vision', message },
    ]);
  });

  it("stamps each copy with its team's time zone, for platforms that cannot show each reader's own", () => {
    const { deps, ml } = setup();
    ml.timezone = 'Europe/Berlin';
    const copies = fanOut(deps.chat, ml, 'budget:ml:2026-11', message);
    expect(copies.map((c) => c.message)).toEqual([
      { ...message, timeZone: 'Europe/Berlin' },
      { ...message, timeZone: 'Europe/Berlin' },
    ]);
  });

  it('sends to explicit channels as given', () => {
    const { deps } = setup();
    expect(fanOut(deps.chat, [{ platform: 'slack', target: 'slack:U0ADMIN' }], 'notice', message)).toEqual([
      { dedupeKey: 'notice:slack', target: 'slack:U0ADMIN', message },
    ]);
  });

  it('replies in a thread only on the platforms where its first message was queued', async () => {
    const { deps, ml } = setup();
    const [fake] = channelsOf(deps.chat, ml);
    await deps.store.outbox.enqueue(fanOut([fake!.port], ml, 'group-1:root', message, 'group-1'), deps.clock());
    const parts = [
      { op: 'reply' as const, message, suffix: 'reply' },
      { op: 'update' as const, message, suffix: 'update' },
    ];
    expect(await fanOutInThread(deps, ml, 'group-1', 'change', parts)).toEqual([
      { dedupeKey: 'change:fake:reply', target: 'fake:#ml', message, op: 'reply', parentKey: 'group-1:root:fake' },
      { dedupeKey: 'change:fake:update', target: 'fake:#ml', message, op: 'update', parentKey: 'group-1:root:fake' },
    ]);
    expect(await fanOutInThread(deps, ml, 'group-2', 'change', parts)).toEqual([]);
  });
});
