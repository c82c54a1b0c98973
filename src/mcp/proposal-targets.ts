import type { CommandContext } from '../../commands/command.js';
import { idleFor } from '../../templates/action-proposal.js';
import type { Message } from '../../templates/message.js';
import { recommendationMessage } from '../../templates/recommendation.js';
import type { ProposedAction } from '../domain/action-proposal.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { BurnrateError } from '../domain/errors.js';
import { instanceLabel, type TrackedGpuFinding } from '../domain/gpu-finding.js';
import { formatMoney } from '../domain/money.js';
import type { Recommendation } from '../domain/recommendation.js';
import type { Deps } from '../deps.js';
import { personText } from '../ports/people-directory.js';
import { currentRecommendations } from '../snapshots/current-recommendations.js';
import { alertTeam, idleAlertFor } from '../snapshots/idle-alert-content.js';
import { spotButtonOptions } from '../snapshots/recommendations-for.js';

/** What a proposal is about: the alert people decide on, and what its buttons' audit rows name. */
export interface ProposalTarget {
  subject: string;
  instanceId: string;
  label: string;
  team: string | null;
  /** The figures the proposal leads with: "idle 14 h, $62.00/day". */
  figures: string;
  /** Why nobody could act on it (protected, not ready for spot); null when a click can. */
  blocker: string | null;
  /** Who already decided, and when; null while undecided. */
  decided(deps: Deps, now: Date): Promise<string | null>;
  /** The alert as it stands now, with its buttons. */
  alert(deps: Deps): Promise<Message>;
}

/**
 * The alert a proposal goes through, among the teams the caller may see, by instance id or name:
 * the open idle alert of an instance burnrate found idle (stop, keep), or its spot recommendation
 * (spot). Another team's instance is answered as one not found, so a proposal tells nothing of
 * other teams' fleets.
 */
export async function proposalTarget(caller: CommandContext, action: ProposedAction, instance: string): Promise<ProposalTarget> {
  const visible = (team: string | null) => (team === null ? caller.roles.admin : caller.visibleTeams.includes(team));
  if (action === 'spot') {
    const spot = (await currentRecommendations(caller.deps)).filter((r) => r.kind === 'spot' && visible(r.team));
    return spotTarget(one(spot, instance, 'spot recommendation', 'recommendations'));
  }
  const open = (await caller.deps.store.gpuFindings.listOpen()).filter((f) => visible(f.team));
  return idleTarget(one(open, instance, 'open idle alert', 'idle_gpus'));
}

/** The one of `items` whose instance has this id, else this name; refused when none or several. */
function one<T extends { instanceId: string; name: string | null }>(items: readonly T[], instance: string, what: string, tool: string): T {
  const byId = items.filter((f) => f.instanceId === instance);
  const matches = byId.length > 0 ? byId : items.filter((f) => f.name === instance);
  if (matches.length > 1)
    throw new BurnrateError(
      'burnrate_instance_ambiguous',
      `${matches.length} instances are named "${instance}"`,
      `Give its instance id: ${matches.map((f) => f.instanceId).join(', ')}.`,
    );
  if (!matches[0])
    throw new BurnrateError(
      'burnrate_nothing_to_propose',
      `no ${what} on "${instance}" in your teams`,
      `A proposal goes through the alert people already decide on: list them with ${tool} and give one of their instanceId values.`,
    );
  return matches[0];
}

function idleTarget(finding: TrackedGpuFinding): ProposalTarget {
  return {
    subject: finding.id,
    instanceId: finding.instanceId,
    label: instanceLabel(finding),
    team: finding.team,
    figures: `idle ${idleFor(finding.idleMinutes)}, ${formatMoney(finding.perDay, 'USD')}/day`,
    blocker: finding.protected ? 'it is protected, so burnrate never stops it' : null,
    async decided(deps, now) {
      const stop = await deps.store.instanceActions.get(finding.id, ACTION_IDS.instanceStop);
      if (stop) return `${personText(deps, stop.byUser)} stopped it at ${stop.at.toISOString()}`;
      const keep = (await deps.store.keeps.active(now)).find((k) => k.instanceId === finding.instanceId);
      return keep ? `${personText(deps, keep.byUser)} keeps it running until ${keep.until.toISOString()}` : null;
    },
    alert: (deps) => idleAlertFor(deps, finding.team, [finding]),
  };
}

function spotTarget(rec: Recommendation): ProposalTarget {
  return {
    subject: rec.instanceId,
    instanceId: rec.instanceId,
    label: rec.name ?? rec.instanceId,
    team: rec.team,
    figures: `saves ${formatMoney(rec.monthlySaving, 'USD')} a month`,
    blocker: rec.blocker ? `it is not ready for spot yet: ${rec.blocker}` : null,
    async decided(deps) {
      const migration = await deps.store.spotMigrations.active(rec.instanceId);
      return migration ? `its spot migration is ${migration.state} since ${migration.changedAt.toISOString()}` : null;
    },
    alert: async (deps) =>
      recommendationMessage(rec, { teamName: alertTeam(deps, rec.team)?.name ?? rec.team, ...spotButtonOptions(deps) }),
  };
}
