import { deliveryTimings } from '../config/delivery-schema.js';
import type { Config } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { Store } from '../store/store.js';
import { deliverOutbox, type DeliveryOptions, type DeliveryReport, type ThrottleGates } from './deliver-outbox.js';
import { deliveryFailureNotices } from './delivery-failure-notice.js';

/** Hands what a job queued to the process's delivery; a one-off command (no loop) delivers in place. */
export async function handOverAlerts(deps: Deps): Promise<void> {
  if (deps.delivery) await deps.delivery.wake();
  else await deliverOutbox(deps, deliverySettings(deps));
}

/** burnrate.yml's delivery timings, and the admins told of an alert that failed for good. */
function deliverySettings(deps: LoopDeps): DeliveryOptions {
  return {
    ...deliveryTimings(deps.config.delivery),
    onFailed: async (item, error) => {
      // Queued, not sent here: the pass that failed the alert goes on and takes the notices too.
      await deps.store.outbox.enqueue(deliveryFailureNotices(deps, item, error), deps.clock());
    },
  };
}

/** The loop looks at the outbox at least this often, and never sooner than MIN_WAIT_MS after a pass. */
export const TICK_MS = 60_000;
export const MIN_WAIT_MS = 250;

/** Where the loop sleeps: real timers, or a simulated clock's (the delivery soak runs a month in seconds). */
export interface LoopTimers {
  set(wake: () => void, ms: number): { cancel(): void };
}

const REAL_TIMERS: LoopTimers = {
  set(wake, ms) {
    const timer = setTimeout(wake, ms);
    timer.unref(); // a sleeping delivery never keeps the process alive
    return { cancel: () => clearTimeout(timer) };
  },
};

type LoopDeps = Pick<Deps, 'chat' | 'clock' | 'log'> & { store: Pick<Store, 'outbox'>; config: Pick<Config, 'delivery' | 'admins'> };

export interface LoopOptions extends DeliveryOptions {
  /** Told of each pass, after it settled. */
  onPass?(report: DeliveryReport): void;
}

/**
 * The one delivery of a process. Jobs queue their alerts and call `wake()`; they never deliver
 * themselves, so two passes of one process never overlap (and the leases keep passes of other
 * processes apart). Between wakes it sleeps until the next item falls due (a backoff or a
 * Retry-After ending), or a minute at most. A failing pass is logged; the loop goes on.
 */
export class DeliveryLoop {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: { cancel(): void } | null = null;
  private readonly gates: ThrottleGates = new Map();
  /** Totals since start, for /metrics. */
  readonly totals: DeliveryReport = { sent: 0, retried: 0, failed: 0 };

  constructor(
    private readonly deps: LoopDeps,
    private readonly options: LoopOptions = {},
    private readonly timers: LoopTimers = REAL_TIMERS,
  ) {}

  /** Starts the timer; the first pass runs at once. */
  start(): void {
    void this.wake();
  }

  /**
   * Asks for a pass now. While one runs, one more follows it (what was queued meanwhile goes
   * then). Resolves when the outbox has been gone through; never rejects.
   */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.timer?.cancel();
    this.timer = null;
    this.running = this.run().finally(() => {
      this.running = null;
      this.arm();
    });
    return this.running;
  }

  /** Waits for the pass in flight, and runs no more. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
    await this.running;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        const { onPass, ...options } = this.options;
        const report = await deliverOutbox(this.deps, { ...deliverySettings(this.deps), ...options, gates: this.gates });
        onPass?.(report);
        this.totals.sent += report.sent;
        this.totals.retried += report.retried;
        this.totals.failed += report.failed;
      } catch (error) {
        this.deps.log.error({ err: (error as Error).message }, 'outbox delivery pass failed; the next pass retries');
      }
    } while (this.again && !this.stopped);
  }

  /** Sleeps until the next item is due (by the outbox's own times), a tick at the most. */
  private arm(): void {
    if (this.stopped) return;
    void this.deps.store.outbox
      .nextAttemptAt(this.deps.chat.map((p) => p.platform))
      .catch(() => null)
      .then((next) => {
        if (this.stopped || this.running || this.timer) return;
        const wait = next ? Math.min(TICK_MS, Math.max(MIN_WAIT_MS, next.getTime() - this.deps.clock().getTime())) : TICK_MS;
        this.timer = this.timers.set(() => {
          this.timer = null;
          void this.wake();
        }, wait);
      });
  }
}
