import { announceBudgetChange } from '../../../jobs/budget-change.js';
import { roleGroups } from '../../../ports/people-directory.js';
import type { Deps } from '../../../deps.js';
import type { Answerer, Dispatch } from './answerer.js';
import { answerWorkerCount } from './answer-workers-setting.js';
import { inProcessAnswerer } from './in-process-answerer.js';
import { WorkerAnswerer, type WorkerAnswererOptions } from './worker-answerer.js';

/**
 * Answer workers when they can share the database (a file: WAL lets several connections read while
 * one writes; or Postgres, when dbPath is null) and are not turned off; in process otherwise.
 */
export function createAnswerer(
  deps: Deps,
  options: { dbPath: string | null; env: NodeJS.ProcessEnv; dispatch: Dispatch; script?: URL; limits?: WorkerAnswererOptions['limits'] },
): Answerer {
  const size = answerWorkerCount(deps.config, options.env);
  const inProcess = inProcessAnswerer(deps, options.dispatch);
  if (options.dbPath === ':memory:' || size === 0) return inProcess;
  return new WorkerAnswerer({
    size,
    config: deps.config,
    dbPath: options.dbPath,
    env: options.env,
    log: deps.log,
    fallback: inProcess,
    groups: () => roleGroups(deps),
    budgetChanged: (actor, change) => announceBudgetChange(deps, actor, change),
    ...(options.script ? { script: options.script } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
}
