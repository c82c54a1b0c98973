import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { internalErrorMessage } from '../../../../templates/private-reply.js';
import type { Config } from '../../../config/schema.js';
import type { Reply } from '../../../ports/interaction.js';
import { DRAIN_TIMEOUT_MS, type Answerer, type CommandRequest } from './answerer.js';
import type { Actor } from '../../../ports/interaction.js';
import type { AppliedBudgetChange } from '../../../domain/budget-change.js';
import { CoresHeldElsewhere } from './cores-held-elsewhere.js';
import { settleWithin } from './settle-within.js';
import type { AnswerWorkerData, FromWorker, ToWorker } from './worker-protocol.js';

/** The compiled worker entry next to this file. */
export const ANSWER_WORKER_SCRIPT = new URL('../../../answer-worker.js', import.meta.url);

/** A worker that dies this many times in a row before it is ready is not coming back: answer in process. */
const MAX_START_FAILURES = 3;

/**
 * Answers one worker works on at once. An answer computes in a millisecond or two and then waits
 * for Slack to take its POST, a round trip to Slack from wherever burnrate runs: a worker keeps
 * this many going so that the round trip does not set its pace (32 per 100 ms round trip is 320
 * answers a second). Acks can outrun answers (that is the point), and without a cap a burst would
 * start a POST per queued answer at once: thousands of sockets, connect timeouts. Beyond the cap
 * answers wait here, in order, and a replacement worker picks them up after a crash.
 */
const ANSWERS_PER_WORKER = 32;

/**
 * When answers fall this far behind, new commands are turned away. In Slack a person sees nothing
 * until the answer arrives, and after a few seconds of nothing types the command again, which only
 * adds to the pile: past these limits "busy, try again" at once (in the acknowledgement) is the
 * better answer, and what was taken is still answered in time. Both limits count answers, never
 * time waited: on a machine busy with other work every answer takes longer, and a clock-based
 * rule would turn real commands away there while the pool keeps up. Answers taken and not yet
 * delivered, per worker (a flood of quick ones: at 1-3 ms an answer, under a second of work), and
 * answers no worker has taken yet, per worker (every worker already has ANSWERS_PER_WORKER going:
 * slow ones, or a worker stuck on a lock). One slow answer on a worker does not count: the worker
 * goes on with the others meanwhile. The second limit is set aside while other work holds the
 * cores (CoresHeldElsewhere): answers then queue up to the first, which always holds.
 */
export const ANSWER_LIMITS = { waitingPerWorker: 256, queuedPerWorker: ANSWERS_PER_WORKER };

export interface WorkerAnswererOptions {
  size: number;
  config: Config;
  dbPath: string | null;
  /** The environment the workers see (log level, Slack settings), as the main thread was given it. */
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Answers in process when the workers cannot start at all. */
  fallback: Answerer;
  script?: URL;
  /** ANSWER_LIMITS unless given. */
  limits?: Partial<typeof ANSWER_LIMITS>;
  /** Whether other work holds the cores (the answer threads' run-queue wait, burnrate's CPU) unless given. */
  coresHeld?: CoresHeldElsewhere;
  /** The role groups as the main thread's directories say now, sent with each request. */
  groups?: () => Record<string, readonly string[]>;
  /** A budget a worker's command changed: announced by the main thread. */
  budgetChanged?: (actor: Actor, change: AppliedBudgetChange) => Promise<void>;
}

interface Pending {
  id: number;
  request: CommandRequest;
  reply: Reply;
  resolve: () => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The worker's operating-system thread, whose priority it lowered (null: it could not). */
  osThreadId: number | null;
  pending: Map<number, Pending>;
}

/**
 * A small pool of answer workers (node:worker_threads). The main thread only acknowledges and
 * hands the command over; the worker runs the dispatcher, renders and POSTs the answer itself.
 * A worker that dies is replaced, and each answer it had in flight gets the short apology from
 * here, so nobody is left waiting. `close()` drains: answers in flight finish before the threads go.
 */
