import { groupsOf } from '../../ports/people-directory.js';
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import type { Deps } from '../../deps.js';
import { ACTION_IDS, SURFACE_ACTION_IDS } from '../../domain/action-ids.js';
import { parseBudgetForm } from '../../domain/budget-form.js';
import { applyBudgetOverrides } from '../../domain/effective-budgets.js';
import { hasRole, rolesOf } from '../../domain/roles.js';
import type { Message } from '../../../templates/message.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import type { Dispatch } from '../../inbound/guarded-dispatch.js';
import { homeView } from '../../inbound/home-view.js';
import { BUDGET_MODAL_ID, budgetModalInput, budgetModalView } from './budget-modal.js';

/** Action ids handled here rather than by the dispatcher: they open Slack-only surfaces. */
export const HOME_ACTION = new RegExp(`^${SURFACE_ACTION_IDS.budgetEdit.replace('.', '\\.')}(:\\d+)?$`);

/**
 * Slack-only surfaces: the App Home dashboard and the budget modal opened from it. The modal
 * validates with the shared form parser and hands the values to the dispatcher as the `budget.save`
 * action, which saves through the same setBudget as `/burnrate budget set`.
 */
export function registerHome(app: App, deps: Deps, dispatch: Dispatch): void {
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
    if (!configured || !hasRole(rolesOf(deps.config, body.user.id, groupsOf(deps)), configured.id, ['approver'])) {
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
    // Within Slack's 3 seconds: a refusal (the dispatcher answers it privately) must reach the modal
    // as a field error, not a silent close; the saved answer replaces the modal, which closes.
    const answer: { refusal?: Message } = {};
    await dispatch(deps, {
      kind: 'action',
      actor,
      action: ACTION_IDS.budgetSave,
      value: JSON.stringify({ team: view.private_metadata, ...form.value }),
      message: null,
      reply: { private: async (message) => void (answer.refusal = message), update: async () => {}, thread: async () => {} },
    });
    if (answer.refusal) {
      await ack({ response_action: 'errors', errors: { monthly: answer.refusal.summary } });
      return;
    }
    await ack();
    await publish(client, body.user.id, body.user.name);
  });
}

function notice(text: string): never {
  return {
    type: 'modal',
    title: { type: 'plain_text', text: 'burnrate' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [{ type: 'section', text: { type: 'plain_text', text } }],
  } as never;
}
