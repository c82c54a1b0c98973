import type { Deps } from '../../../deps.js';
import type { UnreadInventory } from '../../../domain/inventory-read.js';
import type { ClusterRead } from '../../../ports/cluster-read.js';
import { fanOut } from '../../../outbox/fan-out.js';
import type { OutboxDraft } from '../../../store/outbox-records.js';
import { unreadInventoryNotice } from '../../../../templates/unread-inventory-notice.js';

/**
 * Each team hears once a day (the key names the source and the UTC day) that a GPU inventory source
 * could not be read: any team may have machines there, and its open alerts on them wait for it.
 */
export function unreadInventoryNotices(
  deps: Deps,
  unavailable: readonly UnreadInventory[],
  now: Date,
  onlyTeams?: readonly string[],
): OutboxDraft[] {
  if (deps.chat.length === 0) return [];
  const day = now.toISOString().slice(0, 10);
  const teams = deps.config.teams.filter((t) => !onlyTeams || onlyTeams.includes(t.id));
  return unavailable.flatMap((unread) =>
    teams.flatMap((team) =>
      fanOut(
        deps.chat,
        team,
        `gpu.inventory-unread:${unread.source}:${team.id}:${day}`,
        unreadInventoryNotice(team.name ?? team.id, unread),
      ),
    ),
  );
}

/** Clusters that have not answered since burnrate started, as unread sources: their workloads are unknown. */
export function neverRead(clusters: readonly ClusterRead[]): UnreadInventory[] {
  return clusters.flatMap(({ unanswered, inventory }) =>
    unanswered && !unanswered.lastGoodAt ? [{ source: `kubernetes (${inventory.cluster})`, error: unanswered.error }] : [],
  );
}
