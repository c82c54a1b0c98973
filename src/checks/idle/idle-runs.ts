// The bookkeeping half of idle detection. The scan (detect-idle.ts) classifies each sample into a
// small bit set and calls `enter` only when the set changes, which on real series is a few times a
// day; everything here is therefore off the per-sample path.

export type IdleKind = 'idle' | 'stalled' | 'unknown';

export interface IdleInterval {
  kind: IdleKind;
  /** Seconds since the epoch; start inclusive, end exclusive. */
  start: number;
  end: number;
  /** Seconds of the interval without utilisation data, counted in by the `missing: 'idle'` policy. */
  missingSeconds: number;
  /** Still going when the data ended: the GPU is in this state now, as far as anyone knows. */
  open: boolean;
}

/** The sample is idle (under the utilisation threshold, confirmed by power where policy and data allow). */
export const IDLE = 1;
/** The sample is part of a stall: memory held, utilisation near zero. */
export const STALLED = 2;
/** No data, reported as unknown (policy `missing: 'unknown'`). */
export const UNKNOWN = 4;
/** No data, whatever the policy makes of it. */
export const NO_DATA = 8;

/**
 * Open runs of each kind while a series is walked. A run that ends is kept when it lasted its
 * minimum; unknown runs are always kept, so gaps are visible rather than silently dropped.
 */
export class IdleRuns {
  readonly intervals: IdleInterval[] = [];
  private state = 0;
  private idleStart = 0;
  private idleMissing = 0;
  private stalledStart = 0;
  private stalledMissing = 0;
  private unknownStart = 0;
  private noDataFrom = 0;
  private finishing = false;

  constructor(
    private readonly minIdleSeconds: number,
    private readonly minStalledSeconds: number,
  ) {}

  /** From `at` on, the series is in `next` (a set of the flags above). */
  enter(next: number, at: number): void {
    const current = this.state;
    if (current === next) return;
    if (current & NO_DATA) {
      const gap = at - this.noDataFrom;
      if (current & IDLE) this.idleMissing += gap;
      if (current & STALLED) this.stalledMissing += gap;
    }
    if (next & NO_DATA) this.noDataFrom = at;

    const ended = current & ~next;
    if (ended & IDLE) this.keep('idle', this.idleStart, at, this.idleMissing, this.minIdleSeconds);
    if (ended & STALLED) this.keep('stalled', this.stalledStart, at, this.stalledMissing, this.minStalledSeconds);
    if (ended & UNKNOWN) this.keep('unknown', this.unknownStart, at, at - this.unknownStart, 0);

    const started = next & ~current;
    if (started & IDLE) [this.idleStart, this.idleMissing] = [at, 0];
    if (started & STALLED) [this.stalledStart, this.stalledMissing] = [at, 0];
    if (started & UNKNOWN) this.unknownStart = at;
    this.state = next;
  }

  /** Closes every run still open at `at`, the end of the data, and returns the intervals in the order they ended. */
  finish(at: number): IdleInterval[] {
    this.finishing = true;
    this.enter(0, at);
    return this.intervals;
  }

  private keep(kind: IdleKind, start: number, end: number, missingSeconds: number, minSeconds: number): void {
    if (end > start && end - start >= minSeconds) this.intervals.push({ kind, start, end, missingSeconds, open: this.finishing });
  }
}
