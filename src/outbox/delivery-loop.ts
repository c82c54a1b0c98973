import { deliveryTimings } from '../config/delivery-schema.js';
import type { Config } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { Store } from '../store/store.js';
import { deliverOutbox, type DeliveryOptions, type DeliveryReport, type ThrottleGates } from './deliver-outbox.js';
import { deliveryFailureNotices } from './delivery-failure-notice.js';

/**
 * Hands what a job queued to the process's delivery; a one-off command (no loop) delivers in place.
 * With a loop it only wakes it: a scheduled job (or serve's start) never waits for a backlog to
 * drain, so node-cron never sees it still running and skips its next runs, and serve is ready
 * while a slow platform takes the backlog.
 */
export async function handOverAlerts(deps: Deps): Promise<void> {
  if (deps.delivery) void deps.delivery.wake();
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
/** After a failed pass (the database full or gone) the next waits 1 s, doubling per failure to TICK_MS. */
export const FAILED_PASS_WAIT_MS = 1_000;
/** This many failed passes in a row and the process is not ready (/readyz says why). */
export const FAILED_PASSES_NOT_READY = 3;
/** An alert due this long, with no alert settled meanwhile, and the process is not ready. */
export const STALLED_AFTER_MS = 10 * 60_000;

/** Whether delivery makes progress, for /readyz: `reason` says why not. */
export interface DeliveryHealth {
  ok: boolean;
  reason?: string;
  failedPassesInRow: number;
  lastPassError?: string;
}

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
  private failedPassesInRow = 0;
  private lastPassError: string | undefined;
  /** When the last item was settled (sent, retried or failed), or the loop started. */
  private lastProgressAt: Date | null = null;

  constructor(
    private readonly deps: LoopDeps,
    private readonly options: LoopOptions = {},
    private readonly timers: LoopTimers = REAL_TIMERS,
  ) {}

  /** Starts the timer; the first pass runs at once. */
  start(): void {
    this.lastProgressAt = this.deps.clock();
    void this.wake();
  }

  /**
   * Not healthy when the last FAILED_PASSES_NOT_READY passes failed (a full disk, a database gone),
   * or when an item has been due for STALLED_AFTER_MS while no item was settled (a pass stuck). A
   * platform that keeps failing is not this: its items are attempted and wait their backoff.
   */
  async health(): Promise<DeliveryHealth> {
    const passes = { failedPassesInRow: this.failedPassesInRow, ...(this.lastPassError ? { lastPassError: this.lastPassError } : {}) };
    if (this.failedPassesInRow >= FAILED_PASSES_NOT_READY)
      return { ok: false, reason: `the last ${this.failedPassesInRow} delivery passes failed: ${this.lastPassError}`, ...passes };
    const now = this.deps.clock().getTime();
    const next = await this.deps.store.outbox.nextAttemptAt(
      this.deps.chat.map((p) => p.platform),
      new Date(now),
    );
    const progress = this.lastProgressAt?.getTime() ?? now;
    if (next && now - next.getTime() > STALLED_AFTER_MS && now - progress > STALLED_AFTER_MS)
      return {
        ok: false,
        reason: `an alert due since ${next.toISOString()} has not been attempted and nothing was delivered for ${Math.round((now - progress) / 60_000)} min`,
        ...passes,
      };
    return { ok: true, ...passes };
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

  /** Waits for the item in flight (not the whole pass: a backlog waits in the outbox), and runs no more. */
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
        const report = await deliverOutbox(this.deps, {
          ...deliverySettings(this.deps),
          ...options,
          gates: this.gates,
          stopping: () => this.stopped,
        });
        onPass?.(report);
        this.totals.sent += report.sent;
        this.totals.retried += report.retried;
        this.totals.failed += report.failed;
        this.failedPassesInRow = 0;
        this.lastPassError = undefined;
        if (report.sent + report.retried + report.failed > 0) this.lastProgressAt = this.deps.clock();
      } catch (error) {
        this.failedPassesInRow += 1;
        this.lastPassError = (error as Error).message;
        this.deps.log.error(
          { err: this.lastPassError, failedPassesInRow: this.failedPassesInRow },
          'outbox delivery pass failed; the next pass retries',
        );
        // A pass that fails will fail again at once (a full disk): back off instead of spinning.
        break;
      }
    } while (this.again && !this.stopped);
  }

  /**
   * Sleeps until the next item is due (by the outbox's own times), a tick at the most; after failed
   * passes, FAILED_PASS_WAIT_MS doubled per failure at the least.
   */
  private arm(): void {
    if (this.stopped) return;
    if (this.failedPassesInRow > 0) {
      const wait = Math.min(TICK_MS, FAILED_PASS_WAIT_MS * 2 ** Math.min(this.failedPassesInRow - 1, 16));
      this.timer = this.timers.set(() => {
        this.timer = null;
        void this.wake();
      }, wait);
      return;
    }
    void this.deps.store.outbox
      .nextAttemptAt(
        this.deps.chat.map((p) => p.platform),
        this.deps.clock(),
      )
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
