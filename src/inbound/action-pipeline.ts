import type { AnyActionSpec, ActionContext } from '../actions/action.js';
import { operationContext, runOperation } from '../operations/operation.js';
import type { Deps } from '../deps.js';
import type { ActionInteraction } from '../ports/interaction.js';

/**
 * How every button runs, whichever it is (as a policy engine runs a policy):
 *   1. parse: the value against the action's schema, and what it names loaded (stale or forged
 *      values get a clear answer and are not audited)
 *   2. the operation (runOperation): authorise (a refusal is audited, then answered), the dry-run
 *      gate, run, one audit of the outcome (or of the failure)
 *   3. answer through the action's templates
 */
export async function runActionPipeline(deps: Deps, spec: AnyActionSpec, interaction: ActionInteraction): Promise<void> {
  const payload = await spec.parse(deps, interaction);
  const ctx: ActionContext = { ...operationContext(deps, interaction.actor, spec, payload), interaction };
  const outcome = await runOperation(ctx, spec, payload);
  await spec.answer(ctx, payload, outcome);
}
