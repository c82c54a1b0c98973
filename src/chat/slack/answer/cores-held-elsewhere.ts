import { readFileSync } from 'node:fs';

/** A reading needs a window this long at least: shorter ones say little about who holds the cores. */
const MIN_WINDOW_MS = 250;

/** Readings further apart than this (no command for a while) say nothing about now. */
const MAX_WINDOW_MS = 4 * MIN_WINDOW_MS;

/**
 * The answer threads spent at least this share of the window runnable but off a core, and burnrate
 * used under this share of the cores it can use: the cores were held by other work.
 */
const HELD_ELSEWHERE = 0.5;

/** What one reading holds: ms since some start, each a running total. */
export interface CoreReading {
  /** Wall time. */
  at: number;
  /** CPU time of the whole process (every thread), ms. */
  processCpuMs: number;
  /** Time the answer threads spent runnable but waiting for a core, ms, summed; null where the system does not say. */
  threadsWaitMs: number | null;
}

/**
 * Whether answers wait lately because OTHER work holds the cores: the answer threads spent most of
 * the last window ready to run but off a core (Linux's run-queue wait, /proc schedstat) while
 * burnrate itself used less than half of the cores it can use. A queue of answers is then no sign
 * that burnrate takes more than it can answer: turning commands away would not answer the others
 * sooner. A worker stuck on a lock or on Slack is not waiting for a core, and burnrate using its
 * cores itself is its own limit: neither counts. False where the system does not say (not Linux).
 */
export class CoresHeldElsewhere {
  private last: CoreReading | null = null;
  private held = false;

  constructor(
    /** The cores burnrate's threads can use: its answer workers and the thread that acknowledges, at most the machine's. */
    private readonly cores: number,
    private readonly read: (threadIds: readonly number[]) => Omit<CoreReading, 'at'> = readCores,
  ) {}

  /** Takes a reading of the answer threads (this process's thread ids) once the window since the last one has passed. */
  look(threadIds: readonly number[], now = performance.now()): void {
    if (this.last && now - this.last.at < MIN_WINDOW_MS) return;
    const reading = { ...this.read(threadIds), at: now };
    const last = this.last;
    this.last = reading;
    if (!last || now - last.at > MAX_WINDOW_MS || reading.threadsWaitMs === null || last.threadsWaitMs === null || threadIds.length === 0) {
      this.held = false;
      return;
    }
    const window = now - last.at;
    const waited = (reading.threadsWaitMs - last.threadsWaitMs) / window / threadIds.length;
    const used = (reading.processCpuMs - last.processCpuMs) / window / this.cores;
    this.held = waited >= HELD_ELSEWHERE && used < HELD_ELSEWHERE;
  }

  /** As of the last reading. */
  now(): boolean {
    return this.held;
  }
}

function readCores(threadIds: readonly number[]): Omit<CoreReading, 'at'> {
  const { user, system } = process.cpuUsage();
  let waitNs = 0;
  for (const tid of threadIds) {
    try {
      // "<ns on a cpu> <ns waiting on a run queue> <timeslices>" (Linux, CONFIG_SCHED_INFO).
      const [, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ');
      waitNs += Number(wait);
    } catch {
      return { processCpuMs: (user + system) / 1000, threadsWaitMs: null };
    }
  }
  return { processCpuMs: (user + system) / 1000, threadsWaitMs: Number.isFinite(waitNs) ? waitNs / 1e6 : null };
}
