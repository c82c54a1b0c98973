import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/ports/chat-port.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { testDeps } from '../support/deps.js';

const message = { summary: 'hello', blocks: [] };

describe('outbox delivery', () => {
  it('waits as long as the platform asks after a throttle, then sends exactly once', async () => {
    const { deps, chat, setNow } = testDeps({});
    await deps.store.outbox.enqueue([{ dedupeKey: 'a', target: 'fake:#ml', message }], deps.clock());
    chat.failNext(new DeliveryError('ratelimited', false, 30_000));

    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 1, failed: 0 });
    setNow('2026-11-21T09:00:29Z');
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 }); // not due yet
    setNow('2026-11-21T09:00:30Z');
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(chat.posted).toHaveLength(1);
    chat.assertDone();
  });

  it('backs off exponentially on server errors and gives up on permanent ones', async () => {
    const { deps, chat, setNow } = testDeps({});
    await deps.store.outbox.enqueue(
      [
        { dedupeKey: 'a', target: 'fake:#ml', message },
        { dedupeKey: 'b', target: 'fake:#gone', message },
      ],
      deps.clock(),
    );
    chat.failNext(new DeliveryError('500 internal error'));
    chat.failNext(new DeliveryError('channel_not_found', true));
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 1, failed: 1 });
    chat.failNext(new DeliveryError('503'));
    setNow('2026-11-21T09:00:01Z');
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 1, failed: 0 });
    setNow('2026-11-21T09:00:02.5Z'); // second backoff is 2 s from 09:00:01
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 0, retried: 0, failed: 0 });
    setNow('2026-11-21T09:00:03Z');
    expect(await deliverOutbox(deps, { baseDelayMs: 1_000 })).toEqual({ sent: 1, retried: 0, failed: 0 });
    chat.assertDone();
  });

  it('leaves items for a platform that is not running where they are', async () => {
    const { deps, chat } = testDeps({});
    await deps.store.outbox.enqueue([{ dedupeKey: 'a', target: 'slack:C1', message }], deps.clock());
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await deps.store.outbox.due(deps.clock())).toHaveLength(1);
    expect(chat.posted).toEqual([]);
  });
});