export class WorkerAnswerer implements Answerer {
  private readonly slots: Slot[] = [];
  private readonly running = new Set<Promise<void>>();
  /** Answers no worker has taken yet. */
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private startFailures = 0;
  private broken = false;
  private closing = false;
  /** Commands turned away since the answers fell behind; null while they keep up. */
  private turnedAway: number | null = null;

  private readonly limits: typeof ANSWER_LIMITS;
  /** Whether answers wait lately for cores other work holds, rather than for burnrate's own. */
  private readonly coresHeld: CoresHeldElsewhere;

  constructor(private readonly options: WorkerAnswererOptions) {
    this.limits = { ...ANSWER_LIMITS, ...options.limits };
    this.coresHeld = options.coresHeld ?? new CoresHeldElsewhere(Math.min(availableParallelism(), options.size + 1));
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn());
  }

  /** The live threads, for health checks and tests: a crash shows up as a new thread id. */
  get threads(): readonly Worker[] {
    return this.slots.map((slot) => slot.worker);
  }

  /** The started workers' operating-system threads, which run at a lower priority than this one. */
  get osThreadIds(): number[] {
    return this.slots.flatMap((slot) => (slot.ready && slot.osThreadId !== null ? [slot.osThreadId] : []));
  }

  /** Answers handed over and not yet delivered: on a worker or waiting for one. */
  get inFlight(): number {
    return this.queue.length + this.slots.reduce((n, slot) => n + slot.pending.size, 0);
  }

  describe(): string {
    if (this.broken) return 'answers: in process (the answer workers could not start)';
    return `answers: ${this.slots.length} worker thread${this.slots.length === 1 ? '' : 's'}`;
  }

  /** Resolves once every worker has started (or the pool gave up and answers in process). */
  async ready(): Promise<void> {
    while (!this.broken && !this.slots.every((slot) => slot.ready)) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  accepting(): boolean {
    // Answered in process (see answer()): nothing queues here.
    if (this.inProcess()) return true;
    this.coresHeld.look(this.osThreadIds);
    const behind =
      this.inFlight >= this.limits.waitingPerWorker * this.slots.length ||
      (this.queue.length >= this.limits.queuedPerWorker * this.slots.length && !this.coresHeld.now());
    // One line when answers fall behind and one when they catch up, however many commands come in between.
    if (behind && this.turnedAway === null) {
      this.turnedAway = 0;
      this.options.log.warn({ waiting: this.inFlight }, 'answers are falling behind; turning new commands away until they catch up');
    } else if (!behind && this.turnedAway !== null) {
      this.options.log.warn({ turnedAway: this.turnedAway }, 'answers caught up; taking commands again');
      this.turnedAway = null;
    }
    if (behind) this.turnedAway!++;
    return !behind;
  }

  private inProcess(): boolean {
    return this.broken || this.closing || !this.slots.some((slot) => slot.ready);
  }

  answer(request: CommandRequest, reply: Reply): Promise<void> {
    // While no worker has started yet (the first seconds after start, or a replacement after a
    // crash), answering in process beats making the person wait for a thread to load.
    if (this.inProcess()) return this.options.fallback.answer(request, reply);
    const done = new Promise<void>((resolve) => {
      this.queue.push({ id: this.nextId++, request, reply, resolve });
      this.pump();
    }).finally(() => this.running.delete(done));
    this.running.add(done);
    return done;
  }

  /** Hands queued answers to the least busy workers, up to the cap each. */
  private pump(): void {
    while (this.queue.length > 0) {
      if (this.broken) {
        for (const p of this.queue.splice(0)) void this.options.fallback.answer(p.request, p.reply).then(p.resolve);
        return;
      }
      const slot = this.slots.reduce<Slot | null>(
        (best, s) => (s.ready && s.pending.size < ANSWERS_PER_WORKER && (!best || s.pending.size < best.pending.size) ? s : best),
        null,
      );
      if (!slot) return;
      const next = this.queue.shift()!;
      slot.pending.set(next.id, next);
      const groups = this.options.groups?.();
      const message: ToWorker = { type: 'answer', id: next.id, request: { ...next.request, ...(groups ? { groups } : {}) } };
      slot.worker.postMessage(message);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const drained = await settleWithin([...this.running], DRAIN_TIMEOUT_MS);
    if (!drained) this.options.log.warn({ inFlight: this.inFlight }, 'answers still in flight at shutdown; stopping their workers');
    await Promise.all(this.slots.map((slot) => this.stop(slot)));
    // Still queued after the drain limit: no worker will take them now.
    await Promise.all(this.queue.splice(0).map((p) => this.apologise(p)));
    await this.options.fallback.close();
  }

  private spawn(): Slot {
    const data: AnswerWorkerData = { config: this.options.config, dbPath: this.options.dbPath };
    const worker = new Worker(this.options.script ?? ANSWER_WORKER_SCRIPT, { workerData: data, env: { ...this.options.env } });
    const slot: Slot = { worker, ready: false, osThreadId: null, pending: new Map() };
    worker.on('message', (message: FromWorker) => void this.receive(slot, message));
    worker.on('error', (error) => this.options.log.error({ err: error.message, threadId: worker.threadId }, 'answer worker crashed'));
    worker.on('exit', (code) => void this.exited(slot, code));
    return slot;
  }

  private async receive(slot: Slot, message: FromWorker): Promise<void> {
    if (message.type === 'ready') {
      slot.ready = true;
      slot.osThreadId = message.osThreadId;
      this.startFailures = 0;
      this.pump();
      return;
    }
    const pending = slot.pending.get(message.id);
    if (!pending) return;
    slot.pending.delete(message.id);
    if (message.type === 'failed') {
      this.options.log.error({ err: message.error }, 'answer could not be delivered');
    } else {
      // Answers the worker had no address for (no response_url) go out through the caller's reply.
      for (const undelivered of message.undelivered) {
        await pending.reply
          .private(undelivered)
          .catch((error: unknown) => this.options.log.error({ err: (error as Error).message }, 'answer could not be delivered'));
      }
      for (const { actor, change } of message.budgetChanges ?? [])
        await this.options
          .budgetChanged?.(actor, change)
          .catch((error: unknown) =>
            this.options.log.warn({ err: (error as Error).message, team: change.team }, 'budget changed; telling its channel failed'),
          );
    }
    pending.resolve();
    this.pump();
  }

  private async exited(slot: Slot, code: number): Promise<void> {
    const index = this.slots.indexOf(slot);
    const lost = [...slot.pending.values()];
    slot.pending.clear();
    if (index >= 0 && !this.closing) {
      if (!slot.ready) this.startFailures++;
      if (this.startFailures >= MAX_START_FAILURES) {
        this.broken = true;
        this.slots.splice(index, 1);
        this.options.log.error({ code }, 'answer workers keep failing to start; answering in process');
      } else {
        this.options.log.error({ code, threadId: slot.worker.threadId }, 'answer worker stopped; starting another');
        this.slots[index] = this.spawn();
      }
    }
    // Queued answers go to the replacement (or in process); what the lost worker was answering
    // cannot be known to have happened or not: say so, never retry.
    this.pump();
    await Promise.all(lost.map((p) => this.apologise(p)));
  }

  private async apologise(pending: Pending): Promise<void> {
    const reference = randomUUID().slice(0, 8);
    this.options.log.error({ reference }, 'answer lost with its worker');
    await pending.reply
      .private(internalErrorMessage(reference))
      .catch((error: unknown) => this.options.log.error({ err: (error as Error).message }, 'apology could not be delivered'));
    pending.resolve();
  }

  private async stop(slot: Slot): Promise<void> {
    const exited = new Promise<void>((resolve) => slot.worker.once('exit', () => resolve()));
    const close: ToWorker = { type: 'close' };
    slot.worker.postMessage(close);
    // A worker stuck in a long synchronous call does not get to read its mail: stop it.
    if (!(await settleWithin([exited], 2_000))) await slot.worker.terminate();
  }
}
