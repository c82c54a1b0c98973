// One burnrate process's delivery in the soak: the real DeliveryLoop, sleeping on the simulated
// clock's timers instead of real ones, with its Retry-After gates shared by its passes. A crash
// stops it for good, mid-call: the pass in flight never settles and its lease runs out. A process
// may read a clock that runs ahead of the others' (`clockSkewMs`); the store's clock stays the shared one.
import pino from 'pino';
import type { ChatPort } from '../src/ports/chat-port.js';
import { configSchema } from '../src/config/schema.js';
import type { DeliveryOptions } from '../src/outbox/deliver-outbox.js';
import { DeliveryLoop, MIN_WAIT_MS } from '../src/outbox/delivery-loop.js';
import type { OutboxStore } from '../src/store/outbox-table.js';
import type { SimClock } from './soak-clock.js';

const silent = pino({ level: 'silent' });
const config = configSchema.parse({});

export interface ProcessCounters {
  passes: number;
  /** Passes that found nothing to do and then slept the shortest wait: the outbox said something was due. */
  idleShortWakes: number;
}

export class SoakDeliveryProcess {
  private loop: DeliveryLoop | null = null;
  dead = false;

  constructor(
    private readonly sim: SimClock,
    private readonly outbox: OutboxStore,
    private readonly port: (process: SoakDeliveryProcess) => ChatPort,
    private readonly options: DeliveryOptions,
    private readonly counters: ProcessCounters,
    private readonly clockSkewMs = 0,
  ) {}

  start(): void {
    let idle = false;
    const clock = () => new Date(this.sim.now + this.clockSkewMs);
    const deps = { store: { outbox: this.outbox }, chat: [this.port(this)], clock, log: silent, config };
    const onPass = (report: { sent: number; retried: number; failed: number }) => {
      this.counters.passes += 1;
      idle = report.sent + report.retried + report.failed === 0;
    };
    const timers = {
      set: (wake: () => void, ms: number) => {
        if (idle && ms === MIN_WAIT_MS) this.counters.idleShortWakes += 1;
        return this.sim.schedule(ms, wake);
      },
    };
    this.loop = new DeliveryLoop(deps, { ...this.options, onPass }, timers);
    this.loop.start();
  }

  /** Asks for a pass now. A dead process hears nothing. */
  wake(): void {
    if (!this.dead) void this.loop?.wake();
  }

  /** The process died: whatever it was doing never finishes; its leases run out. */
  crash(): void {
    this.dead = true;
    void this.loop?.stop();
  }
}
