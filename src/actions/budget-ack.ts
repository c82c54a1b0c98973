import { hasRole, rolesOf } from '../domain/roles.js';
import { BurnrateError } from '../domain/errors.js';
import { errorMessage } from '../../templates/error-message.js';
import type { ActionSpec } from './action.js';
import { currentAlertMessage } from './alert-notes.js';
import { readFindingPayload } from './finding-payload.js';

/** "I have seen this": owners, approvers and admins; the first click counts, a second says who was first. */
export const budgetAckAction: ActionSpec = {
  id: 'budget.ack',
  permissions: [],
  async run(deps, interaction) {
    const { finding } = await readFindingPayload(deps, interaction.value);
    const { actor } = interaction;
    const audit = { at: deps.clock(), platform: actor.platform, userId: actor.userId, action: this.id, subject: finding.id };
    if (!hasRole(rolesOf(deps.config, actor.userId), finding.team, ['owner', 'approver'])) {
      await deps.store.audit.record({ ...audit, result: 'refused' });
      throw new BurnrateError('burnrate_forbidden', `Only owners and approvers of ${finding.team} can acknowledge its alerts.`, 'Ask one of them, or an admin.');
    }
    const { ack, first } = await deps.store.acknowledgements.acknowledge({ findingId: finding.id, byUser: actor.userId, at: deps.clock() });
    await deps.store.audit.record({ ...audit, result: first ? 'ok' : 'duplicate' });
    if (!first) {
      await interaction.reply.private(errorMessage(`Already acknowledged by ${ack.byUser} at ${ack.at.toISOString().slice(11, 16)} UTC.`));
      return;
    }
    await interaction.reply.update(await currentAlertMessage(deps, finding));
  },
};
