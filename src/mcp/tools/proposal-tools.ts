import { z } from 'zod';
import { proposeAction } from '../propose-action.js';
import { proposalStatus } from '../proposal-status.js';
import { asJson, defineTool } from './tool.js';

export const proposeActionTool = defineTool({
  name: 'propose_action',
  title: 'Propose stopping or keeping an idle GPU',
  description:
    "Posts a proposal to stop (or keep running) one idle GPU instance into its team's channel, as its idle alert with the usual buttons, saying that an assistant used by you proposes it. Nothing changes until a person with the right role clicks; returns the proposal's id for proposal_status.",
  input: {
    action: z.enum(['stop', 'keep']).describe('stop: propose stopping it; keep: propose keeping it running.'),
    instance: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .regex(/^[^\s<>`*]+$/, 'an instance id or name as idle_gpus lists it (no spaces or markup)')
      .describe('The instanceId (or name) of an idle instance, as idle_gpus lists it.'),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .regex(/^[^<>`*\n]+$/, 'one line of plain text')
      .optional()
      .describe('Why, in one line of plain text (at most 300 characters): shown with the proposal.'),
  },
  output: {
    proposal: 'id, action, findingId, instanceId, team, byUser, reason, at',
    earlier: 'true when the same was proposed before on this idle period: that proposal, nothing posted again',
  },
  readOnly: false,
  async run(caller, args) {
    const { proposal, earlier } = await proposeAction(caller, {
      action: args.action,
      instance: args.instance,
      reason: args.reason ?? null,
    });
    const where = `${proposal.team ?? 'the unowned GPUs'} channel`;
    return {
      data: asJson({ proposal, earlier }),
      summary: earlier
        ? `Already proposed (${proposal.id}, by ${proposal.byUser} at ${proposal.at.toISOString()}) in the ${where}: nothing posted again. Ask proposal_status for the outcome.`
        : `Proposal ${proposal.id} posted to the ${where}: ${args.action} ${proposal.instanceId}. Nothing changes until someone clicks; ask proposal_status for the outcome.`,
    };
  },
});

export const proposalStatusTool = defineTool({
  name: 'proposal_status',
  title: 'Outcome of a proposal',
  description:
    'Where a proposal made with propose_action stands: waiting, stopped, kept, handed over, or no longer idle; who decided and every click since.',
  input: { id: z.uuid().describe('The id propose_action returned.') },
  output: {
    proposal: 'what was proposed, by whom, when',
    outcome: 'waiting, stopped, would-stop (dry run), kept, handed-over or no-longer-idle',
    decidedBy: 'who clicked, once decided',
    decidedAt: 'when',
    clicks: 'every click on the alert since the proposal, refusals included',
  },
  async run(caller, args) {
    const status = await proposalStatus(caller, args.id);
    return {
      data: asJson(status),
      summary: `Proposal ${args.id}: ${status.outcome}${status.decidedBy ? ` (by ${status.decidedBy} at ${status.decidedAt})` : ''}.`,
    };
  },
});
