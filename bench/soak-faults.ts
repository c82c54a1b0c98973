// What goes wrong on the simulated chat platform, and when: one fault every few hours on average,
// drawn from a seeded generator so that every run of a seed sees the same month.
import type { Random } from '../src/providers/demo/random.js';

export type FaultKind = 'outage' | 'throttle' | 'lost' | 'slow' | 'crash';
export const FAULT_KINDS: readonly FaultKind[] = ['outage', 'throttle', 'lost', 'slow', 'crash'];

export interface Fault {
  kind: FaultKind;
  /** Simulated epoch ms. */
  at: number;
  /** Windows (outage, throttle, slow): how long the platform misbehaves. */
  durationMs: number;
  /** lost and crash: how many calls from `at` on it hits. */
  calls: number;
}

export interface FaultPlanOptions {
  start: number;
  end: number;
  /** Mean time between two faults (exponential gaps). */
  meanGapMs: number;
}

export interface FaultPlayOptions {
  /** The slowest answer in a slow spell. */
  slowAnswerMaxMs: number;
}

const MINUTE = 60_000;

/** The month's faults in time order: outages of 5–60 min, throttles, lost answers, slow answers, crashes. */
export function planFaults(random: Random, options: FaultPlanOptions): Fault[] {
  const faults: Fault[] = [];
  for (let at = options.start + gap(random, options.meanGapMs); at < options.end; at += gap(random, options.meanGapMs)) {
    const kind = random.pick(FAULT_KINDS);
    const durationMs =
      kind === 'outage'
        ? random.int(5, 60) * MINUTE
        : kind === 'throttle'
          ? random.int(2, 20) * MINUTE
          : kind === 'slow'
            ? random.int(10, 40) * MINUTE
            : 0;
    faults.push({ kind, at: Math.round(at), durationMs, calls: kind === 'lost' ? random.int(1, 3) : kind === 'crash' ? 1 : 0 });
  }
  return faults;
}

function gap(random: Random, mean: number): number {
  return -Math.log(1 - random.next()) * mean;
}

/** What the platform does with one call at one moment. */
export type CallFate =
  | { kind: 'ok'; answerAfterMs: number }
  /** 503 or a refused connection; `recorded`: the platform took the post before failing. */
  | { kind: 'down'; refused: boolean; recorded: boolean }
  | { kind: 'throttled'; retryAfterMs: number }
  /** The platform records the post, the answer never arrives. */
  | { kind: 'lost' }
  /** The calling process dies; `recorded`: after the post went out. */
  | { kind: 'crash'; recorded: boolean };

/**
 * Plays a fault plan against the calls as they come: windows apply to every call inside them;
 * lost answers and crashes hit the next posting call(s) after their time.
 */
export class FaultPlayer {
  private next = 0;
  private readonly windows: Fault[] = [];
  private readonly pendingHits: Fault[] = [];
  /** Faults that changed a call's fate, by kind. */
  readonly hits: Record<FaultKind, number> = { outage: 0, throttle: 0, lost: 0, slow: 0, crash: 0 };

  constructor(
    private readonly plan: readonly Fault[],
    private readonly random: Random,
    private readonly options: FaultPlayOptions,
  ) {}

  /** The fate of a call made at `now`; `posting` is false for a look-up (findPosted). */
  fate(now: number, posting: boolean): CallFate {
    while (this.next < this.plan.length && this.plan[this.next]!.at <= now) {
      const fault = this.plan[this.next++]!;
      if (fault.durationMs > 0) this.windows.push(fault);
      else for (let i = 0; i < fault.calls; i++) this.pendingHits.push(fault);
    }
    for (let i = this.windows.length - 1; i >= 0; i--)
      if (this.windows[i]!.at + this.windows[i]!.durationMs <= now) this.windows.splice(i, 1);
    const open = (kind: FaultKind) => this.windows.some((w) => w.kind === kind);
    if (open('outage')) {
      this.hits.outage += 1;
      const refused = this.random.chance(0.3);
      return { kind: 'down', refused, recorded: posting && !refused && this.random.chance(0.1) };
    }
    if (posting && open('throttle')) {
      this.hits.throttle += 1;
      return { kind: 'throttled', retryAfterMs: this.random.int(1, 60) * 1000 };
    }
    if (posting && this.pendingHits.length > 0) {
      const fault = this.pendingHits.shift()!;
      this.hits[fault.kind] += 1;
      return fault.kind === 'lost' ? { kind: 'lost' } : { kind: 'crash', recorded: this.random.chance(0.7) };
    }
    if (open('slow')) {
      this.hits.slow += 1;
      return { kind: 'ok', answerAfterMs: this.random.between(5_000, Math.max(5_000, this.options.slowAnswerMaxMs)) };
    }
    return { kind: 'ok', answerAfterMs: 0 };
  }
}
