import { describe, expect, it } from 'vitest';
import { runSoak, soakFailures } from '../../bench/delivery-soak.js';

// A small delivery soak: 3 simulated days, 5 teams, the real outbox and deliverOutbox against a
// platform that has outages, throttles, lost answers, slow answers and crashing processes.
describe('delivery under faults (soak)', () => {
  it('loses nothing and posts nothing twice where it can look for a post in doubt', async () => {
    const r = await runSoak({ days: 3, teams: 5, seed: 1, findPosted: true });

    expect(r.due).toBeGreaterThan(40);
    // The faults did bite: posts in doubt after lost answers and crashes, outages, slow answers.
    expect(r.hits.lost).toBeGreaterThan(0);
    expect(r.hits.crash).toBeGreaterThan(0);
    expect(r.hits.outage).toBeGreaterThan(0);
    expect(r.hits.slow).toBeGreaterThan(0);
    expect(r.lost).toBe(0);
    expect(r.posted).toBe(r.due);
    expect(r.doubled).toBe(0);
    expect(r.failed).toBe(0);
    expect(soakFailures(r)).toEqual([]);
  });

  it('counts every double as a suspected duplicate where it cannot look', async () => {
    const r = await runSoak({ days: 3, teams: 5, seed: 1, findPosted: false });

    expect(r.lost).toBe(0);
    expect(r.posted).toBe(r.due);
    // Without a look, lost answers and crashes after the post do double: the outbox must say so.
    expect(r.doubled).toBeGreaterThan(0);
    expect(r.doubled).toBeLessThanOrEqual(r.suspectedDuplicates);
    expect(soakFailures(r)).toEqual([]);
  });

  it('doubles nothing where a replica reads a clock 150 s ahead of the database (leases and first attempts on the database clock)', async () => {
    // Ten days: enough outages and lost answers that a look-back timed on the replica's clock
    // missed posts (11 doubles, none counted, over ten days of 40 teams before the fix).
    const r = await runSoak({ days: 10, teams: 20, seed: 1, findPosted: true, clockSkewMs: 150_000 });

    expect(r.hits.lost + r.hits.crash).toBeGreaterThan(0);
    expect(r.lost).toBe(0);
    expect(r.posted).toBe(r.due);
    expect(r.doubled).toBe(0);
    expect(soakFailures(r)).toEqual([]);
  }, 60_000);

  it('counts every double made by stalls longer than the lease, between claim and post, with a replica ahead', async () => {
    const r = await runSoak({ days: 3, teams: 5, seed: 1, findPosted: true, clockSkewMs: 150_000, stallMeanGapMs: 4 * 3_600_000 });

    // Both kinds of stall held a process: after its claim (it must then post nothing taken over) and
    // after its last lease check (its post cannot be stopped, so it must be counted).
    expect(r.stalls['after-claim']).toBeGreaterThan(0);
    expect(r.stalls['after-lease-check']).toBeGreaterThan(0);
    expect(r.lost).toBe(0);
    expect(r.posted).toBe(r.due);
    expect(r.doubled).toBeGreaterThan(0);
    expect(r.doubled).toBeLessThanOrEqual(r.suspectedDuplicates);
    expect(soakFailures(r)).toEqual([]);
  }, 60_000);

  it('reports a soak that broke its promises', () => {
    const broken = { findPosted: true, lost: 2, doubled: 3, suspectedDuplicates: 1 } as Parameters<typeof soakFailures>[0];
    expect(soakFailures(broken)).toEqual([
      'with findPosted: 2 alert(s) due were never posted',
      'with findPosted: 3 alert(s) posted twice, only 1 counted as suspected duplicates',
    ]);
  });
});
