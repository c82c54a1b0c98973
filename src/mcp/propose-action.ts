import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../../commands/command.js';
import { notInAnyTeam } from '../../commands/team-arg.js';
import { proposedAlert } from '../../templates/action-proposal.js';
import type { ActionProposal, ProposedAction } from '../domain/action-proposal.js';
import { Refused } from '../domain/audit-outcome.js';
import { BurnrateError } from '../domain/errors.js';
import { handOverAlerts } from '../outbox/delivery-loop.js';
import { fanOut } from '../outbox/fan-out.js';
import { runOperationAs, type Operation } from '../operations/operation.js';
import { personText } from '../ports/people-directory.js';
import { alertTeam } from '../snapshots/idle-alert-content.js';
import { proposalTarget, type ProposalTarget } from './proposal-targets.js';

interface Proposing {
  action: ProposedAction;
  target: ProposalTarget;
  reason: string | null;
  id: string;
}

/** The audit log's name for a proposal: its row's subject is what the alert's buttons act on, as a click's is. */
export const PROPOSE_ACTION = 'mcp.propose';

/**
 * Proposes stopping or keeping an idle instance, or moving one to spot, on behalf of the caller:
 *   1. find the alert people decide on (the instance's open idle alert, or its spot recommendation)
 *      among the teams the caller may see, by instance id or name
 *   2. refuse what nobody could act on (a protected instance, one not ready for spot) and what
 *      someone already decided (stopped, kept running, migrating), saying who and when
 *   3. the same proposal made before on it: that one, nothing posted again
 *   4. record the proposal and queue the alert, led by who proposes what and why, on every chat
 *      platform the team has a channel on; audited as any operation
 * Nothing else: the alert's own buttons act, each authorised, dry-run gated and audited when a
 * person clicks it.
 */
export async function proposeAction(
  caller: CommandContext,
  request: { action: ProposedAction; instance: string; reason: string | null },
): Promise<{ proposal: ActionProposal; earlier: boolean }> {
  if (caller.visibleTeams.length === 0) throw notInAnyTeam(caller.actor.userId);
  const target = await proposalTarget(caller, request.action, request.instance);
  const id = randomUUID();
  const earlier = await runOperationAs(caller.deps, caller.actor, proposal, { action: request.action, target, reason: request.reason, id });
  return earlier ? { proposal: earlier, earlier: true } : { proposal: (await caller.deps.store.proposals.get(id))!, earlier: false };
}

/** Posting the proposal; the one made earlier instead when the same was already proposed on this subject. */
const proposal: Operation<Proposing, ActionProposal | null> = {
  id: PROPOSE_ACTION,
  sideEffects: 'records',
  subject: ({ target, action, id }) => ({ subject: target.subject, detail: `${action} ${target.instanceId} (proposal ${id})` }),
  async authorize({ deps, now }, { target, action }) {
    const decided = await target.decided(deps, now);
    const blocker = action === 'keep' ? null : target.blocker;
    if (decided || blocker)
      throw new Refused(
        new BurnrateError(
          decided ? 'burnrate_already_decided' : 'burnrate_cannot_act',
          `Nothing to propose for ${target.label}: ${decided ?? blocker}.`,
          decided
            ? 'Ask idle_gpus or recommendations for what still waits for a decision.'
            : 'Its owners can change that; nothing was posted.',
        ),
        `${target.instanceId} ${decided ? 'already decided' : 'cannot be acted on'}`,
      );
  },
  async run({ deps, actor, now }, { target, action, reason, id }) {
    // One post per proposal: an assistant asking again (a retry, a loop, two calls at once) gets the
    // first one's id. The row is the claim: of two identical proposals the store records one.
    const recorded = await deps.store.proposals.add({
      id,
      action,
      subject: target.subject,
      instanceId: target.instanceId,
      team: target.team,
      byUser: actor.userId,
      reason,
      at: now,
    });
    if (!recorded) {
      const earlier = (await deps.store.proposals.forSubject(target.subject)).find((p) => p.action === action)!;
      return { audit: { result: 'duplicate', detail: `${action} ${target.instanceId} (proposal ${earlier.id})` }, value: earlier };
    }
    const message = proposedAlert(await target.alert(deps), {
      id,
      action,
      proposer: personText(deps, actor.userId),
      instance: target.label,
      figures: target.figures,
      reason,
    });
    const team = alertTeam(deps, target.team);
    if (team) await deps.store.outbox.enqueue(fanOut(deps.chat, team, `proposal:${id}`, message), now);
    await handOverAlerts(deps);
    return { audit: { result: 'ok' }, value: null };
  },
};
