// Stalls of a delivery process in the soak: a GC pause, a frozen VM or a slow database that holds a
// process still, longer than its lease, between claiming an item and posting it. Two places:
//   - after the claim, before the lease is checked: the item is taken over meanwhile, and the stalled
//     process must post nothing (the lease check right before the post says so);
//   - after the last lease check, while the post is on its way: nothing can stop that post, so the
//     double it makes must be counted as a suspected duplicate.
// Seeded like the platform's faults, so every run of a seed sees the same stalls.
import type { Random } from '../src/providers/demo/random.js';
import type { OutboxStore } from '../src/store/outbox-table.js';
import type { SimClock } from './soak-clock.js';

export type StallPoint = 'after-claim' | 'after-lease-check';

export interface Stall {
  /** Simulated epoch ms: the first claim (or lease check) from then on stalls. */
  at: number;
  point: StallPoint;
  durationMs: number;
}

export interface StallPlanOptions {
  start: number;
  end: number;
  /** Mean time between two stalls (exponential gaps). */
  meanGapMs: number;
  /** The outbox lease: every stall is longer, by 10 s to 3 min. */
  leaseMs: number;
}

export function planStalls(random: Random, options: StallPlanOptions): Stall[] {
  const stalls: Stall[] = [];
  for (let at = options.start + gap(random, options.meanGapMs); at < options.end; at += gap(random, options.meanGapMs))
    stalls.push({
      at: Math.round(at),
      point: random.chance(0.5) ? 'after-claim' : 'after-lease-check',
      durationMs: options.leaseMs + random.int(10, 180) * 1000,
    });
  return stalls;
}

function gap(random: Random, mean: number): number {
  return -Math.log(1 - random.next()) * mean;
}

/** Plays a stall plan against whichever process reaches the stall's point first after its time. */
export class StallPlayer {
  private readonly due: Record<StallPoint, Stall[]>;
  /** Stalls that held a process, by point. */
  readonly hits: Record<StallPoint, number> = { 'after-claim': 0, 'after-lease-check': 0 };

  constructor(plan: readonly Stall[]) {
    this.due = {
      'after-claim': plan.filter((s) => s.point === 'after-claim'),
      'after-lease-check': plan.filter((s) => s.point === 'after-lease-check'),
    };
  }

  /** How long a process reaching `point` at `now` stalls (0: not at all). Each stall holds one process once. */
  take(point: StallPoint, now: number): number {
    const next = this.due[point][0];
    if (!next || next.at > now) return 0;
    this.due[point].shift();
    this.hits[point] += 1;
    return next.durationMs;
  }
}

/**
 * One process's view of the shared outbox, pausing (on the simulated clock) where the plan says:
 * after a claim that got an item, and after a lease check that found the lease still its own.
 */
export function stallingOutbox(outbox: OutboxStore, sim: SimClock, stalls: StallPlayer): OutboxStore {
  const stalling: OutboxStore = Object.create(outbox);
  stalling.claimNext = async (...args) => {
    const item = await outbox.claimNext(...args);
    const ms = item ? stalls.take('after-claim', sim.now) : 0;
    if (ms > 0) await sim.sleep(ms);
    return item;
  };
  stalling.renewLease = async (...args) => {
    const held = await outbox.renewLease(...args);
    const ms = held ? stalls.take('after-lease-check', sim.now) : 0;
    if (ms > 0) await sim.sleep(ms);
    return held;
  };
  return stalling;
}
