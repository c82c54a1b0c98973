import type { Deps } from '../../../deps.js';
import type { ClusterRead } from '../../../ports/cluster-read.js';
import { fanOut } from '../../../outbox/fan-out.js';
import type { OutboxDraft } from '../../../store/outbox-records.js';
import { staleClusterNotice } from '../../../../templates/stale-cluster-notice.js';

/**
 * Each team with workloads on a cluster that does not answer hears it once a day (the key names
 * the cluster and the UTC day), like a stale billing source: its teams are those of the namespaces
 * in the last read and those that claim namespaces (`teams[].gpu.namespaces`); a cluster never
 * read and claimed by nobody is told to every team, since any of them may run there.
 */
export function unansweredClusterNotices(
  deps: Deps,
  clusters: readonly ClusterRead[],
  now: Date,
  onlyTeams?: readonly string[],
): OutboxDraft[] {
  if (deps.chat.length === 0) return [];
  const day = now.toISOString().slice(0, 10);
  return clusters.flatMap((cluster) => {
    const { unanswered, inventory } = cluster;
    if (!unanswered) return [];
    const seen = new Set(inventory.pods.flatMap((pod) => cluster.teamOf(pod.namespace) ?? []));
    const claiming = deps.config.teams.filter((t) => seen.has(t.id) || t.gpu.namespaces.length > 0);
    const told = (claiming.length > 0 ? claiming : deps.config.teams).filter((t) => !onlyTeams || onlyTeams.includes(t.id));
    return told.flatMap((team) =>
      fanOut(
        deps.chat,
        team,
        `gpu.cluster-unanswered:${inventory.cluster}:${team.id}:${day}`,
        staleClusterNotice(team.name ?? team.id, { cluster: inventory.cluster, ...unanswered }),
      ),
    );
  });
}
