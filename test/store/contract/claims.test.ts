import { expect, it } from 'vitest';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);

describeStores('claims', (store) => {
  it('takes a delivery once within its expiry, under any of its keys', async () => {
    const now = at('2026-11-03T10:00:00Z');
    expect(await store().claims.firstDelivery(['envelope:1', 'action:a'], now, 60_000)).toBe(true);
    expect(await store().claims.firstDelivery(['envelope:1'], now, 60_000)).toBe(false);
    expect(await store().claims.firstDelivery(['envelope:2', 'action:a'], now, 60_000)).toBe(false);
    expect(await store().claims.firstDelivery(['envelope:3'], now, 60_000)).toBe(true);
  });

  it('takes a delivery again once its claim expired, and one without keys always', async () => {
    expect(await store().claims.firstDelivery(['command:x'], at('2026-11-03T10:00:00Z'), 60_000)).toBe(true);
    expect(await store().claims.firstDelivery(['command:x'], at('2026-11-03T10:00:59Z'), 60_000)).toBe(false);
    expect(await store().claims.firstDelivery(['command:x'], at('2026-11-03T10:01:00Z'), 60_000)).toBe(true);
    expect(await store().claims.firstDelivery([], at('2026-11-03T10:01:00Z'), 60_000)).toBe(true);
    expect(await store().claims.firstDelivery([], at('2026-11-03T10:01:00Z'), 60_000)).toBe(true);
  });

  it('gives one concurrent claimant the delivery', async () => {
    const now = at('2026-11-03T10:00:00Z');
    const results = await Promise.all(Array.from({ length: 8 }, () => store().claims.firstDelivery(['action:same'], now, 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('runs a job occurrence once, whoever asks', async () => {
    const now = at('2026-11-03T08:00:02Z');
    const occurrence = at('2026-11-03T08:00:00Z');
    expect(await store().claims.jobOccurrence('budget check Europe/Berlin', occurrence, 'replica-a', now)).toBe(true);
    expect(await store().claims.jobOccurrence('budget check Europe/Berlin', occurrence, 'replica-b', now)).toBe(false);
    expect(await store().claims.jobOccurrence('budget check UTC', occurrence, 'replica-b', now)).toBe(true);
    expect(await store().claims.jobOccurrence('budget check Europe/Berlin', at('2026-11-04T08:00:00Z'), 'replica-b', now)).toBe(true);
  });
});

describeStores('acknowledgements', (store) => {
  it('keeps the first acknowledgement and says who was first', async () => {
    const first = await store().acknowledgements.acknowledge({ findingId: 'f1', byUser: 'U1', at: at('2026-11-03T10:00:00Z') });
    const second = await store().acknowledgements.acknowledge({ findingId: 'f1', byUser: 'U2', at: at('2026-11-03T10:05:00Z') });
    expect(first.first).toBe(true);
    expect(second).toEqual({ first: false, ack: { findingId: 'f1', byUser: 'U1', at: at('2026-11-03T10:00:00Z') } });
    expect(await store().acknowledgements.get('nope')).toBeNull();
  });
});
