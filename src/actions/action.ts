import type { ActionInteraction } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import type { ActionId } from '../domain/action-ids.js';
import type { AuditEntry } from '../domain/audit.js';
import type { Audited } from '../domain/audit-outcome.js';

/** What the audit log names for a click: the thing acted on, and a detail rows inherit. */
export type AuditSubject = Pick<AuditEntry, 'subject'> & { detail?: string | null };

/** What every step of a click sees. `dryRun` is set by the dispatcher, never read from config here. */
export interface ActionContext {
  deps: Deps;
  interaction: ActionInteraction;
  now: Date;
  /** The audit fields of this click (who, when, which action, on what). */
  audit: Omit<AuditEntry, 'result'>;
}

/**
 * A button's handler. The dispatcher runs every one the same way:
 *   parse (the value against the action's schema, loading what it names) -> authorise (a thrown
 *   `Refused` is audited) -> dry-run gate (cloud actions run `dryRun` until actions.enabled) ->
 *   run -> one audit of the outcome -> answer.
 * Each declares the cloud permissions it needs, so the IAM docs are generated.
 */
export interface ActionSpec<P = unknown, O = unknown> {
  id: ActionId;
  /** Cloud permissions the action uses (e.g. `ec2:StopInstances`); empty for bookkeeping actions. */
  permissions: readonly string[];
  /** `cloud`: changes something in a cloud account, so it is a dry run until actions.enabled. */
  sideEffects: 'none' | 'records' | 'cloud';
  /** Reads the button value against the schema and loads what it names; a stale or forged one gets a clear answer. */
  parse(deps: Deps, interaction: ActionInteraction): Promise<P>;
  /** The audit subject; null for a read nobody needs to audit. */
  subject(payload: P): AuditSubject | null;
  /** Who may click it (roles) and whether it may act now: throws `Refused`, which is audited. */
  authorize(ctx: ActionContext, payload: P): Promise<void>;
  run(ctx: ActionContext, payload: P): Promise<Audited<O>>;
  /** A cloud action's dry run: asks the cloud, changes nothing. */
  dryRun?(ctx: ActionContext, payload: P): Promise<Audited<O>>;
  /** Replies to the clicker from the outcome (updates the message, a private note, a thread reply). */
  answer(ctx: ActionContext, payload: P, outcome: O): Promise<void>;
}

/** An action of any payload, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyActionSpec = ActionSpec<any, any>;

/** Declares an action with its payload and outcome types checked across its steps. */
export function defineAction<P, O>(spec: ActionSpec<P, O>): ActionSpec<P, O> {
  return spec;
}

/** The answer of a dry run: nothing changed, and how to turn cloud actions on. */
export const DRY_RUN_HINT = 'Cloud actions are dry runs until `actions: { enabled: true }` is set in burnrate.yml.';
