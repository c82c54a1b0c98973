import type { AnyActionSpec, ActionContext } from '../actions/action.js';
import type { Deps } from '../deps.js';
import type { ActionInteraction } from '../ports/interaction.js';
import { runAudited } from '../store/audited-step.js';

/**
 * How every button runs, whichever it is (as a policy engine runs a policy):
 *   1. parse: the value against the action's schema, and what it names loaded (stale or forged
 *      values get a clear answer and are not audited)
 *   2. authorise: roles and preconditions; a refusal is audited, then answered
 *   3. dry-run gate: an action that changes the cloud runs its dry run until actions.enabled
 *   4. run, and one audit of the outcome (or of the failure)
 *   5. answer through the action's templates
 * The only place buttons are audited and dry runs decided.
 */
export async function runActionPipeline(deps: Deps, spec: AnyActionSpec, interaction: ActionInteraction): Promise<void> {
  const payload = await spec.parse(deps, interaction);
  const now = deps.clock();
  const { actor } = interaction;
  const subject = spec.subject(payload);
  const audit = {
    at: now,
    platform: actor.platform,
    userId: actor.userId,
    action: spec.id,
    subject: subject?.subject ?? '',
    ...(subject?.detail !== undefined ? { detail: subject.detail } : {}),
  };
  const ctx: ActionContext = { deps, interaction, now, audit };
  const dryRun = spec.sideEffects === 'cloud' && !deps.config.actions.enabled;
  const steps = async () => {
    await spec.authorize(ctx, payload);
    return dryRun && spec.dryRun ? spec.dryRun(ctx, payload) : spec.run(ctx, payload);
  };
  const outcome = subject ? await runAudited(deps.store.audit, audit, steps) : (await steps()).value;
  await spec.answer(ctx, payload, outcome);
}
