import type { Deps } from '../deps.js';
import type { AuditEntry } from '../domain/audit.js';
import { ActionFailed, Refused, type Audited, type AuditRow } from '../domain/audit-outcome.js';
import type { Actor } from '../ports/interaction.js';

/** What the audit log names for an operation: the thing acted on, and a detail rows inherit. */
export type AuditSubject = Pick<AuditEntry, 'subject'> & { detail?: string | null };

/** What every step of an operation sees: who runs it (a person, or burnrate itself) and when. */
export interface OperationContext {
  deps: Deps;
  actor: Actor;
  now: Date;
  /** The audit fields of this run (who, when, which operation, on what). */
  audit: Omit<AuditEntry, 'result'>;
}

/**
 * Something burnrate does on somebody's behalf that the audit log must show: a button, the typed
 * commands that change records (snooze, budget set, review) and the automatic stop. Each is run
 * by `runOperation`, the only place that audits and decides dry runs.
 */
export interface Operation<P, O, C extends OperationContext = OperationContext> {
  /** The audit log's name for it (a button's action id, or a command's verb). */
  id: string;
  /** `cloud`: changes something in a cloud account, so it is a dry run until actions.enabled. */
  sideEffects: 'none' | 'records' | 'cloud';
  /** The audit subject; null for a read nobody needs to audit. */
  subject(payload: P): AuditSubject | null;
  /** Who may run it (roles) and whether it may act now: throws `Refused`, which is audited. */
  authorize(ctx: C, payload: P): Promise<void>;
  run(ctx: C, payload: P): Promise<Audited<O>>;
  /** A cloud operation's dry run: asks the cloud, changes nothing. */
  dryRun?(ctx: C, payload: P): Promise<Audited<O>>;
}

/** The context of an operation run by `actor` now, with the audit fields its subject names. */
export function operationContext<P>(
  deps: Deps,
  actor: Actor,
  operation: Pick<Operation<P, unknown>, 'id' | 'subject'>,
  payload: P,
): OperationContext {
  const now = deps.clock();
  const subject = operation.subject(payload);
  const audit = {
    at: now,
    platform: actor.platform,
    userId: actor.userId,
    action: operation.id,
    subject: subject?.subject ?? '',
    ...(subject?.detail !== undefined ? { detail: subject.detail } : {}),
  };
  return { deps, actor, now, audit };
}

/**
 * Runs an operation as every one is run:
 *   1. authorise: roles and preconditions; a refusal (`Refused`) is audited, then thrown
 *   2. dry-run gate: an operation that changes the cloud runs its dry run until actions.enabled
 *   3. run, and the audit rows of its outcome, or of its failure (`ActionFailed`)
 * An operation without a subject is not audited (a read).
 */
export async function runOperation<P, O, C extends OperationContext>(ctx: C, operation: Operation<P, O, C>, payload: P): Promise<O> {
  const dryRun = operation.sideEffects === 'cloud' && !ctx.deps.config.actions.enabled;
  const audited = operation.subject(payload) !== null;
  let outcome: Audited<O>;
  try {
    await operation.authorize(ctx, payload);
    if (dryRun && !operation.dryRun) throw new Error(`${operation.id} changes the cloud but has no dry run`);
    outcome = dryRun ? await operation.dryRun!(ctx, payload) : await operation.run(ctx, payload);
  } catch (error) {
    if (!audited) throw error instanceof Refused ? error.error : error instanceof ActionFailed ? error.cause : error;
    if (error instanceof Refused) {
      await record(ctx, { result: 'refused', detail: error.detail });
      throw error.error;
    }
    if (error instanceof ActionFailed) {
      for (const row of error.before) await record(ctx, row);
      await record(ctx, { result: 'failed', detail: error.detail });
      throw error.cause;
    }
    throw error;
  }
  if (audited && outcome.audit !== null)
    for (const row of Array.isArray(outcome.audit) ? (outcome.audit as readonly AuditRow[]) : [outcome.audit as AuditRow])
      await record(ctx, row);
  return outcome.value;
}

/** The answer of a dry run: nothing changed, and how to turn cloud actions on. */
export const DRY_RUN_HINT = 'Cloud actions are dry runs until `actions: { enabled: true }` is set in burnrate.yml.';

/** Runs an operation on behalf of `actor` (a typed command, or burnrate itself). */
export function runOperationAs<P, O>(deps: Deps, actor: Actor, operation: Operation<P, O>, payload: P): Promise<O> {
  return runOperation(operationContext(deps, actor, operation, payload), operation, payload);
}

function record({ deps, audit }: OperationContext, row: AuditRow): Promise<void> {
  return deps.store.audit.record({ ...audit, result: row.result, ...(row.detail !== undefined ? { detail: row.detail } : {}) });
}
