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

  it('reports a soak that broke its promises', () => {
    const broken = { findPosted: true, lost: 2, doubled: 3, suspectedDuplicates: 1 } as Parameters<typeof soakFailures>[0];
    expect(soakFailures(broken)).toEqual([
      'with findPosted: 2 alert(s) due were never posted',
      'with findPosted: 3 alert(s) posted twice, only 1 counted as suspected duplicates',
    ]);
  });
});
