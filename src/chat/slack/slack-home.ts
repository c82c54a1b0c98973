import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import { setBudget } from '../../actions/set-budget.js';
import type { Deps } from '../../deps.js';
import { parseBudgetForm } from '../../domain/budget-form.js';
import { applyBudgetOverrides } from '../../domain/effective-budgets.js';
import { hasRole, rolesOf } from '../../domain/roles.js';
import { isBurnrateError } from '../../domain/errors.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import { homeView } from '../home-view.js';
import { BUDGET_MODAL_ID, budgetModalInput, budgetModalView } from './budget-modal.js';

/** Action ids handled here rather than by the dispatcher: they open Slack-only surfaces. */
export const HOME_ACTION = /^budget\.edit(:\d+)?$/;

/**
 * Slack-only surfaces: the App Home dashboard and the budget modal opened from it. The modal
 * validates with the shared form parser and saves through the same setBudget as `/burnrate budget set`.
 */
export function registerHome(app: App, deps: Deps): void {
  const publish = async (client: App['client'], userId: string, name?: string) => {
    const home = await homeView(deps, { platform: 'slack', userId, ...(name ? { name } : {}) });
    await client.views.publish({ user_id: userId, view: { type: 'home', blocks: renderBlockKit(home).blocks as never } });
  };

  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await publish(client, event.user);
  });

  app.action<BlockAction>({ type: 'block_actions', action_id: HOME_ACTION }, async ({ ack, body, action, client }) => {
    await ack();
    const teamId = 'value' in action ? action.value : undefined;
    const configured = deps.config.teams.find((t) => t.id === teamId);
    if (!configured || !hasRole(rolesOf(deps.config, body.user.id), configured.id, ['approver'])) {
      await client.views.open({ trigger_id: body.trigger_id, view: notice('Only approvers of a team can edit its budget.') });
      return;
    }
    const [team] = applyBudgetOverrides([configured], await deps.store.budgets.list());
    await client.views.open({ trigger_id: body.trigger_id, view: budgetModalView(team!) as never });
  });

  app.view<ViewSubmitAction>(BUDGET_MODAL_ID, async ({ ack, body, view, client }) => {
    const form = parseBudgetForm(budgetModalInput(view.state.values as never));
    if (!form.ok) {
      await ack({ response_action: 'errors', errors: form.errors as Record<string, string> });
      return;
    }
    const actor = { platform: 'slack', userId: body.user.id, name: body.user.name };
    const team = view.private_metadata;
    try {
      // Within Slack's 3 seconds: a refusal must reach the modal as a field error, not a silent close.
      for (const cadence of ['monthly', 'weekly'] as const) {
        const amount = form.value[cadence];
        if (amount !== null) await setBudget(deps, actor, { team, cadence, amount, thresholds: form.value.thresholds });
      }
    } catch (error) {
      const message = isBurnrateError(error) ? error.message : 'Saving failed; try again.';
      if (!isBurnrateError(error)) deps.log.error({ err: (error as Error).message }, 'budget modal save failed');
      await ack({ response_action: 'errors', errors: { monthly: message } });
      return;
    }
    await ack();
    await publish(client, body.user.id, body.user.name);
  });
}

function notice(text: string): never {
  return { type: 'modal', title: { type: 'plain_text', text: 'burnrate' }, close: { type: 'plain_text', text: 'Close' }, blocks: [{ type: 'section', text: { type: 'plain_text', text } }] } as never;
}
