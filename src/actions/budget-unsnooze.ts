import { alertGroup } from '../checks/reconcile.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction } from './action.js';
import { requireOwnerOrApprover } from './team-role.js';
import { currentAlertMessage } from '../checks/budget/definition/current-alert.js';
import { readFindingPayload } from './finding-payload.js';

/**
 * Unsnooze: ends the alert group's snooze now, so the next check posts again; owners, approvers
 * and admins. A second click finds nothing running and says so, privately.
 */
export const budgetUnsnoozeAction = defineAction({
  id: ACTION_IDS.budgetUnsnooze,
  permissions: [],
  sideEffects: 'records',
  parse: (deps, interaction) => readFindingPayload(deps, interaction.value),
  subject: ({ finding }) => ({ subject: finding.id }),
  async authorize({ deps, interaction }, { finding }) {
    requireOwnerOrApprover(deps, interaction.actor.userId, finding.team, 'unsnooze its alerts');
  },
  async run({ deps }, { finding }) {
    const ended = await deps.store.snoozes.end(alertGroup(finding), deps.clock());
    return {
      audit: ended
        ? { result: 'ok', detail: `snooze by ${ended.byUser} until ${ended.until.toISOString()} ended` }
        : { result: 'duplicate' },
      value: ended,
    };
  },
  async answer({ deps, interaction }, { finding }, ended) {
    if (!ended) {
      await interaction.reply.private(privateReply('This alert is not snoozed any more.'));
      return;
    }
    await interaction.reply.update(await currentAlertMessage(deps, finding, interaction.actor.platform));
  },
});
