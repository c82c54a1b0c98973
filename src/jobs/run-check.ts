import type { Deps } from '../deps.js';
import type { FindingChange } from '../domain/finding-change.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import type { FindingTable, FindingTables } from '../store/store.js';

/** What a run carries from reconciling on: at least the change to record. */
export interface CheckRun<F> {
  change: FindingChange<F>;
}

/**
 * A scheduled check (budgets, idle GPUs, runaway sweeps) as the stages runCheck runs in order.
 * Only `collect`, `alerts` and `afterRecord` do I/O; `evaluate` is the check's pure rules.
 */
export interface CheckDefinition<T extends FindingTable, Input, Run extends CheckRun<FindingTables[T]>, Result> {
  /** The table of findings the run's changes are recorded in. */
  table: T;
  /** Reads what the rules run on, and what earlier runs found. */
  collect(deps: Deps, now: Date): Promise<Input>;
  /** The pure rules (checks/): the findings true now. */
  evaluate(input: Input, now: Date): FindingTables[T][];
  /** Against earlier runs: what opens, stays open and resolves. */
  reconcile(deps: Deps, input: Input, current: FindingTables[T][], now: Date): Run;
  /** The outbox drafts that say so, on every chat platform. */
  alerts(deps: Deps, run: Run, now: Date): Promise<OutboxDraft[]>;
  /** What a recorded run does next (the idle-GPU check's automatic stops); never on a dry run. */
  afterRecord?(deps: Deps, run: Run, now: Date): Promise<void>;
  /** What the caller gets back. */
  report(run: Run, queued: OutboxDraft[]): Result;
}

export interface RunCheckOptions {
  /** Evaluate and report, but record nothing, queue no alert and act on nothing. */
  dryRun?: boolean;
}

/**
 * Every check, step by step:
 *   1. collect the snapshot and the findings of earlier runs
 *   2. evaluate the pure rules
 *   3. reconcile with what earlier runs found (new, still open, resolved)
 *   4. render the alerts, addressed to each chat platform
 *   5. stop here on a dry run
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
  const queued = await definition.alerts(deps, run, now);
  if (!options.dryRun) {
    await deps.store.recordRun(definition.table, run.change, queued, now);
    await definition.afterRecord?.(deps, run, now);
  }
  return definition.report(run, queued);
}
