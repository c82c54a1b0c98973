import { ACTION_IDS } from '../domain/action-ids.js';
import type { Acknowledgement } from '../domain/acknowledgement.js';
import { privateReply } from '../../templates/private-reply.js';
import { personText } from '../ports/people-directory.js';
import { timeOf } from '../../templates/message.js';
import { defineAction } from './action.js';
import { requireOwnerOrApprover } from './team-role.js';
import { findingAlertNow, readFindingPayload } from './finding-payload.js';

/**
 * "I have seen this", on a finding of any check: owners, approvers and admins; the first click
 * counts, a second says who was first.
 */
export const budgetAckAction = defineAction({
  id: ACTION_IDS.budgetAck,
  permissions: [],
  sideEffects: 'records',
  parse: (deps, interaction) => readFindingPayload(deps, interaction.value),
  subject: ({ finding }) => ({ subject: finding.id }),
  async authorize({ deps, interaction }, { finding }) {
    requireOwnerOrApprover(deps, interaction.actor.userId, finding.team, 'acknowledge its alerts');
  },
  async run({ deps, interaction }, { finding }) {
    const { ack, first } = await deps.store.acknowledgements.acknowledge({
      findingId: finding.id,
      byUser: interaction.actor.userId,
      at: deps.clock(),
    });
    return { audit: { result: first ? 'ok' : 'duplicate' }, value: { ack, first } as { ack: Acknowledgement; first: boolean } };
  },
  async answer({ deps, interaction }, { finding }, { ack, first }) {
    if (!first) {
      await interaction.reply.private(privateReply(`Already acknowledged by ${personText(deps, ack.byUser)} at ${timeOf(ack.at)}.`));
      return;
    }
    const alert = await findingAlertNow(deps, finding, interaction.actor.platform);
    if (alert) await interaction.reply.update(alert);
    else await interaction.reply.private(privateReply(`Acknowledged: ${finding.label}.`));
  },
});
