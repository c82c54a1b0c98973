import type { Deps } from '../../../deps.js';
import type { UnreadInventory } from '../../../domain/inventory-read.js';
import type { ClusterRead } from '../../../ports/cluster-read.js';
import { unownedTeam } from '../../../config/unowned-team.js';
import type { TeamConfig } from '../../../config/schema.js';
import { channelsOf, fanOut } from '../../../outbox/fan-out.js';
import type { OutboxDraft } from '../../../store/outbox-records.js';
import { unreadInventoryNotice } from '../../../../templates/unread-inventory-notice.js';

/** An open idle finding left as it was because no source listed its machine this run. */
export interface WaitingFinding {
  instanceId: string;
  team: string | null;
}

/**
 * Who hears, once a day (the key names the source, the team and the UTC day), that a GPU inventory
 * source could not be read: the people who can act and those whose alerts wait. They are the teams
 * with machines on it at its last good read or open idle findings of those machines, and the
 * channel of unowned GPUs (where admins act) when `gpu.unowned` names one. Of a source not read
 * since burnrate started nothing is known: the unowned channel hears it, or every team without one.
 */
export function unreadInventoryNotices(
  deps: Deps,
  unavailable: readonly UnreadInventory[],
  waiting: readonly WaitingFinding[],
  now: Date,
  onlyTeams?: readonly string[],
): OutboxDraft[] {
  if (deps.chat.length === 0) return [];
  const day = now.toISOString().slice(0, 10);
  const teams = deps.config.teams.filter((t) => !onlyTeams || onlyTeams.includes(t.id));
  // A run for named teams leaves the unowned machines (and their channel) out.
  const unowned = onlyTeams ? [] : [unownedTeam(deps.config)].filter((t) => channelsOf(deps.chat, t).length > 0);
  return unavailable.flatMap((unread) =>
    recipients(unread, waiting, teams, unowned).flatMap((team) =>
      fanOut(
        deps.chat,
        team,
        `gpu.inventory-unread:${unread.source}:${team.id}:${day}`,
        unreadInventoryNotice(team.name ?? team.id, unread),
      ),
    ),
  );
}

function recipients(
  unread: UnreadInventory,
  waiting: readonly WaitingFinding[],
  teams: readonly TeamConfig[],
  unowned: readonly TeamConfig[],
): TeamConfig[] {
  if (!unread.lastRead) return unowned.length > 0 ? [...unowned] : [...teams];
  const machines = new Set(unread.lastRead.map((m) => m.instanceId));
  const concerned = new Set([
    ...unread.lastRead.map((m) => m.team),
    ...waiting.flatMap((f) => (f.team !== null && machines.has(f.instanceId) ? [f.team] : [])),
  ]);
  return [...teams.filter((t) => concerned.has(t.id)), ...unowned];
}

/** Clusters that have not answered since burnrate started, as unread sources: their workloads are unknown. */
export function neverRead(clusters: readonly ClusterRead[]): UnreadInventory[] {
  return clusters.flatMap(({ unanswered, inventory }) =>
    unanswered && !unanswered.lastGoodAt ? [{ source: `kubernetes (${inventory.cluster})`, error: unanswered.error }] : [],
  );
}
