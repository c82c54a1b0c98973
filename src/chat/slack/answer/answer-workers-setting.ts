import { availableParallelism } from 'node:os';
import { MAX_ANSWER_WORKERS, type Config } from '../../../config/schema.js';
import { BurnrateError } from '../../../domain/errors.js';

/**
 * How many answer worker threads to run: BURNRATE_ANSWER_WORKERS, else `answers.workers` in
 * burnrate.yml, else one core fewer than the machine has (the main thread keeps one for
 * acknowledging), at least 1 and at most 4. 0 answers in process.
 */
export function answerWorkerCount(config: Config, env: NodeJS.ProcessEnv, cores = availableParallelism()): number {
  const raw = env.BURNRATE_ANSWER_WORKERS?.trim();
  if (raw) {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > MAX_ANSWER_WORKERS) {
      throw new BurnrateError(
        'burnrate_answer_workers_invalid',
        `BURNRATE_ANSWER_WORKERS must be a whole number from 0 to ${MAX_ANSWER_WORKERS}, got "${raw}"`,
        'Set it to 0 to answer in process, or unset it for the default (one less than the number of cores, 1 to 4).',
        2,
      );
    }
    return n;
  }
  return config.answers.workers ?? Math.min(4, Math.max(1, cores - 1));
}
