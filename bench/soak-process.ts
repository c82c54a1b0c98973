// One burnrate process's delivery in the soak. DeliveryLoop sleeps on real timers, so it cannot run
// 30 simulated days in seconds; this runs the real deliverOutbox on the loop's schedule instead,
// on the simulated clock: a pass on wake (one more if woken during a pass), else when the next item
// falls due by the outbox's own times (250 ms at the soonest, a minute at the latest), with
// Retry-After gates shared by the passes of one process. A crash stops it for good, mid-call.
import pino from 'pino';
import type { ChatPort } from '../src/chat/chat-port.js';
import { deliverOutbox, type DeliveryOptions, type ThrottleGates } from '../src/jobs/deliver-outbox.js';
import type { OutboxStore } from '../src/store/store.js';
import type { SimClock, SimTimer } from './soak-clock.js';

/** DeliveryLoop's limits (src/jobs/delivery-loop.ts). */
const TICK_MS = 60_000;
const MIN_WAIT_MS = 250;
const silent = pino({ level: 'silent' });

export interface ProcessCounters {
  passes: number;
  /** Passes that found nothing to do and then slept the shortest wait: the outbox said something was due. */
  idleShortWakes: number;
}

export class SoakDeliveryProcess {
  private readonly gates: ThrottleGates = new Map();
  private running = false;
  private again = false;
  private sleeping: { timer: SimTimer; resolve: () => void } | null = null;
  dead = false;

  constructor(
    private readonly sim: SimClock,
    private readonly outbox: OutboxStore,
    private readonly port: (process: SoakDeliveryProcess) => ChatPort,
    private readonly options: DeliveryOptions,
    private readonly counters: ProcessCounters,
  ) {}

  start(): void {
    void this.loop(this.port(this));
  }

  /** Asks for a pass now, like DeliveryLoop.wake. A dead process hears nothing. */
  wake(): void {
    if (this.dead) return;
    if (this.running) this.again = true;
    else if (this.sleeping) {
      this.sleeping.timer.cancel();
      this.sleeping.resolve();
    }
  }

  /** The process died: whatever it was doing never finishes; its leases run out. */
  crash(): void {
    this.dead = true;
  }

  private async loop(port: ChatPort): Promise<void> {
    const deps = { store: { outbox: this.outbox }, chat: [port], clock: this.sim.clock, log: silent };
    while (!this.dead) {
      this.running = true;
      let busy = false;
      do {
        this.again = false;
        this.counters.passes += 1;
        const report = await deliverOutbox(deps, { ...this.options, gates: this.gates });
        busy ||= report.sent + report.retried + report.failed > 0;
      } while (this.again && !this.dead);
      this.running = false;
      if (this.dead) return;
      const next = await this.outbox.nextAttemptAt([port.platform]);
      const wait = next ? Math.min(TICK_MS, Math.max(MIN_WAIT_MS, next.getTime() - this.sim.now)) : TICK_MS;
      if (!busy && wait === MIN_WAIT_MS) this.counters.idleShortWakes += 1;
      await new Promise<void>((resolve) => {
        this.sleeping = { timer: this.sim.schedule(wait, resolve), resolve };
      });
      this.sleeping = null;
    }
  }
}
