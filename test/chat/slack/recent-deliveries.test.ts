import { describe, expect, it } from 'vitest';
import { RecentDeliveries } from '../../../src/chat/slack/recent-deliveries.js';
import { deliveryKeys } from '../../../src/chat/slack/redelivery.js';
import { blockActionsPayload, slashCommandPayload } from '../../support/slack-payloads.js';

describe('RecentDeliveries', () => {
  it('says a key is new once, then repeated until it expires', () => {
    let now = 1_000;
    const recent = new RecentDeliveries({ ttlMs: 600_000, max: 100, now: () => now });
    expect(recent.firstTime(['command:1'])).toBe(true);
    expect(recent.firstTime(['command:1'])).toBe(false);
    now += 599_999;
    expect(recent.firstTime(['command:1'])).toBe(false);
    now += 1;
    expect(recent.firstTime(['command:1'])).toBe(true);
  });

  it('treats a delivery as repeated when any one of its keys was seen, and remembers all of them', () => {
    const recent = new RecentDeliveries({ ttlMs: 1_000, max: 100, now: () => 0 });
    expect(recent.firstTime(['envelope:a', 'command:1'])).toBe(true);
    expect(recent.firstTime(['envelope:b', 'command:1'])).toBe(false); // same command, new envelope
    expect(recent.firstTime(['envelope:a'])).toBe(false);
    expect(recent.firstTime([])).toBe(true); // nothing to recognise it by
    expect(recent.firstTime([])).toBe(true);
  });

  it('stays bounded: past `max` keys the oldest are forgotten first, expired ones dropped as it goes', () => {
    let now = 0;
    const recent = new RecentDeliveries({ ttlMs: 1_000, max: 3, now: () => now });
    for (const key of ['k1', 'k2', 'k3', 'k4']) expect(recent.firstTime([key])).toBe(true);
    expect(recent.size).toBe(3);
    expect(recent.firstTime(['k4'])).toBe(false);
    expect(recent.firstTime(['k1'])).toBe(true); // forgotten early, so new again
    now = 5_000;
    expect(recent.firstTime(['k9'])).toBe(true);
    expect(recent.size).toBe(1);
  });
});

describe('deliveryKeys', () => {
  it('names a command by trigger_id, a click by trigger_id, action_ts, user and action, an envelope by its id', () => {
    const command = slashCommandPayload({ text: 'help', response_url: 'x' });
    expect(deliveryKeys(command, undefined)).toEqual([`command:${command.trigger_id}`]);
    const click = blockActionsPayload({ actionId: 'budget.ack', response_url: 'x', user_id: 'U1' });
    expect(deliveryKeys(click, 'E1')).toEqual(['envelope:E1', `action:${String(click.trigger_id)}:1700000100.000200:U1:budget.ack`]);
    expect(deliveryKeys({ type: 'event_callback', event: { type: 'app_home_opened' } }, undefined)).toEqual([]);
    expect(deliveryKeys(null, '')).toEqual([]);
  });
});
