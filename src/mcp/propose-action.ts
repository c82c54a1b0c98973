import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../../commands/command.js';
import { notInAnyTeam } from '../../commands/team-arg.js';
import { proposedAlert } from '../../templates/action-proposal.js';
import type { ActionProposal, ProposedAction } from '../domain/action-proposal.js';
import { BurnrateError } from '../domain/errors.js';
import { instanceLabel, type TrackedGpuFinding } from '../domain/gpu-finding.js';
import { Refused } from '../domain/audit-outcome.js';
import { handOverAlerts } from '../outbox/delivery-loop.js';
import { fanOut } from '../outbox/fan-out.js';
import { runOperationAs, type Operation } from '../operations/operation.js';
import { personText } from '../ports/people-directory.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import type { Deps } from '../deps.js';
import { alertTeam, idleAlertFor } from '../snapshots/idle-alert-content.js';

interface Proposing {
  action: ProposedAction;
  finding: TrackedGpuFinding;
  reason: string | null;
  id: string;
}

/** The audit log's name for a proposal: its row's subject is the finding, as a click's is. */
export const PROPOSE_ACTION = 'mcp.propose';

/**
 * Proposes stopping or keeping one idle instance on behalf of the caller:
 *   1. find the open idle finding of the instance among the teams the caller may see (by id or name)
 *   2. refuse a stop of a protected instance: burnrate never stops it, so nobody is asked to
 *   3. record the proposal and queue the team's idle alert for that instance, led by who proposes
 *      what and why, on every chat platform the team has a channel on; audited as any operation
 * Nothing else: the alert's own buttons (Stop now, Keep, Not ours) act, each authorised, dry-run
 * gated and audited when a person clicks it.
 */
export async function proposeAction(
  caller: CommandContext,
  request: { action: ProposedAction; instance: string; reason: string | null },
): Promise<{ proposal: ActionProposal; earlier: boolean }> {
  if (caller.visibleTeams.length === 0) throw notInAnyTeam(caller.actor.userId);
  const finding = await openFindingOf(caller, request.instance);
  const id = randomUUID();
  const earlier = await runOperationAs(caller.deps, caller.actor, proposal, {
    action: request.action,
    finding,
    reason: request.reason,
    id,
  });
  return earlier ? { proposal: earlier, earlier: true } : { proposal: (await caller.deps.store.proposals.get(id))!, earlier: false };
}

/** Posting the proposal; the one made earlier instead when the same was already proposed on this idle period. */
const proposal: Operation<Proposing, ActionProposal | null> = {
  id: PROPOSE_ACTION,
  sideEffects: 'records',
  subject: ({ finding, action, id }) => ({ subject: finding.id, detail: `${action} ${finding.instanceId} (proposal ${id})` }),
  async authorize({ deps, now }, { finding, action }) {
    await refuseSettled(deps, finding, now);
    if (action === 'stop' && finding.protected)
      throw new Refused(
        new BurnrateError(
          'burnrate_instance_protected',
          `${instanceLabel(finding)} is protected, so burnrate never stops it: there is nothing to propose.`,
          'Propose keep instead, or ask its owners to remove the protection.',
        ),
        `${finding.instanceId} protected`,
      );
  },
  async run({ deps, actor, now }, { finding, action, reason, id }) {
    // One post per proposal: an assistant asking again (a retry, a loop) gets the first one's id.
    const earlier = (await deps.store.proposals.forFinding(finding.id)).find((p) => p.action === action);
    if (earlier)
      return { audit: { result: 'duplicate', detail: `${action} ${finding.instanceId} (proposal ${earlier.id})` }, value: earlier };
    await deps.store.proposals.add({
      id,
      action,
      findingId: finding.id,
      instanceId: finding.instanceId,
      team: finding.team,
      byUser: actor.userId,
      reason,
      at: now,
    });
    const team = alertTeam(deps, finding.team);
    const alert = await idleAlertFor(deps, finding.team, [finding]);
    const message = proposedAlert(alert, {
      action,
      proposer: personText(deps, actor.userId),
      instance: instanceLabel(finding),
      idleMinutes: finding.idleMinutes,
      perDay: finding.perDay,
      reason,
    });
    if (team) await deps.store.outbox.enqueue(fanOut(deps.chat, team, `proposal:${id}`, message), now);
    await handOverAlerts(deps);
    return { audit: { result: 'ok' }, value: null };
  },
};

/** An instance someone already stopped or kept running needs nobody's decision: say who, and since when. */
async function refuseSettled(deps: Deps, finding: TrackedGpuFinding, now: Date): Promise<void> {
  const stop = await deps.store.instanceActions.get(finding.id, ACTION_IDS.instanceStop);
  const keep = (await deps.store.keeps.active(now)).find((k) => k.instanceId === finding.instanceId);
  const settled = stop
    ? `${personText(deps, stop.byUser)} stopped it at ${stop.at.toISOString()}`
    : keep
      ? `${personText(deps, keep.byUser)} keeps it running until ${keep.until.toISOString()}`
      : null;
  if (settled)
    throw new Refused(
      new BurnrateError(
        'burnrate_already_decided',
        `Nothing to propose for ${instanceLabel(finding)}: ${settled}.`,
        'Ask idle_gpus for instances still waiting.',
      ),
      `${finding.instanceId} already decided`,
    );
}

/**
 * The open idle finding of an instance the caller may see, by its id or its name; an instance of
 * another team is answered as one not found, so a proposal says nothing about other teams' fleets.
 */
async function openFindingOf(caller: CommandContext, instance: string): Promise<TrackedGpuFinding> {
  const visible = (team: string | null) => (team === null ? caller.roles.admin : caller.visibleTeams.includes(team));
  const open = (await caller.deps.store.gpuFindings.listOpen()).filter((f) => visible(f.team));
  const byId = open.filter((f) => f.instanceId === instance);
  const matches = byId.length > 0 ? byId : open.filter((f) => f.name === instance);
  if (matches.length > 1)
    throw new BurnrateError(
      'burnrate_instance_ambiguous',
      `${matches.length} idle instances are named "${instance}"`,
      `Give its instance id: ${matches.map((f) => f.instanceId).join(', ')}.`,
    );
  const found = matches[0];
  if (!found)
    throw new BurnrateError(
      'burnrate_no_idle_alert',
      `no open idle alert on "${instance}" in your teams`,
      'A proposal acts through the idle alert of an instance burnrate found idle: list them with idle_gpus and give one of their instanceId values.',
    );
  return found;
}
