import type { Deps } from '../deps.js';
import type { CheckDefinition, CheckRun } from '../checks/definition.js';
import type { FindingTable, FindingTables } from '../store/store.js';

export interface RunCheckOptions {
  /** Evaluate and report, but record nothing, queue no alert and act on nothing. */
  dryRun?: boolean;
}

/**
 * Every check (checks/<name>/definition.ts), step by step:
 *   1. collect the snapshot and the findings of earlier runs
 *   2. evaluate the pure rules
 *   3. reconcile with what earlier runs found (new, still open, resolved)
 *   4. stop here on a dry run: what it reports needs no message, and charts drawn for nobody cost seconds
 *   5. render the alerts, addressed to each chat platform
 *   6. record the findings and queue the alerts in one transaction, then what follows a run
 */
export async function runCheck<T extends FindingTable, Input, Run extends CheckRun<FindingTables[T]>, Result>(
  deps: Deps,
  definition: CheckDefinition<T, Input, Run, Result>,
  options: RunCheckOptions = {},
): Promise<Result> {
  const now = deps.clock();
  const input = await definition.collect(deps, now);
  const current = definition.evaluate(input, now);
  const run = definition.reconcile(deps, input, current, now);
  if (options.dryRun) return definition.report(run, []);
  const queued = await definition.alerts(deps, run, now);
  await deps.store.recordRun(definition.table, run.change, queued, now);
  await definition.afterRecord?.(deps, run, now);
  return definition.report(run, queued);
}
