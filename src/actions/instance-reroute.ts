import { askWhom } from './team-role.js';
import { groupsOf, personText, personOf } from '../ports/people-directory.js';
import { chatPortOn, splitTarget } from '../ports/chat-port.js';
import type { Actor } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import { instanceLabel, type TrackedGpuFinding } from '../domain/gpu-finding.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { timeOf } from '../../templates/message.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { alertTeam, idleAlertFor, idleThread } from '../snapshots/idle-alert-content.js';
import { fanOut } from '../outbox/fan-out.js';
import { Refused, type Audited } from '../domain/audit-outcome.js';
import type { InstanceOwner } from '../domain/instance-owner.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import { privateReply } from '../../templates/private-reply.js';
import { teamPicker } from '../../templates/team-picker.js';
import { defineAction } from './action.js';
import { currentIdleAlertMessage, readInstancePayload } from './instance-alert.js';

const ACTION = ACTION_IDS.instanceReroute;

/**
 * "Not ours" on an idle alert (on an unowned instance: "Ours: pick the team"):
 *   1. the first click answers privately with one button per team
 *   2. the pick hands the instance over: later checks route it to that team whatever its tags
 *      say, its open finding moves there and a fresh alert is posted in that team's channel, all
 *      in one transaction; the alert the pick started from says who handed it where
 * Owners and approvers of the instance's team (and admins) may hand it away; an instance of no
 * team may be claimed by anyone for a team of theirs. Every hand-over, duplicate and refusal is audited.
 */
export const instanceRerouteAction = defineAction({
  id: ACTION,
  permissions: [],
  sideEffects: 'records',
  async parse(deps, interaction) {
    const { payload, finding } = await readInstancePayload(deps, interaction.value);
    if (!payload.to) return { finding, to: null, origin: null };
    const to = deps.config.teams.find((t) => t.id === payload.to);
    if (!to)
      throw new BurnrateError(
        'burnrate_team_unknown',
        `There is no team "${payload.to}" in burnrate.yml any more.`,
        'Click "Not ours" again for the current teams.',
      );
    return { finding, to, origin: payload.m ?? null };
  },
  subject: ({ finding }) => ({ subject: finding.id, detail: finding.instanceId }),
  async authorize({ deps, interaction }, { finding, to }) {
    // Handing it to the team it already belongs to is a duplicate, whoever clicks.
    if (to && finding.team === to.id) return;
    authorize(deps, interaction.actor, finding, to?.id ?? null);
  },
  async run({ deps, interaction }, { finding, to }): Promise<Audited<Handover>> {
    if (!to) return { audit: null, value: { kind: 'pick' } };
    if (finding.team === to.id) {
      const owner = (await deps.store.instanceOwners.list()).find((o) => o.instanceId === finding.instanceId);
      return {
        audit: { result: 'duplicate', detail: `${finding.instanceId} to ${to.id}` },
        value: { kind: 'duplicate', owner: owner ?? null },
      };
    }
    const now = deps.clock();
    const moved = { ...finding, team: to.id };
    const from = alertTeam(deps, finding.team);
    const alerts = await alertsFor(deps, moved, now, {
      instance: instanceLabel(finding),
      by: personOf(deps, interaction.actor.userId, interaction.actor.platform),
      from: from?.name ?? from?.id ?? 'no team',
      at: now,
    });
    await deps.store.instanceOwners.reassign(
      { instanceId: finding.instanceId, team: to.id, byUser: interaction.actor.userId, at: now },
      alerts,
    );
    return {
      audit: { result: 'ok', detail: `${finding.instanceId} from ${finding.team ?? 'no team'} to ${to.id}` },
      value: { kind: 'handed', moved },
    };
  },
  async answer({ deps, interaction }, { finding, to, origin }, outcome) {
    const name = instanceLabel(finding);
    if (outcome.kind === 'pick') {
      const roles = rolesOf(deps.config, interaction.actor.userId, groupsOf(deps));
      const teams = deps.config.teams.filter(
        (t) => t.id !== finding.team && (finding.team !== null || hasRole(roles, t.id, ['owner', 'approver'])),
      );
      const message = interaction.message ?? undefined;
      await interaction.reply.private(
        teamPicker({
          instance: name,
          teams: teams.map((t) => ({ id: t.id, name: t.name ?? t.id })),
          button: (team) => ({
            action: `${ACTION}:${team}`,
            value: JSON.stringify({ f: finding.id, to: team, ...(message ? { m: message } : {}) }),
          }),
        }),
      );
      return;
    }
    const toName = to!.name ?? to!.id;
    if (outcome.kind === 'duplicate') {
      const { owner } = outcome;
      await interaction.reply.update(
        privateReply(
          owner
            ? `${name} was already handed to ${toName} by ${personText(deps, owner.byUser)} at ${timeOf(owner.at)}.`
            : `${name} already belongs to ${toName}.`,
        ),
      );
      return;
    }
    if (origin) await updateOrigin(deps, origin, outcome.moved, finding.team);
    await interaction.reply.update(
      privateReply(`Handed ${name} to ${toName}.`, `Its idle alert is in their channel now, and later checks route it there.`),
    );
  },
});

