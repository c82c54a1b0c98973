import type { Deps } from '../deps.js';
import type { FindingChange } from '../domain/finding-change.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import type { FindingTable, FindingTables } from '../store/store.js';
import type { Message } from '../../templates/message.js';

// What a check plugin is: its definition (the stages runCheck in jobs/ runs) and its entry in the
// registry (checks/index.ts), from which the job table is built. A check lives in checks/<name>/:
// its pure rules beside `definition.ts`, the I/O of a run (collect, address alerts, act) in
// `definition.ts` and `definition/`, the only files of checks/ that read the store or the clock.

/** What a run carries from reconciling on: at least the change to record. */
export interface CheckRun<F> {
  change: FindingChange<F>;
}

/**
 * A scheduled check (budgets, idle GPUs, runaway sweeps) as the stages runCheck runs in order.
 * Only `collect`, `alerts` and `afterRecord` do I/O; `evaluate` is the check's pure rules.
 */
export interface CheckDefinition<T extends FindingTable, Input, Run extends CheckRun<FindingTables[T]>, Result> {
  /** The kind of findings the run's changes are recorded as. */
  table: T;
  /** Reads what the rules run on, and what earlier runs found. */
  collect(deps: Deps, now: Date): Promise<Input>;
  /** The pure rules (checks/): the findings true now. */
  evaluate(input: Input, now: Date): FindingTables[T][];
  /** Against earlier runs: what opens, stays open and resolves. */
  reconcile(deps: Deps, input: Input, current: FindingTables[T][], now: Date): Run;
  /** The outbox drafts that say so, on every chat platform (drawing their charts); never on a dry run. */
  alerts(deps: Deps, run: Run, now: Date): Promise<OutboxDraft[]>;
  /** What a recorded run does next (the idle-GPU check's automatic stops); never on a dry run. */
  afterRecord?(deps: Deps, run: Run, now: Date): Promise<void>;
  /** What the caller gets back. */
  report(run: Run, queued: OutboxDraft[]): Result;
}

/**
 * When a job runs: daily at a time of day in each team's own time zone (one cron task per zone, so a
 * Berlin team hears at 08:00 Berlin time), or on a cron expression in UTC, or every minute.
 */
export type JobCron = { daily: string } | { expression: string; utc: boolean };

/**
 * The scheduled job a check runs in. Checks naming the same job run in it one after another, in
 * registry order; the first of them says when the job runs and how serve lists it.
 */
export interface CheckSchedule {
  job: string;
  cron?(deps: Deps): JobCron;
  /** Its line in serve's "scheduled:" list (per time zone for daily jobs). */
  describe?(deps: Deps, timezone: string, teams: readonly string[]): string;
  /** The job refreshes every source before its checks (spend checks: the bill must be current). */
  refreshFirst?: boolean;
}

/**
 * One finding as the generic finding buttons and commands (Acknowledge, Snooze, Unsnooze) see it,
 * whatever check found it.
 */
export interface FindingHandle {
  id: string;
  kind: FindingTable;
  /** Whose finding it is: its owners and approvers may act on it; null (no team's) leaves it to admins. */
  team: string | null;
  /** The alerts one snooze silences together (a budget's team, kind and period; one sweep cap). */
  group: string;
  /** The last day of the finding's period, for a snooze "until the period ends"; null where it has none. */
  periodEnd: string | null;
  /** How a confirmation names what was silenced: "spend in 2026-11". */
  label: string;
  /** The check's own record of it. */
  finding: unknown;
}

/** How the generic finding buttons reach a check's findings. */
export interface FindingFace {
  /** The finding by id, open or resolved; null where this check has none of that id. */
  get(deps: Deps, id: string): Promise<FindingHandle | null>;
  /** The alert as it should look on `platform` now (who acknowledged or snoozed it); none: the clicker is answered privately. */
  alertNow?(deps: Deps, handle: FindingHandle, platform: string): Promise<Message>;
  /** What its alert's Details button answers: the evidence, method and caveats the alert leaves out to stay short. */
  details?(deps: Deps, handle: FindingHandle): Message;
}

/** One check as the registry lists it: the job table runs `definition` through runCheck. */
export interface CheckPlugin<T extends FindingTable = FindingTable, Result = unknown> {
  /** Its step's name: logs, /metrics and serve's first run. */
  name: string;
  /** The kind of findings it records; Acknowledge, Snooze and Keep act on any kind. */
  findingKind: T;
  schedule: CheckSchedule;
  /** Whether this deployment runs it at all (the idle-GPU check needs GPU metrics configured). */
  enabled?(deps: Deps): boolean;
  /**
   * The check for these teams (a daily job runs each time zone's teams at their hour), or for every
   * team and what belongs to none (a cron job); null when there is nothing to check.
   */
  definition(deps: Deps, teams?: readonly string[]): CheckDefinition<T, any, any, Result> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The line serve's first run prints about a run; null says nothing. */
  summary(deps: Deps, result: Result): string | null;
  /** Its findings for Acknowledge and Snooze; a check whose alerts honour snoozes says so here. */
  findings?: FindingFace;
}

/** A check of any kind and result, as the registry holds them. */
export type AnyCheckPlugin = CheckPlugin<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Declares a check with its result type checked between its definition and its summary. */
export function defineCheck<T extends FindingTable, Result>(plugin: CheckPlugin<T, Result>): CheckPlugin<T, Result> {
  return plugin;
}
