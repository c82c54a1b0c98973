import type { ActionInteraction } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import type { ActionId } from '../domain/action-ids.js';
import type { ActionPortName } from '../ports/permission-need.js';
import type { Operation, OperationContext } from '../operations/operation.js';

export type { AuditSubject } from '../operations/operation.js';

/** What every step of a click sees: the operation's context and the click itself. */
export interface ActionContext extends OperationContext {
  interaction: ActionInteraction;
}

/**
 * A button's handler: an operation (authorise -> dry-run gate -> run -> audit, by runOperation)
 * between reading the click and answering it. The dispatcher runs every one the same way:
 *   parse (the value against the action's schema, loading what it names) -> the operation -> answer.
 * Each declares the provider ports it acts through, so the IAM docs are generated from the ports' permissions.
 */
export interface ActionSpec<P = unknown, O = unknown> extends Operation<P, O, ActionContext> {
  id: ActionId;
  /**
   * Cloud permissions the action calls with itself, outside any provider port: none today, every
   * button that acts on a cloud goes through a port (`ports`).
   */
  permissions: readonly string[];
  /** The provider ports it acts through; their permissions are each provider's (docs/permissions.md lists them per provider). */
  ports?: readonly ActionPortName[];
  /** Reads the button value against the schema and loads what it names; a stale or forged one gets a clear answer. */
  parse(deps: Deps, interaction: ActionInteraction): Promise<P>;
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
