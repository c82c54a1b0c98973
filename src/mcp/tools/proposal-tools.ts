import { z } from 'zod';
import { proposeAction } from '../propose-action.js';
import { proposalStatus } from '../proposal-status.js';
import { asJson, defineTool } from './tool.js';

export const proposeActionTool = defineTool({
  name: 'propose_action',
  title: 'Propose stopping, keeping or moving to spot a GPU instance',
  description:
    "Posts a proposal into the instance's team channel, saying that an assistant used by you proposes it: stop or keep running an idle instance (its idle alert, with the usual buttons) or move one to spot (its spot recommendation, with Approve spot migration). Nothing changes until a person with the right role clicks; returns the proposal's id for proposal_status.",
  input: {
    action: z
      .enum(['stop', 'keep', 'spot'])
      .describe('stop or keep: an idle instance, as idle_gpus lists them; spot: an instance with a spot recommendation.'),
    instance: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .regex(/^[^\s<>`*]+$/, 'an instance id or name as idle_gpus or recommendations list it (no spaces or markup)')
      .describe('The instanceId (or name), as idle_gpus or recommendations list it.'),
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
    proposal: 'id, action, subject (what the buttons act on), instanceId, team, byUser, reason, at',
    earlier: 'true when the same was proposed before on the same alert: that proposal, nothing posted again',
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
    'Where a proposal made with propose_action stands: waiting, stopped, kept, handed over, moved to spot (or its dry run), approved and waiting for a second approver, no longer idle, or dismissed; who decided and every click since.',
  input: { id: z.uuid().describe('The id propose_action returned.') },
  output: {
    proposal: 'what was proposed, by whom, when',
    outcome:
      'waiting, stopped, would-stop (dry run), kept, handed-over, moved-to-spot, would-move (dry run), approved (waiting for a second approver), no-longer-idle or dismissed (someone clicked Dismiss)',
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
