import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CoresHeldElsewhere, type CoreReading } from '../../../../src/chat/slack/answer/cores-held-elsewhere.js';

/** What two readings 500 ms apart on 2 cores say: running totals in ms, as the system would give them. */
function judged(first: Omit<CoreReading, 'at'>, second: Omit<CoreReading, 'at'>): boolean {
  const readings = [first, second];
  const held = new CoresHeldElsewhere(2, () => readings.shift()!);
  held.look([42], 0);
  expect(held.now()).toBe(false); // one reading says nothing yet
  held.look([42], 500);
  return held.now();
}

describe('CoresHeldElsewhere: whether answers wait for cores other work holds', () => {
  it('says so when the answer thread waited for a core most of the window while burnrate used little', () => {
    // The worker waited 400 of 500 ms on the run queue; burnrate used 150 ms of CPU (15% of two cores).
    expect(judged({ processCpuMs: 1_000, threadsWaitMs: 100 }, { processCpuMs: 1_150, threadsWaitMs: 500 })).toBe(true);
  });

  it('does not when burnrate itself uses the cores: its own CPU is the limit', () => {
    // The worker waited as long, but burnrate used 800 of 1,000 ms of two cores' time (80%).
    expect(judged({ processCpuMs: 1_000, threadsWaitMs: 100 }, { processCpuMs: 1_800, threadsWaitMs: 500 })).toBe(false);
  });

  it('does not when the worker is not waiting for a core (stuck on a lock, or on Slack)', () => {
    expect(judged({ processCpuMs: 1_000, threadsWaitMs: 100 }, { processCpuMs: 1_010, threadsWaitMs: 105 })).toBe(false);
  });

  it('reads at most once per window, forgets a reading that is too old, and says no where the system cannot say', () => {
    let reads = 0;
    const held = new CoresHeldElsewhere(2, () => ({ processCpuMs: 0, threadsWaitMs: 400 * reads++ }));
    held.look([1], 0);
    held.look([1], 100); // within the window: no reading
    expect(reads).toBe(1);
    held.look([1], 500);
    expect(held.now()).toBe(true);
    held.look([1], 5_000); // four and a half seconds later: nothing to compare with
    expect(held.now()).toBe(false);
    const blind = new CoresHeldElsewhere(2, () => ({ processCpuMs: 0, threadsWaitMs: null }));
    blind.look([1], 0);
    blind.look([1], 500);
    expect(blind.now()).toBe(false);
  });

  it.runIf(process.platform === 'linux')('reads this thread from /proc on Linux', () => {
    const tid = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]);
    const held = new CoresHeldElsewhere(2);
    held.look([tid], 0);
    held.look([tid], 300);
    // Whatever the machine does meanwhile, a reading was made and compared without throwing.
    expect(typeof held.now()).toBe('boolean');
  });
});
