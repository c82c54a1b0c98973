import { z } from 'zod';
import { dismissedProposal, proposalLine } from '../../templates/action-proposal.js';
import { privateReply } from '../../templates/private-reply.js';
import { timeOf } from '../../templates/message.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { proposalDetail } from '../domain/action-proposal.js';
import { BurnrateError } from '../domain/errors.js';
import { personText } from '../ports/people-directory.js';
import { defineAction } from './action.js';
import { parseButtonValue } from './button-value.js';
import { requireOwnerOrApprover } from './team-role.js';

const PAYLOAD = z.object({ p: z.uuid() });

/**
 * "Dismiss the proposal" under an assistant's proposal: the team's owners, approvers and admins
 * say no to it without acting. Audited on the proposal's subject (so proposal_status reads it like
 * any click) and the message closed: its buttons go, who dismissed it and when stay. The first
 * click counts; a second says who was first.
 */
export const proposalDismissAction = defineAction({
  id: ACTION_IDS.proposalDismiss,
  permissions: [],
  sideEffects: 'records',
  async parse(deps, interaction) {
    const { p } = parseButtonValue(PAYLOAD, interaction.value, '/burnrate idle');
    const proposal = await deps.store.proposals.get(p);
    if (!proposal)
      throw new BurnrateError(
        'burnrate_proposal_unknown',
        'This proposal is no longer known to burnrate.',
        'Run `/burnrate idle` for the current state.',
      );
    return proposal;
  },
  subject: (proposal) => ({ subject: proposal.subject, detail: proposalDetail(proposal.id) }),
  async authorize({ deps, interaction }, proposal) {
    requireOwnerOrApprover(deps, interaction.actor.userId, proposal.team, 'dismiss proposals');
  },
  async run({ deps }, proposal) {
    const earlier = (await deps.store.audit.about(proposal.subject, proposal.at)).find(
      (r) => r.action === ACTION_IDS.proposalDismiss && r.result === 'ok' && r.detail === proposalDetail(proposal.id),
    );
    return { audit: { result: earlier ? 'duplicate' : 'ok' }, value: earlier ?? null };
  },
  async answer({ deps, interaction, now }, proposal, earlier) {
    if (earlier) {
      await interaction.reply.private(privateReply(`Already dismissed by ${personText(deps, earlier.userId)} at ${timeOf(earlier.at)}.`));
      return;
    }
    const line = proposalLine({
      action: proposal.action,
      proposer: personText(deps, proposal.byUser),
      instance: proposal.instanceId,
      figures: 'nothing was done',
    });
    await interaction.reply.update(dismissedProposal(line, personText(deps, interaction.actor.userId), now));
  },
});
