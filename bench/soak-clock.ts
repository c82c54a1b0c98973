// A discrete-event clock for the delivery soak: simulated time jumps from one timer to the next, so
// 30 days pass in seconds. Everything the soak runs (checks, delivery passes, slow platform answers)
// waits on this clock's timers; the store and the delivery read `now` through `clock()`.

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
  cancelled: boolean;
}

export interface SimTimer {
  cancel(): void;
}

export class SimClock {
  private current: number;
  private seq = 0;
  /** Pending timers, kept sorted by (at, seq): there are only a handful at a time. */
  private readonly timers: Timer[] = [];
  /** Timers fired so far: the number of simulated events. */
  events = 0;

  constructor(start: Date) {
    this.current = start.getTime();
  }

  get now(): number {
    return this.current;
  }

  /** The clock as Deps takes it. */
  readonly clock = (): Date => new Date(this.current);

  /** Calls `fire` once simulated time reaches `now + ms`. */
  schedule(ms: number, fire: () => void): SimTimer {
    const timer: Timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fire, cancelled: false };
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1]!.at > timer.at) i--;
    this.timers.splice(i, 0, timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.schedule(ms, resolve));
  }

  /**
   * Fires timers in order until none is left before `until` or `done()` says so. After each one,
   * whatever it set going runs until it waits again: the store is synchronous underneath, so its
   * promises settle within one turn of the event loop.
   */
  async run(until: number, done: () => boolean = () => false): Promise<void> {
    for (;;) {
      const timer = this.timers[0];
      if (!timer || timer.at > until || done()) break;
      this.timers.shift();
      if (timer.cancelled) continue;
      this.current = Math.max(this.current, timer.at);
      this.events += 1;
      timer.fire();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (!done()) this.current = Math.max(this.current, until);
  }
}