type Handover = { kind: 'pick' } | { kind: 'duplicate'; owner: InstanceOwner | null } | { kind: 'handed'; moved: TrackedGpuFinding };

/** Owners and approvers of the instance's team, and admins; for an instance of no team, anyone for a team of theirs. A refusal is audited by the pipeline. */
function authorize(deps: Deps, actor: Actor, finding: TrackedGpuFinding, to: string | null): void {
  const roles = rolesOf(deps.config, actor.userId, groupsOf(deps));
  const allowed =
    finding.team !== null
      ? hasRole(roles, finding.team, ['owner', 'approver'])
      : roles.admin || (to === null ? roles.teams.length > 0 : hasRole(roles, to, ['owner', 'approver']));
  if (allowed) return;
  const detail = `${finding.instanceId} not allowed to hand over`;
  throw new Refused(
    finding.team !== null
      ? new BurnrateError(
          'burnrate_forbidden',
          `Only owners and approvers of ${finding.team} can hand ${instanceLabel(finding)} to another team.`,
          askWhom(deps, finding.team, ['owner', 'approver']),
        )
      : new BurnrateError(
          'burnrate_forbidden',
          `Only members of ${to ?? 'a team'} can claim ${instanceLabel(finding)} for it.`,
          askWhom(deps, to, ['owner', 'approver']),
        ),
    detail,
  );
}

/** The receiving team's idle alert, on each of its platforms, threaded for later automatic stops. */
async function alertsFor(
  deps: Deps,
  moved: TrackedGpuFinding,
  now: Date,
  handedOver: NonNullable<Parameters<typeof idleAlertFor>[3]>,
): Promise<OutboxDraft[]> {
  const team = alertTeam(deps, moved.team)!;
  const others = (await deps.store.gpuFindings.listOpen()).filter((f) => f.team === moved.team && f.id !== moved.id);
  // Who handed it over and when, on the receiving team's clock where the platform cannot show each reader's own (fanOut stamps its zone).
  const message = await idleAlertFor(deps, moved.team, [moved, ...others], handedOver);
  return fanOut(deps.chat, team, `gpu.handed:${moved.id}:${team.id}:${now.toISOString()}`, message, idleThread(moved.team, moved.id));
}

/**
 * The alert "Not ours" was clicked on, marked as handed over. Its address came back in a button
 * value, so it is used only when it is the old team's own channel on that platform.
 */
async function updateOrigin(
  deps: Deps,
  origin: { target: string; ref: string },
  moved: TrackedGpuFinding,
  from: string | null,
): Promise<void> {
  const { platform, address } = splitTarget(origin.target);
  const port = chatPortOn(deps.chat, platform);
  const team = alertTeam(deps, from);
  if (!port || !team || port.addressOf(team) !== address) return;
  try {
    await port.update(address, origin.ref, await currentIdleAlertMessage(deps, moved, from));
  } catch (error) {
    deps.log.warn({ err: (error as Error).message }, 'could not mark the idle alert as handed over');
  }
}
