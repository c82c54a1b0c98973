import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How much lower than the acknowledging thread an answer worker runs (nice values added). With 10,
 * Linux gives a busy worker about a tenth of the CPU time of a busy acknowledging thread on a
 * shared core: an answer may wait a few milliseconds, an acknowledgement does not. Slack fails a
 * command not acknowledged within 3 s; an answer has 30 minutes at its response_url.
 */
export const ANSWER_THREAD_NICE = 10;

/** The lowest priority there is (the highest nice value). */
const NICEST = 19;

/**
 * Lowers the calling thread's scheduling priority by `nice`, relative to where it runs (the
 * process may already run niced). Linux keeps a nice value per thread and
 * setpriority(2) with a thread id changes that thread alone, so the rest of the process keeps its
 * priority. Returns the thread id lowered, or null where threads cannot be addressed this way
 * (other systems) or the change was refused: the worker then just runs at the process's priority.
 */
export function lowerThreadPriority(nice: number = ANSWER_THREAD_NICE): number | null {
  try {
    // `<pid>/task/<tid>`: the thread this runs on (a synchronous call runs on the calling thread).
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    setPriority(tid, Math.min(NICEST, getPriority(tid) + nice));
    return tid;
  } catch {
    return null;
  }
}
