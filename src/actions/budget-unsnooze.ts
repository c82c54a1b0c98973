import { ACTION_IDS } from '../domain/action-ids.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction } from './action.js';
import { requireOwnerOrApprover } from './team-role.js';
import { findingAlertNow, readFindingPayload } from './finding-payload.js';

/**
 * Unsnooze, on a finding of any check: ends its alert group's snooze now, so the next check posts again; owners, approvers
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
    const ended = await deps.store.snoozes.end(finding.group, deps.clock());
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
    const alert = await findingAlertNow(deps, finding, interaction.actor.platform);
    if (alert) await interaction.reply.update(alert);
    else await interaction.reply.private(privateReply(`Alerts of ${finding.label} are no longer snoozed.`));
  },
});
